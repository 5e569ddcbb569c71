// The loopback object-store servers (test/support/object-stores.ts) do what the reader's storage tests rely on, as
// seen through OpenDAL, the library the storage layer is built on: ordered listing from a start key, ranged reads,
// stat with size and modification time, multipart writes that stay invisible until closed, and refused credentials.
// Expected bytes come from the local copy of the table; a server whose program is missing reports itself skipped.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { tablePath } from '../../support/tables.js';
import { isSkipped, startAzurite, startGcs, startS3, uploadFolder, type AzuriteStore, type GcsStore, type S3Store, type Skipped } from '../../support/object-stores.js';

type OpenDal = typeof import('opendal');
type Operator = InstanceType<OpenDal['Operator']>;

// The binding tries a local file, then the platform package; the last failure is the telling one (a missing GLIBC).
const opendal: OpenDal | Skipped = await import('opendal').catch((err: unknown) => {
  const tries: unknown[] = err instanceof Error && Array.isArray(err.cause) ? err.cause : [err];
  const last = tries.at(-1);
  return { skipped: `OpenDAL's native binding does not load here: ${(last instanceof Error ? last.message : String(last)).split('\n')[0]}` };
});

const TABLE = tablePath('simple_table');
const PREFIX = 'tables/simple_table';
const LOG = `${PREFIX}/_delta_log/`;
const MIB = 1024 * 1024;

type Store = S3Store | AzuriteStore | GcsStore;

interface Case {
  name: string;
  start(): Promise<Store | Skipped>;
  /** Whether OpenDAL's service for this store passes a start key to the server (S3's start-after). */
  listsFromStartKey: boolean;
  checksCredentials: boolean;
  /** Why the server cannot take OpenDAL's multipart writes, if it cannot. */
  noMultipart?: string;
}

const cases: Case[] = [
  { name: 'S3 (moto)', start: startS3, listsFromStartKey: true, checksCredentials: true },
  { name: 'Azure Blob (Azurite)', start: startAzurite, listsFromStartKey: false, checksCredentials: true },
  // fake-gcs-server takes any request, signed or not.
  {
    name: 'GCS (fake-gcs-server)',
    start: startGcs,
    listsFromStartKey: true,
    checksCredentials: false,
    noMultipart: "OpenDAL's gcs writer uses the XML API's multipart upload (POST ?uploads), which fake-gcs-server does not serve",
  },
];

/** OpenDAL's scheme and options for one bucket of the store, with a wrong secret if asked. */
function operatorOptions(store: Store, bucket: string, wrongSecret: boolean): [string, Record<string, string>] {
  switch (store.kind) {
    case 's3':
      return ['s3', {
        bucket,
        endpoint: store.endpoint,
        region: store.region,
        access_key_id: store.accessKeyId,
        secret_access_key: wrongSecret ? 'not-the-secret' : store.secretAccessKey,
        disable_config_load: 'true',
        disable_ec2_metadata: 'true',
      }];
    case 'azblob':
      return ['azblob', {
        container: bucket,
        endpoint: store.blobEndpoint,
        account_name: store.accountName,
        account_key: wrongSecret ? Buffer.from('not-the-account-key').toString('base64') : store.accountKey,
      }];
    case 'gcs':
      return ['gcs', { bucket, endpoint: store.endpoint, allow_anonymous: 'true', disable_vm_metadata: 'true', disable_config_load: 'true' }];
  }
}

