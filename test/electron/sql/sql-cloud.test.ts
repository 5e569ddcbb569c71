// SQL over tables in object stores on loopback. In S3 (moto): the engine itself, `deltaport sql` (the built
// executable, reaching the bucket through AWS's own environment variables, as a user of an S3-compatible store gives
// them) and the API's `sql` through `deltaport serve` (a saved storage connection), at the latest version and by
// `t@v`; in Azurite and fake-gcs-server, the engine. DuckDB has no httpfs here and may load none, so the reader's rows
// feed it; SQL still reaches no file and no URL itself. Expected rows come from the LOCAL copies: DuckDB reading their
// data files, less the rows each deletion vector deletes as the test's own decoder reads it
// (test/support/delta-oracle-rows.ts), and the log's partition values.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { SqlRows } from '../../../shared/api.js';
import { toErrorValue } from '../../../shared/errors.js';
import { SqlEngine, type SqlResult } from '../../../electron/sql/sql-engine.js';
import { dataFile, liveFiles, liveRowCount } from '../../support/delta-oracle.js';
import { liveColumnValues } from '../../support/delta-oracle-rows.js';
import {
  bucketUrl,
  isSkipped,
  LAKE_BUCKET,
  serverOptions,
  startS3WithTable,
  uploadFolder,
  type S3Store,
} from '../../support/object-stores.js';
import { SERVERS, serverForSuite } from '../../support/object-stores-suite.js';
import { apiValue, startServe, type ServedApp } from '../../support/serve.js';
import { StoreSettings } from '../../support/store-settings.js';
import { tablePath } from '../../support/tables.js';

const DV = tablePath('table-with-dv-small');
const PARTITIONED = tablePath('delta-0.8.0-partitioned');
const BIN = path.resolve(import.meta.dirname, '../../../dist/electron/cli/bin.js');
const DV_URL = `s3://${LAKE_BUCKET}/dv`;
const PARTITIONED_URL = `s3://${LAKE_BUCKET}/partitioned`;

const scratch = mkdtempSync(path.join(tmpdir(), 'deltaport-sql-cloud-'));
let s3: S3Store | undefined;
let skipped: string | null = null;
const stores = new StoreSettings();
let engine: SqlEngine;

beforeAll(async () => {
  const store = await startS3WithTable(DV, 'dv');
  if (isSkipped(store)) return void (skipped = store.skipped);
  s3 = store;
  await uploadFolder(store, LAKE_BUCKET, 'partitioned', PARTITIONED, { spaced: false });
  stores.add(`s3://${LAKE_BUCKET}/`, serverOptions(store).options);
  engine = await SqlEngine.open({ memoryLimit: '256MB', tempDirectory: path.join(scratch, 'engine') }, stores.openTable);
}, 120_000);
afterAll(async () => {
  await engine?.close();
  await s3?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function running(ctx: TestContext): S3Store {
  if (!s3) ctx.skip(`S3 (moto) skipped: ${skipped}`);
  return s3!;
}

/** The values of the DV table's one column at a version, sorted, from its local copy. */
async function dvValues(version: number): Promise<number[]> {
  return ((await liveColumnValues(DV, 'value', version)) as number[]).sort((a, b) => a - b);
}

/** What the rows of version 0 not in version 1 are: the rows version 1's deletion vector removed. */
async function removedByV1(): Promise<number[]> {
  const kept = new Set(await dvValues(1));
  return [...new Set(await dvValues(0))].filter((value) => !kept.has(value)).sort((a, b) => a - b);
}

async function rowsOf(result: SqlResult): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const batch of result.batches) rows.push(...batch.toArray().map((r) => r.toJSON() as Record<string, unknown>));
  return rows;
}

/** Rows per partition value of `year`, from the log's partition values and numRecords. */
async function rowsPerYear(): Promise<[string, number][]> {
  const counts = new Map<string, number>();
  for (const add of await liveFiles(PARTITIONED)) {
    const year = add.partitionValues.year as string;
    counts.set(year, (counts.get(year) ?? 0) + (await liveRowCount(PARTITIONED, [add])));
  }
  return [...counts].sort(([a], [b]) => a.localeCompare(b));
}

