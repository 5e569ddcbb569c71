// The shared Delta tables uploaded to real object-store servers on loopback (moto, Azurite, fake-gcs-server) read
// through the reader with cloud URLs exactly as their local copies should: rows from DuckDB over the LOCAL files
// (test/support/delta-oracle-rows.ts), counts from the log (test/support/delta-oracle.ts), commit times from each
// server's own Last-Modified. Also the faults a store brings for real: refused credentials, a missing bucket, an
// object deleted mid-read, a server that stalls (a fault proxy in front of moto), and the CLI against the S3 server.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeltaportError } from '../../../shared/errors.js';
import { parseStoreLocation } from '../../../shared/store-location.js';
import { previewRows } from '../../../electron/delta/preview-rows.js';
import { openSource } from '../../../electron/delta/source.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { fetchCounts } from '../../../electron/storage/fetch-counter.js';
import { openStore } from '../../../electron/storage/open-store.js';
import { StorageError } from '../../../electron/storage/storage.js';
import { displayTextReader } from '../../../electron/values/text-formats.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { bucketUrl, serverOptions, uploadFolder, type AzuriteStore, type S3Store } from '../../support/object-stores.js';
import { SERVERS, serverForSuite, type SuiteServer } from '../../support/object-stores-suite.js';
import { tablePath } from '../../support/tables.js';
import { commitInfo, commitVersions, type Json, oracleRecordCount, oracleSnapshot } from '../../support/delta-oracle.js';
import { duckCells, duckdbRows, fileSelect } from '../../support/delta-oracle-rows.js';
import { v } from '../delta/log-files.js';
import { StoreSettings } from '../../support/store-settings.js';

const BUCKET = 'lake';
/** Opens a table through the options this test registers for its servers. */
const stores = new StoreSettings();
const openRegistered = stores.openTable;
/** Tables whose every version's commit time matters: uploaded a second apart per version (uploadFolder). */
const SPACED = ['simple_table'];
const TABLES = [
  'table-with-dv-small',
  'simple_table_with_checkpoint',
  'checkpoint-v2-table',
  'table_with_column_mapping',
  'delta-0.8.0-special-partition',
  'COVID-19_NYT',
];
/** Where a table goes that the fault tests change (a data file deleted on the server). */
const DOOMED = 'doomed/simple_table';

/** Each row of the read as its columns' display text ('NULL' for null) joined by '|', sorted, as duckCells gives. */
async function ourRows(tablePath: string, columns: string[], at: { versionAsOf?: number; timestampAsOf?: string } = {}): Promise<string[]> {
  const source = await openSource({ tablePath, columnNames: columns, ...at }, openRegistered);
  const rows: string[] = [];
  for await (const { batch } of source.batches()) {
    const cells = columns.map((name) => displayTextReader(batch.getChild(name)!));
    for (let r = 0; r < batch.numRows; r++) rows.push(cells.map((cell) => cell(r) ?? 'NULL').join('|'));
  }
  return rows.sort();
}