for (const testCase of cases) {
  describe(testCase.name, () => {
    let skipReason: string | null = null;
    let store: Store | undefined;
    let op: Operator;
    const operator = (bucket: string, wrongSecret = false) => new (opendal as OpenDal).Operator(...operatorOptions(store!, bucket, wrongSecret));
    const skipIfUnavailable = (ctx: TestContext, unsupported?: string) => {
      if (skipReason ?? unsupported) ctx.skip(`${testCase.name} skipped: ${skipReason ?? unsupported}`);
    };
    /** The files (not folders) right under a prefix, in the order listed. */
    const files = async (prefix: string, startAfter?: string) =>
      (await op.list(prefix, startAfter ? { startAfter } : {})).filter((entry) => entry.metadata().isFile());

    beforeAll(async () => {
      if (isSkipped(opendal)) skipReason = opendal.skipped;
      else {
        const started = await testCase.start();
        if (isSkipped(started)) skipReason = started.skipped;
        else store = started;
      }
      // The default reporter shows skipped tests only as a count: the reason is also printed, once.
      if (skipReason) return void console.warn(`${testCase.name} skipped: ${skipReason}`);
      await store!.createBucket('tables');
      await uploadFolder(store!, 'tables', PREFIX, TABLE);
      op = operator('tables');
    });
    afterAll(() => store?.stop());

    it('lists keys in lexicographic order, from a start key', async (ctx) => {
      skipIfUnavailable(ctx);
      const commits = (await files(LOG)).map((entry) => entry.path());
      expect(commits).toEqual([0, 1, 2, 3, 4].map((version) => `${LOG}${String(version).padStart(20, '0')}.json`));
      const after = (await files(LOG, commits[1])).map((entry) => entry.path());
      // OpenDAL's azblob passes no start key (Azure's List Blobs has only opaque markers): the reader filters there.
      expect(after).toEqual(testCase.listsFromStartKey ? commits.slice(2) : commits);
      expect(op.capability().listWithStartAfter).toBe(testCase.listsFromStartKey);
    });

    it('reads exactly the requested byte range', async (ctx) => {
      skipIfUnavailable(ctx);
      const file = firstDataFile();
      const local = readFileSync(path.join(TABLE, file));
      const footer = await op.read(`${PREFIX}/${file}`, { offset: BigInt(local.length - 8), size: 8n });
      expect(footer.equals(local.subarray(local.length - 8))).toBe(true);
      const middle = await op.read(`${PREFIX}/${file}`, { offset: 4n, size: 100n });
      expect(middle.equals(local.subarray(4, 104))).toBe(true);
    });

    it('stats an object with its size and modification time; commits uploaded in order have increasing times', async (ctx) => {
      skipIfUnavailable(ctx);
      const file = firstDataFile();
      const stat = await op.stat(`${PREFIX}/${file}`);
      expect(stat.contentLength).toBe(BigInt(readFileSync(path.join(TABLE, file)).length));
      expect(Number.isNaN(Date.parse(stat.lastModified ?? ''))).toBe(false);
      const commits = await files(LOG);
      const listed = commits.map((entry) => Date.parse(entry.metadata().lastModified ?? ''));
      const statted = await Promise.all(commits.map(async (entry) => Date.parse((await op.stat(entry.path())).lastModified ?? '')));
      for (const times of [listed, statted]) {
        for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
      }
    });

    it('keeps a multipart write invisible until it is closed', async (ctx) => {
      skipIfUnavailable(ctx, testCase.noMultipart);
      const key = 'exports/multipart.bin';
      const parts = [Buffer.alloc(6 * MIB, 1), Buffer.alloc(6 * MIB, 2)];
      const writer = await op.writer(key, { chunk: BigInt(5 * MIB) });
      for (const part of parts) await writer.write(part);
      await expect(op.stat(key)).rejects.toThrow(/NotFound/);
      await writer.close();
      expect((await op.stat(key)).contentLength).toBe(BigInt(12 * MIB));
      const across = await op.read(key, { offset: BigInt(6 * MIB - 2), size: 4n });
      expect([...across]).toEqual([1, 1, 2, 2]);
      if (store?.kind === 's3') expect(await store.pendingUploads('tables')).toEqual([]);
    });

    it('leaves nothing visible from a write that is never closed, and S3 aborts its parts', async (ctx) => {
      skipIfUnavailable(ctx, testCase.noMultipart);
      const key = 'exports/abandoned.bin';
      const writer = await op.writer(key, { chunk: BigInt(5 * MIB) });
      await writer.write(Buffer.alloc(12 * MIB, 3));
      await expect(op.stat(key)).rejects.toThrow(/NotFound/);
      expect((await files('exports/')).map((entry) => entry.path())).not.toContain(key);
      if (store?.kind !== 's3') return;
      // OpenDAL's Node writer has no abort(): the multipart upload stays on the server until it is aborted.
      const pending = await store.pendingUploads('tables');
      expect(pending.map((upload) => upload.key)).toEqual([key]);
      await store.abortUpload('tables', pending[0]);
      expect(await store.pendingUploads('tables')).toEqual([]);
      await expect(op.stat(key)).rejects.toThrow(/NotFound/);
    });

    it('refuses wrong credentials and names a missing bucket', async (ctx) => {
      skipIfUnavailable(ctx);
      const file = `${PREFIX}/${firstDataFile()}`;
      if (testCase.checksCredentials) {
        await expect(operator('tables', true).stat(file)).rejects.toThrow(/PermissionDenied/);
        await expect(operator('tables', true).list(LOG)).rejects.toThrow(/PermissionDenied/);
      }
      await expect(operator('no-such-bucket').list(LOG)).rejects.toThrow(/NoSuchBucket|ContainerNotFound|Not Found|NotFound/);
    });
  });
}

function firstDataFile(): string {
  const add = readFileSync(path.join(TABLE, '_delta_log/00000000000000000000.json'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { add?: { path: string } })
    .find((action) => action.add)?.add;
  if (!add) throw new Error('simple_table version 0 adds no file');
  return decodeURIComponent(add.path);
}