describe('the engine over a table in S3', () => {
  it('reads it through the reader (no httpfs), deletion vectors applied, at the latest version and by t@v', async (ctx) => {
    running(ctx);
    const latest = await engine.query({ sql: 'SELECT value FROM t ORDER BY value', tables: { t: { location: DV_URL } } });
    expect(latest.snapshots.map((s) => [s.name, s.version, s.readBy, s.rows])).toEqual([['t', 1, 'feed', (await dvValues(1)).length]]);
    expect((await rowsOf(latest)).map((r) => r.value)).toEqual(await dvValues(1));

    const removed = await engine.query({
      sql: 'SELECT value FROM t@0 EXCEPT SELECT value FROM t ORDER BY value',
      tables: { t: { location: DV_URL } },
    });
    expect(removed.snapshots.map((s) => [s.name, s.version, s.readBy])).toEqual([
      ['t@0', 0, 'feed'],
      ['t', 1, 'feed'],
    ]);
    const values = (await rowsOf(removed)).map((r) => r.value);
    expect(values.length).toBeGreaterThan(0);
    expect(values).toEqual(await removedByV1());
  });

  it('a GROUP BY over a partitioned table, the partition values as the log gives them; a WHERE prunes files', async (ctx) => {
    running(ctx);
    const tables = { t: { location: PARTITIONED_URL } };
    const grouped = await engine.query({ sql: 'SELECT year, count(*)::INTEGER AS n FROM t GROUP BY year ORDER BY year', tables });
    expect((await rowsOf(grouped)).map((r) => [r.year, r.n])).toEqual(await rowsPerYear());
    const [first] = await rowsPerYear();
    const pruned = await engine.query({ sql: `SELECT count(*)::INTEGER AS n FROM t WHERE year = '${first[0]}'`, tables });
    expect((await rowsOf(pruned)).map((r) => r.n)).toEqual([first[1]]);
    const [snapshot] = pruned.snapshots;
    expect(snapshot.readBy).toBe('feed');
    expect(snapshot.skipping!.filesSkipped).toBeGreaterThan(0);
    expect(snapshot.rows).toBe(first[1]);
  });

  it('reaches neither the bucket nor the server from SQL, in one line', async (ctx) => {
    const store = running(ctx);
    const [add] = await liveFiles(DV);
    const tables = { t: { location: DV_URL } };
    for (const url of [`${DV_URL}/${add.path as string}`, `${store.endpoint}/${LAKE_BUCKET}/dv/${add.path as string}`, dataFile(DV, add)]) {
      const error = await engine.query({ sql: `SELECT * FROM read_parquet('${url}')`, tables }).then(
        () => null,
        (err: unknown) => toErrorValue(err),
      );
      expect(error, url).toEqual({ code: 'FORBIDDEN', message: expect.stringMatching(/^Permission Error: [^\n]*$/) });
    }
  });
});

// The same through each object store: the reader reads any of them, and DuckDB none.
for (const server of SERVERS) {
  describe(`the engine over a table in ${server.name}`, () => {
    const settings = new StoreSettings();
    let location = '';
    let own: SqlEngine | undefined;
    const suite = serverForSuite(server, async (store) => {
      await store.createBucket(LAKE_BUCKET);
      await uploadFolder(store, LAKE_BUCKET, 'dv', DV, { spaced: false });
      settings.add(`${bucketUrl(store, LAKE_BUCKET)}/`, serverOptions(store).options);
      location = `${bucketUrl(store, LAKE_BUCKET)}/dv`;
      own = await SqlEngine.open({ memoryLimit: '256MB', tempDirectory: path.join(scratch, `engine-${store.kind}`) }, settings.openTable);
    });
    afterAll(() => own?.close());

    it('reads its versions through the reader, deletion vectors applied', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const result = await own!.query({
        sql: 'SELECT value FROM t@0 EXCEPT SELECT value FROM t ORDER BY value',
        tables: { t: { location } },
      });
      expect(result.snapshots.map((s) => [s.name, s.version, s.readBy])).toEqual([
        ['t@0', 0, 'feed'],
        ['t', 1, 'feed'],
      ]);
      expect((await rowsOf(result)).map((r) => r.value)).toEqual(await removedByV1());
    });
  });
}

