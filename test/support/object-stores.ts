// Real object-store servers for the storage tests, each a child process on a free loopback port, in memory, gone
// when the test run ends (see object-stores-process.ts):
// - S3: moto's server (object-stores-moto.py) with IAM auth on, so wrong credentials are refused as on AWS;
// - Azure Blob: Azurite's blob service (npm devDependency) with the emulator's well-known account;
// - GCS: fake-gcs-server (a Go binary that .ci/run installs), no auth.
// A server whose program is not installed comes back as { skipped: reason }, for the test to report as skipped.
// Buckets and objects are made through each store's own protocol (aws4fetch's SigV4 signing, Azure's SDK, plain
// HTTP for GCS), never through the code under test.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { AwsClient } from 'aws4fetch';
import { freePort } from './free-port.js';
import { firstJsonLine, startServerProcess, waitUntilServing, type ServerProcess } from './object-stores-process.js';

export interface Skipped {
  skipped: string;
}

export interface ObjectStore {
  kind: 's3' | 'azblob' | 'gcs';
  createBucket(name: string): Promise<void>;
  putObject(bucket: string, key: string, body: Uint8Array): Promise<void>;
  deleteObject(bucket: string, key: string): Promise<void>;
  /** The object's bytes, or null when there is no such object. */
  getObject(bucket: string, key: string): Promise<Uint8Array | null>;
  /** The object's modification time (epoch ms) as the server itself reports it. */
  lastModified(bucket: string, key: string): Promise<number>;
  /** What the server lists directly under a key prefix (ending in '/', or '' for the bucket) with the delimiter '/',
   * every page of it: subfolders' names (no trailing '/') and files' names. */
  listByDelimiter(bucket: string, prefix: string): Promise<{ folders: string[]; files: string[] }>;
  stop(): Promise<void>;
}

export interface S3Store extends ObjectStore {
  kind: 's3';
  /** http://127.0.0.1:port, path-style: http://127.0.0.1:port/bucket/key */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Multipart uploads started in the bucket and neither completed nor aborted, by key. */
  pendingUploads(bucket: string): Promise<{ key: string; uploadId: string }[]>;
  abortUpload(bucket: string, upload: { key: string; uploadId: string }): Promise<void>;
}

export interface AzuriteStore extends ObjectStore {
  kind: 'azblob';
  /** http://127.0.0.1:port/devstoreaccount1 (Azurite's path-style account URL) */
  blobEndpoint: string;
  accountName: string;
  accountKey: string;
}

export interface GcsStore extends ObjectStore {
  kind: 'gcs';
  /** http://127.0.0.1:port; the JSON API is under /storage/v1 */
  endpoint: string;
}

export const isSkipped = (server: object): server is Skipped => 'skipped' in server;

const REPO_ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  path.extname(fileURLToPath(import.meta.url)) === '.ts' ? '../..' : '../../..',
);
const S3_REGION = 'us-east-1';

