// File exports written to real object-store servers on loopback (moto, Azurite, fake-gcs-server): the object the
// store shows holds exactly the rows DuckDB reads from the local table, it appears only once the export is complete,
// a cancelled export leaves nothing at the target (and no upload pending on S3), and an existing object is replaced
// only when asked. The objects are fetched through each server's own API, not through the code under test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXECUTION } from '../../../shared/sink-spec.js';
import { exportRequest } from '../../support/export-request.js';
import { StoreSettings } from '../../support/store-settings.js';
import { failure } from '../../support/failure.js';
import { bucketUrl, serverOptions, type S3Store } from '../../support/object-stores.js';
import { SERVERS, serverForSuite } from '../../support/object-stores-suite.js';
import { tablePath } from '../../support/tables.js';
import { commitVersions } from '../../support/delta-oracle.js';
import { duckCells, duckdbRows } from '../../support/delta-oracle-rows.js';
import { sqlText } from '../../support/duckdb.js';

const BUCKET = 'exports';
const TABLE = tablePath('COVID-19_NYT');
const COLUMNS = ['date', 'county', 'state', 'fips', 'cases', 'deaths'];
const stores = new StoreSettings();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'deltaport-cloud-exports-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The rows of a downloaded Parquet file as DuckDB reads them: COLUMNS cast to VARCHAR, joined by '|', sorted. */
async function parquetRows(bytes: Uint8Array): Promise<string[]> {
  const file = path.join(scratch, `download-${Math.random().toString(16).slice(2)}.parquet`);
  writeFileSync(file, bytes);
  return (await duckCells(`SELECT * FROM read_parquet(${sqlText(file)})`, COLUMNS)).sort();
}

for (const server of SERVERS) {
  describe(`exports to ${server.name}`, () => {
    const suite = serverForSuite(server, async (store) => {
      await store.createBucket(BUCKET);
      stores.add(bucketUrl(store, BUCKET), serverOptions(store).options);
    });
    const target = (key: string) => `${bucketUrl(suite.store, BUCKET)}/${key}`;

    it('writes a Parquet file whose rows are the table’s, as DuckDB reads them from the local copy', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const result = await exportRequest({
        storage: stores.engine.storage,
        source: { tablePath: TABLE, columnNames: COLUMNS },
        sink: { kind: 'parquet', path: target('covid/all.parquet') },
      });
      const latest = Math.max(...commitVersions(TABLE));
      const expected = (await duckdbRows(TABLE, latest, 'true', COLUMNS)).rows;
      expect(result.rows).toBe(expected.length);
      const uploaded = await suite.store.getObject(BUCKET, 'covid/all.parquet');
      expect(uploaded).not.toBeNull();
      expect(await parquetRows(uploaded!)).toEqual(expected);
    }, 120_000);

    it('leaves nothing at the target, and no upload pending, when the export is cancelled', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const controller = new AbortController();
      const err = await failure(
        exportRequest({
          storage: stores.engine.storage,
          source: { tablePath: TABLE },
          sink: { kind: 'csv', path: target('covid/cancelled.csv') },
          signal: controller.signal,
          // Cancelled at its first progress: rows are being written to the temporary file, none uploaded.
          onProgress: () => controller.abort(),
        }),
      );
      expect(err.code).toBe('CANCELLED');
      expect(await suite.store.getObject(BUCKET, 'covid/cancelled.csv')).toBeNull();
      if (suite.store.kind === 's3') expect(await (suite.store as S3Store).pendingUploads(BUCKET)).toEqual([]);
    }, 120_000);

    it('refuses to replace an existing object unless asked, then replaces it whole', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      await suite.store.putObject(BUCKET, 'covid/existing.jsonl', new TextEncoder().encode('old\n'));
      const sink = { kind: 'jsonl' as const, path: target('covid/existing.jsonl') };
      const source = { tablePath: TABLE, columnNames: ['county'], versionAsOf: 0 };
      const refused = await failure(
        exportRequest({
          storage: stores.engine.storage,
          source,
          sink,
        }),
      );
      expect(refused.code).toBe('TARGET_EXISTS');
      expect(refused.message).toBe(`the output file ${target('covid/existing.jsonl')} already exists`);
      expect(new TextDecoder().decode((await suite.store.getObject(BUCKET, 'covid/existing.jsonl'))!)).toBe('old\n');
      const result = await exportRequest({
        storage: stores.engine.storage,
        source,
        sink: { ...sink, overwrite: true },
      });
      const lines = new TextDecoder()
        .decode((await suite.store.getObject(BUCKET, 'covid/existing.jsonl'))!)
        .trimEnd()
        .split('\n');
      expect(lines).toHaveLength(result.rows);
      expect(lines.every((line) => 'county' in (JSON.parse(line) as object))).toBe(true);
    }, 120_000);

    it('keeps a SQLite database local', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const sink = {
        kind: 'sqlite' as const,
        path: target('db.sqlite'),
        table: 't',
        mode: 'append' as const,
        execution: DEFAULT_EXECUTION,
        exactlyOnce: false,
      };
      const err = await failure(
        exportRequest({
          storage: stores.engine.storage,
          source: { tablePath: TABLE },
          sink,
        }),
      );
      expect(err.message).toBe(`a SQLite database is a local file, not ${target('db.sqlite')}: export to a local path`);
    });
  });
}