describe('deltaport sql s3://...', () => {
  /** The built executable, with the server's endpoint and keys in AWS's environment variables and nothing else (a home
   * of its own: no ~/.aws of this machine's). */
  function deltaport(store: S3Store, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: scratch };
    for (const name of Object.keys(env)) if (name.startsWith('AWS_')) delete env[name];
    Object.assign(env, {
      AWS_ENDPOINT_URL_S3: store.endpoint,
      AWS_REGION: store.region,
      AWS_ACCESS_KEY_ID: store.accessKeyId,
      AWS_SECRET_ACCESS_KEY: store.secretAccessKey,
    });
    return new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env }, (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
      );
    });
  }

  it('answers over the latest version and t@v, and over two tables in the bucket joined', async (ctx) => {
    const store = running(ctx);
    const latest = await deltaport(store, 'sql', DV_URL, 'SELECT value FROM t ORDER BY value', '--format', 'csv');
    expect(latest.stderr).toBe('');
    expect(latest.code).toBe(0);
    expect(latest.stdout).toBe(['value', ...(await dvValues(1))].join('\n') + '\n');

    const removed = await deltaport(
      store,
      'sql',
      DV_URL,
      'SELECT value FROM t@0 EXCEPT SELECT value FROM t ORDER BY value',
      '--format',
      'csv',
    );
    expect(removed.stderr).toBe('');
    expect(removed.stdout).toBe(['value', ...(await removedByV1())].join('\n') + '\n');

    const joined = await deltaport(
      store,
      'sql',
      'SELECT p.year, count(*)::INTEGER AS n FROM p, d@0 AS d WHERE d.value = 0 GROUP BY p.year ORDER BY p.year',
      '--table',
      `p=${PARTITIONED_URL}`,
      '--table',
      `d=${DV_URL}`,
      '--format',
      'csv',
    );
    expect(joined.stderr).toBe('');
    // Version 0 holds the value 0 once, so each year keeps its own count.
    expect((await dvValues(0)).filter((value) => value === 0)).toHaveLength(1);
    expect(joined.stdout).toBe(['year,n', ...(await rowsPerYear()).map(([year, n]) => `${year},${n}`)].join('\n') + '\n');
  }, 60_000);

  it('refuses a read of the bucket from SQL in one line', async (ctx) => {
    const store = running(ctx);
    const [add] = await liveFiles(DV);
    const run = await deltaport(store, 'sql', DV_URL, `SELECT * FROM read_parquet('${DV_URL}/${add.path as string}')`);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^deltaport: Permission Error: [^\n]*\n$/);
  }, 60_000);
});

describe('sql through deltaport serve, the bucket a saved storage connection', () => {
  let host: ServedApp | undefined;
  beforeAll(async () => {
    if (!s3) return;
    host = await startServe();
    await apiValue(host, 'saveStorageConnection', { name: 'moto', prefix: `s3://${LAKE_BUCKET}/`, options: serverOptions(s3).options });
  }, 60_000);
  afterAll(() => host?.stop());

  it('answers at the latest version and at a version given, with the snapshots read', async (ctx) => {
    running(ctx);
    const latest = await apiValue<SqlRows>(host!, 'sql', {
      sql: 'SELECT value FROM t ORDER BY value',
      tables: { t: { path: DV_URL } },
      limit: 100,
    });
    expect(latest.rows.map((r) => r[0])).toEqual(await dvValues(1));
    expect(latest.snapshots.map((s) => [s.name, s.path, s.version])).toEqual([['t', DV_URL, 1]]);

    const old = await apiValue<SqlRows>(host!, 'sql', {
      sql: 'SELECT value FROM t ORDER BY value',
      tables: { t: { path: DV_URL, versionAsOf: 0 } },
      limit: 100,
    });
    expect(old.rows.map((r) => r[0])).toEqual(await dvValues(0));
    const removed = await apiValue<SqlRows>(host!, 'sql', {
      sql: 'SELECT value FROM t@0 EXCEPT SELECT value FROM t ORDER BY value',
      tables: { t: { path: DV_URL } },
      limit: 100,
    });
    expect(removed.rows.map((r) => r[0])).toEqual(await removedByV1());
    expect(removed.snapshots.map((s) => [s.name, s.version])).toEqual([
      ['t@0', 0],
      ['t', 1],
    ]);
  }, 60_000);

  it('refuses a read of the bucket or the server from SQL in one line', async (ctx) => {
    const store = running(ctx);
    const [add] = await liveFiles(DV);
    for (const url of [`${DV_URL}/${add.path as string}`, `${store.endpoint}/${LAKE_BUCKET}/dv/${add.path as string}`]) {
      const res = await host!.call('sql', { sql: `SELECT * FROM read_parquet('${url}')`, tables: { t: { path: DV_URL } }, limit: 10 });
      expect(res, url).toEqual({ ok: false, error: { code: 'FORBIDDEN', message: expect.stringMatching(/^Permission Error: [^\n]*$/) } });
    }
  }, 60_000);
});