export async function startS3(): Promise<S3Store | Skipped> {
  const server = startServerProcess('moto', 'python3', [path.join(REPO_ROOT, 'test/support/object-stores-moto.py')]);
  const started = await firstJsonLine<{ endpoint?: string; accessKeyId?: string; secretAccessKey?: string; error?: string }>(server);
  if (!started?.endpoint || !started.accessKeyId || !started.secretAccessKey) {
    await server.stop();
    const reason = started?.error ?? `it exited or was silent for 60 s: ${server.lastOutput()}`;
    if (/not installed|No such file|not found/i.test(reason)) return { skipped: `no S3 server: ${reason} (pip install "moto[server]")` };
    throw new Error(`could not start the S3 server (moto): ${reason}`);
  }
  const { endpoint, accessKeyId, secretAccessKey } = started;
  const aws = new AwsClient({ accessKeyId, secretAccessKey, region: S3_REGION, service: 's3', retries: 0 });
  const send = async (method: string, url: string, body?: Uint8Array): Promise<{ text: string; headers: Headers }> => {
    const response = await aws.fetch(url, { method, body });
    const text = await response.text();
    if (!response.ok) throw new Error(`S3 ${method} ${url} failed: ${response.status} ${text.match(/<Code>(.*?)<\/Code>/)?.[1] ?? text}`);
    return { text, headers: response.headers };
  };
  const call = async (method: string, url: string, body?: Uint8Array): Promise<string> => (await send(method, url, body)).text;
  const objectUrl = (bucket: string, key: string) => `${endpoint}/${bucket}/${encodeKey(key)}`;
  return {
    kind: 's3',
    endpoint,
    region: S3_REGION,
    accessKeyId,
    secretAccessKey,
    createBucket: async (name) => void (await call('PUT', `${endpoint}/${name}`)),
    putObject: async (bucket, key, body) => void (await call('PUT', objectUrl(bucket, key), body)),
    deleteObject: async (bucket, key) => void (await call('DELETE', objectUrl(bucket, key))),
    async getObject(bucket, key) {
      const response = await aws.fetch(objectUrl(bucket, key));
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`S3 GET ${bucket}/${key} failed: ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
    lastModified: async (bucket, key) => httpDate((await send('HEAD', objectUrl(bucket, key))).headers),
    async listByDelimiter(bucket, prefix) {
      const listed = { folders: [] as string[], files: [] as string[] };
      let token: string | undefined;
      do {
        const query = new URLSearchParams({ 'list-type': '2', prefix, delimiter: '/' });
        if (token) query.set('continuation-token', token);
        const xml = await call('GET', `${endpoint}/${bucket}?${query}`);
        for (const [, p] of xml.matchAll(/<CommonPrefixes>\s*<Prefix>(.*?)<\/Prefix>/g))
          listed.folders.push(xmlText(p).slice(prefix.length, -1));
        for (const [, key] of xml.matchAll(/<Contents>\s*<Key>(.*?)<\/Key>/g)) listed.files.push(xmlText(key).slice(prefix.length));
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
          ? xmlText(xml.match(/<NextContinuationToken>(.*?)<\/NextContinuationToken>/)?.[1] ?? '')
          : undefined;
      } while (token);
      return listed;
    },
    async pendingUploads(bucket) {
      const xml = await call('GET', `${endpoint}/${bucket}?uploads`);
      return [...xml.matchAll(/<Upload>[\s\S]*?<\/Upload>/g)].map(([upload]) => ({
        key: upload.match(/<Key>(.*?)<\/Key>/)?.[1] ?? '',
        uploadId: upload.match(/<UploadId>(.*?)<\/UploadId>/)?.[1] ?? '',
      }));
    },
    abortUpload: async (bucket, upload) =>
      void (await call('DELETE', `${objectUrl(bucket, upload.key)}?uploadId=${encodeURIComponent(upload.uploadId)}`)),
    stop: () => server.stop(),
  };
}

/** Azurite's published development account (the emulator accepts no other). */
const AZURITE_ACCOUNT = 'devstoreaccount1';
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export async function startAzurite(): Promise<AzuriteStore | Skipped> {
  let main: string;
  try {
    main = path.join(path.dirname(createRequire(import.meta.url).resolve('azurite/package.json')), 'dist/src/blob/main.js');
  } catch {
    return { skipped: 'no Azure server: the azurite package is not installed (npm ci)' };
  }
  const port = await freePort();
  const server = startServerProcess('azurite', process.execPath, [
    main,
    ...['--blobHost', '127.0.0.1', '--blobPort', String(port)],
    // In memory (a few tables' worth), accepting the API versions and headers of clients newer than Azurite.
    ...['--inMemoryPersistence', '--extentMemoryLimit', '1024', '--skipApiVersionCheck', '--loose', '--disableTelemetry', '--silent'],
  ]);
  const blobEndpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`;
  await waitUntilServing(server, 'Azurite', blobEndpoint);
  const service = new BlobServiceClient(blobEndpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY));
  const blob = (container: string, key: string) => service.getContainerClient(container).getBlockBlobClient(key);
  return {
    kind: 'azblob',
    blobEndpoint,
    accountName: AZURITE_ACCOUNT,
    accountKey: AZURITE_KEY,
    createBucket: async (name) => void (await service.getContainerClient(name).create()),
    putObject: async (container, key, body) => void (await blob(container, key).uploadData(body)),
    deleteObject: async (container, key) => void (await blob(container, key).delete()),
    async getObject(container, key) {
      if (!(await blob(container, key).exists())) return null;
      return new Uint8Array(await blob(container, key).downloadToBuffer());
    },
    async lastModified(container, key) {
      const modified = (await blob(container, key).getProperties()).lastModified;
      if (!modified) throw new Error(`Azurite gave no Last-Modified for ${container}/${key}`);
      return modified.getTime();
    },
    async listByDelimiter(container, prefix) {
      const listed = { folders: [] as string[], files: [] as string[] };
      for await (const item of service.getContainerClient(container).listBlobsByHierarchy('/', { prefix })) {
        if (item.kind === 'prefix') listed.folders.push(item.name.slice(prefix.length, -1));
        else listed.files.push(item.name.slice(prefix.length));
      }
      return listed;
    },
    stop: () => server.stop(),
  };
}

export async function startGcs(): Promise<GcsStore | Skipped> {
  const binary = fakeGcsServerBinary();
  if (!binary) return { skipped: 'no GCS server: fake-gcs-server is not installed (go install github.com/fsouza/fake-gcs-server)' };
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const server: ServerProcess = startServerProcess('fake-gcs', binary, [
    ...['-backend', 'memory', '-scheme', 'http', '-host', '127.0.0.1', '-port', String(port)],
    // The URLs it hands out (resumable upload sessions) must point back at this address.
    ...['-public-host', `127.0.0.1:${port}`, '-external-url', endpoint, '-log-level', 'error'],
  ]);
  await waitUntilServing(server, 'fake-gcs-server', `${endpoint}/storage/v1/b`);
  const call = async (method: string, url: string, body?: Uint8Array | string): Promise<string> => {
    const response = await fetch(url, { method, body, headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {} });
    const text = await response.text();
    if (!response.ok) throw new Error(`GCS ${method} ${url} failed: ${response.status} ${text}`);
    return text;
  };
  const objectUrl = (bucket: string, key: string) => `${endpoint}/storage/v1/b/${bucket}/o/${encodeURIComponent(key)}`;
  return {
    kind: 'gcs',
    endpoint,
    createBucket: async (name) => void (await call('POST', `${endpoint}/storage/v1/b?project=deltaport-test`, JSON.stringify({ name }))),
    putObject: async (bucket, key, body) =>
      void (await call('POST', `${endpoint}/upload/storage/v1/b/${bucket}/o?uploadType=media&name=${encodeURIComponent(key)}`, body)),
    deleteObject: async (bucket, key) => void (await call('DELETE', objectUrl(bucket, key))),
    async getObject(bucket, key) {
      const response = await fetch(`${objectUrl(bucket, key)}?alt=media`);
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`GCS GET ${bucket}/${key} failed: ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
    async lastModified(bucket, key) {
      const { updated } = JSON.parse(await call('GET', objectUrl(bucket, key))) as { updated?: string };
      const ms = Date.parse(updated ?? '');
      if (Number.isNaN(ms)) throw new Error(`fake-gcs-server gave no updated time for ${bucket}/${key}`);
      return ms;
    },
    async listByDelimiter(bucket, prefix) {
      const listed = { folders: [] as string[], files: [] as string[] };
      let token: string | undefined;
      do {
        const query = new URLSearchParams({ prefix, delimiter: '/' });
        if (token) query.set('pageToken', token);
        const page = JSON.parse(await call('GET', `${endpoint}/storage/v1/b/${bucket}/o?${query}`)) as {
          items?: { name: string }[];
          prefixes?: string[];
          nextPageToken?: string;
        };
        for (const p of page.prefixes ?? []) listed.folders.push(p.slice(prefix.length, -1));
        for (const item of page.items ?? []) listed.files.push(item.name.slice(prefix.length));
        token = page.nextPageToken;
      } while (token);
      return listed;
    },
    stop: () => server.stop(),
  };
}

/** Text of an XML element as S3 writes it (the five escapes). */
function xmlText(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] ?? '');
}

function httpDate(headers: Headers): number {
  const ms = Date.parse(headers.get('last-modified') ?? '');
  if (Number.isNaN(ms)) throw new Error(`no Last-Modified header: ${headers.get('last-modified')}`);
  return ms;
}

function fakeGcsServerBinary(): string | null {
  // go install puts it in GOPATH/bin, which is seldom on PATH.
  const candidates = [onPath('fake-gcs-server'), path.join(process.env.GOPATH ?? path.join(homedir(), 'go'), 'bin/fake-gcs-server')];
  return candidates.find((candidate): candidate is string => !!candidate && existsSync(candidate)) ?? null;
}

function onPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Each path segment percent-encoded, so keys with spaces, '%' or '=' (Hive partition folders) stay literal. */
function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

export const LAKE_BUCKET = 'lake';

/** moto's S3 with the bucket LAKE_BUCKET holding the local Delta table `table` under each of `keys` (unspaced), as the
 * catalog tests set it up; or why S3 is skipped. */
export async function startS3WithTable(table: string, ...keys: string[]): Promise<S3Store | Skipped> {
  const store = await startS3();
  if (isSkipped(store)) return store;
  await store.createBucket(LAKE_BUCKET);
  for (const key of keys) await uploadFolder(store, LAKE_BUCKET, key, table, { spaced: false });
  return store;
}

/**
 * Uploads a local folder (a Delta table) under prefix: data files first, then the log, one version at a time in
 * version order. Time travel by timestamp on a store reads object modification times, which the servers keep to the
 * second, so each version waits until the clock has passed into a new second: versions get strictly increasing times.
 * A test that does not travel by timestamp passes `spaced: false` and spares the waits.
 * Returns the keys uploaded, in upload order.
 */
export async function uploadFolder(
  store: ObjectStore,
  bucket: string,
  prefix: string,
  localDir: string,
  { spaced = true } = {},
): Promise<string[]> {
  const files = listFiles(localDir);
  const isLog = (file: string) => file.startsWith('_delta_log/') && !file.startsWith('_delta_log/_sidecars/');
  const versionOf = (file: string) => /^_delta_log\/(\d{20})\./.exec(file)?.[1];
  const data = files.filter((file) => !isLog(file));
  const versioned = files.filter((file) => isLog(file) && versionOf(file) !== undefined);
  const rest = files.filter((file) => isLog(file) && versionOf(file) === undefined);
  const keyOf = (file: string) => (prefix ? `${prefix.replace(/\/+$/, '')}/${file}` : file);
  const uploaded: string[] = [];
  const put = async (file: string) => {
    await store.putObject(bucket, keyOf(file), readFileSync(path.join(localDir, file)));
    uploaded.push(keyOf(file));
  };
  for (const file of data) await put(file);
  const versions = [...new Set(versioned.map(versionOf))].sort();
  for (const [index, version] of versions.entries()) {
    if (index > 0 && spaced) await untilNextSecond();
    for (const file of versioned.filter((candidate) => versionOf(candidate) === version)) await put(file);
  }
  for (const file of rest) await put(file);
  return uploaded;
}

function untilNextSecond(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 20));
}

/** Files under dir, as '/'-separated paths relative to it, sorted. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** The URL of one of the server's buckets, as a user types it. */
export function bucketUrl(store: S3Store | AzuriteStore | GcsStore, bucket: string): string {
  return `${store.kind === 's3' ? 's3' : store.kind === 'azblob' ? 'az' : 'gs'}://${bucket}`;
}

/**
 * The storage options (`--storage-option` names) that reach the server; `wrongSecret` replaces its secret, and
 * `refused` names whose credentials a server that checks them then refuses (null for fake-gcs-server, which takes
 * any request).
 */
export function serverOptions(
  store: S3Store | AzuriteStore | GcsStore,
  wrongSecret = false,
): { options: Record<string, string>; refused: string | null } {
  switch (store.kind) {
    case 's3':
      return {
        options: {
          endpoint: store.endpoint,
          region: store.region,
          path_style: 'true',
          access_key_id: store.accessKeyId,
          secret_access_key: wrongSecret ? 'not-the-secret' : store.secretAccessKey,
        },
        refused: `access key ${store.accessKeyId}`,
      };
    case 'azblob':
      return {
        options: {
          endpoint: store.blobEndpoint,
          account_name: store.accountName,
          account_key: wrongSecret ? Buffer.from('not-the-account-key').toString('base64') : store.accountKey,
        },
        refused: `storage account ${store.accountName}`,
      };
    case 'gcs':
      return { options: { endpoint: store.endpoint, anonymous: 'true' }, refused: null };
  }
}