async function failureOf(run: () => Promise<unknown>): Promise<DeltaportError> {
  const err = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeltaportError);
  expect((err as Error).message).not.toContain('\n');
  return err as DeltaportError;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const server of SERVERS) {
  describe(server.name, () => {
    let lake: string;
    const at = (table: string) => `${lake}/${table}`;
    /** Keys uploaded per table, as the server holds them. */
    const uploaded = new Map<string, string[]>();
    const suite = serverForSuite(server, async (store) => {
      lake = bucketUrl(store, BUCKET);
      await store.createBucket(BUCKET);
      const put = async (table: string, prefix: string, spaced: boolean) =>
        uploaded.set(prefix, await uploadFolder(store, BUCKET, prefix, tablePath(table), { spaced }));
      await Promise.all([
        ...SPACED.map((table) => put(table, table, true)),
        ...TABLES.map((table) => put(table, table, false)),
        put('simple_table', DOOMED, false),
      ]);
      stores.add(lake, serverOptions(store).options);
    });

    it('reads every version of simple_table by version, as DuckDB reads the local files', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const local = tablePath('simple_table');
      for (const version of commitVersions(local)) {
        expect(await ourRows(at('simple_table'), ['id'], { versionAsOf: version })).toEqual(
          (await duckdbRows(local, version, 'true', ['id'])).rows,
        );
      }
    });

    it('travels by timestamp to the version whose commit object the server last modified at or before it', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const local = tablePath('simple_table');
      const versions = commitVersions(local);
      const times = await Promise.all(
        versions.map((version) => suite.store.lastModified(BUCKET, `simple_table/_delta_log/${v(version)}.json`)),
      );
      for (const [i, version] of versions.entries()) {
        const expected = (await duckdbRows(local, version, 'true', ['id'])).rows;
        expect(await ourRows(at('simple_table'), ['id'], { timestampAsOf: new Date(times[i]).toISOString() })).toEqual(expected);
        // Just before the next commit is still this version.
        if (i + 1 < versions.length) {
          const before = new Date(times[i + 1] - 1).toISOString();
          expect((await openSource({ tablePath: at('simple_table'), timestampAsOf: before }, openRegistered)).snapshot.version).toBe(
            version,
          );
        }
      }
      const early = await failureOf(() =>
        openSource({ tablePath: at('simple_table'), timestampAsOf: new Date(times[0] - 1_000).toISOString() }, openRegistered),
      );
      expect(early.message).toMatch(/is before the earliest commit \(version 0 at /);
    });

    it("gives simple_table's history as its log has it: every commit, with its operation and server time", async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const local = tablePath('simple_table');
      const history = (await (await DeltaTable.open(at('simple_table'), stores.engine)).history()).sort((a, b) => a.version - b.version);
      const versions = commitVersions(local);
      expect(history.map((commit) => commit.version)).toEqual(versions);
      expect(history.map((commit) => commit.operation)).toEqual(versions.map((version) => commitInfo(local, version).operation));
      const times = await Promise.all(
        versions.map((version) => suite.store.lastModified(BUCKET, `simple_table/_delta_log/${v(version)}.json`)),
      );
      expect(history.map((commit) => commit.timestamp)).toEqual(times);
    });

    it('applies deletion vectors read from the bucket', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const local = tablePath('table-with-dv-small');
      // Commit 1 deletes by deletion vector what its predicate names; version 0 has no deletion vector, so DuckDB
      // reads it whole and applies the predicate itself.
      const predicate = 'value IN (0, 9)';
      expect(JSON.stringify(commitInfo(local, 1).operationParameters)).toContain(predicate);
      const rows = await ourRows(at('table-with-dv-small'), ['value']);
      expect(rows).toHaveLength(oracleRecordCount(await oracleSnapshot(local, 1))!);
      expect(rows).toEqual((await duckdbRows(local, 0, `NOT (${predicate})`, ['value'])).rows);
      expect(rows).toContain('1');
      expect(rows).not.toContain('0');
      expect(rows).not.toContain('9');
      expect(await ourRows(at('table-with-dv-small'), ['value'], { versionAsOf: 0 })).toEqual(
        (await duckdbRows(local, 0, 'true', ['value'])).rows,
      );
    });

    it('reads a classic checkpoint from the bucket, with the commits before it gone', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const name = 'simple_table_with_checkpoint';
      const local = tablePath(name);
      const checkpoint = Number(JSON.parse(readFileSync(path.join(local, '_delta_log/_last_checkpoint'), 'utf8')).version);
      expect(uploaded.get(name)).toContain(`${name}/_delta_log/${v(checkpoint)}.checkpoint.parquet`);
      // Without the earlier commits only the checkpoint can give the file list.
      for (let version = 0; version < checkpoint; version++)
        await suite.store.deleteObject(BUCKET, `${name}/_delta_log/${v(version)}.json`);
      const latest = Math.max(...commitVersions(local));
      expect(await (await DeltaTable.open(at(name), stores.engine)).versionRange()).toEqual({ earliest: checkpoint, latest });
      expect(await ourRows(at(name), ['version'])).toEqual((await duckdbRows(local, latest, 'true', ['version'])).rows);
    });

    it('reads a V2 checkpoint and its sidecars from the bucket, with the commits before it gone', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const name = 'checkpoint-v2-table';
      const local = tablePath(name);
      const last = JSON.parse(readFileSync(path.join(local, '_delta_log/_last_checkpoint'), 'utf8')) as Json;
      const checkpoint = Number(last.version);
      const sidecars = (last.v2Checkpoint.sidecarFiles as Json[]).map((sidecar) => `${name}/_delta_log/_sidecars/${sidecar.path}`);
      expect(sidecars.length).toBeGreaterThan(0);
      for (const sidecar of sidecars) expect(uploaded.get(name)).toContain(sidecar);
      for (let version = 0; version < checkpoint; version++)
        await suite.store.deleteObject(BUCKET, `${name}/_delta_log/${v(version)}.json`);
      const latest = Math.max(...commitVersions(local));
      expect(await (await DeltaTable.open(at(name), stores.engine)).versionRange()).toEqual({ earliest: checkpoint, latest });
      expect(await ourRows(at(name), ['id', 'name'])).toEqual((await duckdbRows(local, latest, 'true', ['id', 'name'])).rows);
      // The adds are in the sidecar alone: without it the checkpoint version cannot be read.
      await suite.store.deleteObject(BUCKET, sidecars[0]);
      const gone = await failureOf(() => ourRows(at(name), ['id'], { versionAsOf: checkpoint }));
      expect(gone.message).toContain(path.basename(sidecars[0]));
    });

    it('maps physical column names and decodes special characters in partition folders', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      for (const [name, columns] of [
        ['table_with_column_mapping', ['Company Very Short', 'Super Name']],
        ['delta-0.8.0-special-partition', ['x', 'y']],
      ] as const) {
        const expected = (await duckdbRows(tablePath(name), 0, 'true', [...columns])).rows;
        expect(expected.length).toBeGreaterThan(0);
        expect(await ourRows(at(name), [...columns])).toEqual(expected);
      }
      // The partition values hold '/' and ' ', written percent-encoded in the folder names on the server.
      expect(uploaded.get('delta-0.8.0-special-partition')!.some((key) => key.includes('x=A%2FA/'))).toBe(true);
    });

    it('previews one column of a large file with ranged reads, fetching a small part of it', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const local = tablePath('COVID-19_NYT');
      const first = [...(await oracleSnapshot(local, 0)).adds.values()][0];
      const fileSize = statSync(path.join(local, decodeURIComponent(first.path as string))).size;
      const limit = 100;
      const before = fetchCounts();
      const preview = await previewRows({ tablePath: at('COVID-19_NYT'), columnNames: ['county'] }, { limit, openTable: openRegistered });
      const counties: string[] = [];
      for await (const batch of preview.batches) {
        const cell = displayTextReader(batch.getChild('county')!);
        for (let r = 0; r < batch.numRows; r++) counties.push(cell(r) ?? 'NULL');
      }
      const fetched = fetchCounts().bytes - before.bytes;
      const file = path.join(local, decodeURIComponent(first.path as string));
      const expected = await duckCells(`${await fileSelect(local, (await oracleSnapshot(local, 0)).metaData, first)} LIMIT ${limit + 1}`, [
        'county',
      ]);
      expect(counties).toEqual(expected);
      // What a preview needs: the log, the footer (its length is in the file's last 8 bytes) and the county chunk of
      // the first row group (its size from DuckDB), within the 2x; and far less than the file.
      const bytes = readFileSync(file);
      const footer = 8 + bytes.readUInt32LE(bytes.length - 8);
      const [chunk] = await duckCells(
        `SELECT total_compressed_size FROM parquet_metadata('${file}') WHERE row_group_id = 0 AND path_in_schema = 'county'`,
        ['total_compressed_size'],
      );
      const log = statSync(path.join(local, '_delta_log', `${v(0)}.json`)).size;
      expect(fetched).toBeGreaterThanOrEqual(Number(chunk));
      expect(fetched - log).toBeLessThan(2 * (footer + Number(chunk)));
      expect(fetched).toBeLessThan(fileSize / 3);
    });

    it('reports an object deleted after the snapshot was opened as a missing file, naming it', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const source = await openSource({ tablePath: at(DOOMED) }, openRegistered);
      const victim = source.snapshot.files[0].add.path;
      await suite.store.deleteObject(BUCKET, `${DOOMED}/${decodeURIComponent(victim)}`);
      const err = await failureOf(async () => {
        for await (const batch of source.batches()) void batch;
      });
      expect(err.code).toBe('MISSING_FILE');
      expect(err.message).toContain(decodeURIComponent(victim));
    });

    it('refuses wrong credentials in one line naming whose they were', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const wrong = serverOptions(suite.store, true);
      if (!wrong.refused) return ctx.skip(`${server.name} checks no credentials`);
      // Options go by bucket: a second bucket with the same table, reached with a wrong secret.
      await suite.store.createBucket('locked');
      await uploadFolder(suite.store, 'locked', 'simple_table', tablePath('simple_table'), { spaced: false });
      const locked = `${bucketUrl(suite.store, 'locked')}/simple_table`;
      stores.add(bucketUrl(suite.store, 'locked'), wrong.options);
      const err = await failureOf(() => openSource({ tablePath: locked }, openRegistered));
      expect(err).toBeInstanceOf(StorageError);
      expect((err as StorageError).reason).toBe('denied');
      expect(err.message).toMatch(new RegExp(`^cannot list ${escape(locked)}.*: access denied for ${escape(wrong.refused)}$`));
      expect(err.stack ?? '').not.toContain(wrong.options.secret_access_key ?? wrong.options.account_key);
    });

    it('names a missing bucket', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const missing = bucketUrl(suite.store, 'no-such-bucket');
      stores.add(missing, serverOptions(suite.store).options);
      const err = await failureOf(() => openSource({ tablePath: `${missing}/simple_table` }, openRegistered));
      expect((err as StorageError).reason).toBe('no-bucket');
      expect(err.message).toBe(`cannot list ${missing}/simple_table: no such bucket`);
    });

    let proxy: FaultProxy | undefined;
    afterAll(() => proxy?.close());

    it('gives up on a server that stalls, in one line, after timeout_ms', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const store = suite.store;
      // Every connection is accepted and then never answered.
      const { options } = serverOptions(store);
      proxy = await startFaultProxy(options.endpoint, () => ({ action: 'stall', atByte: 0 }));
      const stalled = bucketUrl(store, 'stalled');
      stores.add(stalled, { ...options, endpoint: proxy.url.replace(/\/$/, ''), timeout_ms: '1000' });
      const err = await failureOf(() => openSource({ tablePath: `${stalled}/simple_table` }, openRegistered));
      expect((err as StorageError).reason).toBe('unreachable');
      expect(err.message).toMatch(new RegExp(`^cannot list ${escape(stalled)}/simple_table: the storage service cannot be reached`));
      expect(proxy.connections).toBeGreaterThan(0);
    }, 120_000);

    it('reads an object again, whole, when its response is cut mid-body (past the headers, where clients stop retrying)', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      // Large enough to come in many socket reads, so that the cut strikes mid-body.
      const object = randomBytes(3 << 20);
      await suite.store.createBucket('cut');
      await suite.store.putObject('cut', 'part.bin', object);
      const { options } = serverOptions(suite.store);
      const cutting = await startFaultProxy(options.endpoint, (n) => (n === 0 ? { action: 'cut', atByte: 200_000 } : null));
      try {
        const location = `${bucketUrl(suite.store, 'cut')}/part.bin`;
        const storage = openStore(parseStoreLocation(location)!, { ...options, endpoint: cutting.url.replace(/\/$/, '') });
        const bytes = await storage.readRange(location, 1000, 2 << 20);
        expect(Buffer.from(bytes).equals(object.subarray(1000, 1000 + (2 << 20)))).toBe(true);
        expect(cutting.faults).toBe(1);
      } finally {
        await cutting.close();
      }
    });

    if (server.name.startsWith('S3')) cliAgainstS3(suite);
    if (server.name.startsWith('Azure')) {
      it('reads the same table through an abfss:// URL, which names the account', async (ctx) => {
        suite.skipIfUnavailable(ctx);
        const azurite = suite.store as AzuriteStore;
        const account = `abfss://${BUCKET}@${azurite.accountName}.dfs.core.windows.net`;
        // The account comes from the URL; the emulator's endpoint and key from the options.
        stores.add(account, { endpoint: azurite.blobEndpoint, account_key: azurite.accountKey });
        const local = tablePath('simple_table');
        expect(await ourRows(`${account}/simple_table`, ['id'], { versionAsOf: 2 })).toEqual(
          (await duckdbRows(local, 2, 'true', ['id'])).rows,
        );
      });
    }
  });
}

/** The built CLI against the S3 server. */
function cliAgainstS3(suite: SuiteServer): void {
  describe('deltaport preview s3://...', () => {
    const bin = path.resolve(import.meta.dirname, '../../../dist/electron/cli/bin.js');
    const deltaport = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [bin, ...args], (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }));
      });
    const flags = (options: Record<string, string>) =>
      Object.entries(options).flatMap(([name, value]) => ['--storage-option', `${name}=${value}`]);

    it('previews the rows of a table in the bucket, and refuses a wrong key in one line', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm run build first`);
      const store = suite.store as S3Store;
      const table = `${bucketUrl(store, BUCKET)}/simple_table`;
      const run = await deltaport('preview', table, ...flags(serverOptions(store).options), '--format', 'csv');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const [header, ...rows] = run.stdout.trimEnd().split('\n');
      expect(header).toBe('id');
      const local = tablePath('simple_table');
      expect(rows.sort()).toEqual((await duckdbRows(local, Math.max(...commitVersions(local)), 'true', ['id'])).rows);

      const wrong = serverOptions(store, true);
      const refused = await deltaport('preview', table, ...flags(wrong.options), '--format', 'csv');
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(new RegExp(`^deltaport: .*access denied for ${escape(wrong.refused!)}\\n$`));
    }, 60_000);
  });
}
