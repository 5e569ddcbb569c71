// An export of a query's result (the SQL tab's Export these rows) as the hosts take it: the boundary's schema refuses
// a bad one in one line; a query that fails is refused before a job is queued; a good one becomes a job titled
// "query result" whose rows in SQLite are DuckDB's own answer over the table's files; a cancel interrupts a query
// that runs long; and a Retry asks, since the result has no position to resume from.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeltaportApi } from '../../../shared/api.js';
import type { SqlSourceSpec } from '../../../shared/change-source.js';
import { DeltaportError } from '../../../shared/errors.js';
import { validateCall } from '../../../electron/app/ipc-validation.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { duckCells, duckdbRows } from '../../support/delta-oracle-rows.js';
import { sqlText } from '../../support/duckdb.js';
import { commitVersions } from '../../support/delta-oracle.js';
import { tablePath } from '../../support/tables.js';
import { sqliteSpec } from '../sinks/sink-harness.js';
import { appService } from '../../support/app-service.js';

const CDF = tablePath('cdf-table');
const LATEST = Math.max(...commitVersions(CDF));
const GROUP_BY = 'SELECT birthday, count(*) AS n FROM t GROUP BY birthday';
const query = (sql: string): SqlSourceSpec => ({ rows: 'sql', tablePath: CDF, sql, tables: { t: { path: CDF, versionAsOf: LATEST } } });
/** Ten billion pairs: minutes of DuckDB's work, so only a cancel ends it. */
const LONG = 'SELECT sum(a.range * b.range) FROM range(100000) a, range(100000) b';

let dir: string;
let state: AppState;
let jobs: JobRunner;
let api: DeltaportApi;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-sql-export-'));
  state = AppState.open(path.join(dir, 'state.db'), { encryptor: null });
  ({ api, jobs } = appService(state, { sampleTable: async () => path.join(dir, 'sample'), sqlTempDirectory: path.join(dir, 'sql-temp') }));
});

afterAll(async () => {
  await jobs.cancelAll();
  state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function refusal(payload: unknown): string {
  try {
    validateCall('startExport', payload);
  } catch (err) {
    expect(err).toBeInstanceOf(DeltaportError);
    return (err as DeltaportError).message;
  }
  throw new Error(`accepted ${JSON.stringify(payload)}`);
}

/** DuckDB's GROUP BY over the table's files as the log lists them, each row 'birthday|n', sorted. */
async function expectedCounts(): Promise<string[]> {
  const { rows } = await duckdbRows(CDF, LATEST, 'true', ['birthday']);
  const counts = new Map<string, number>();
  for (const birthday of rows) counts.set(birthday, (counts.get(birthday) ?? 0) + 1);
  return [...counts].map(([birthday, n]) => `${birthday}|${n}`).sort();
}

function sqliteCounts(file: string, table: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare(`SELECT birthday, n FROM ${table}`).all() as { birthday: string; n: number }[];
    return rows.map((r) => `${r.birthday}|${r.n}`).sort();
  } finally {
    db.close();
  }
}

describe('the boundary', () => {
  it('takes a query over named snapshots as an export source', () => {
    const source = query(GROUP_BY);
    expect(validateCall('startExport', { source, sink: { kind: 'csv', path: '/out/q.csv' } })[0].source).toEqual(source);
  });

  it('refuses an empty query, a bad table name and exactly-once in one line each', () => {
    const sink = sqliteSpec('/out/q.db', { table: 'q' });
    expect(refusal({ source: query('  '), sink })).toMatch(/^startExport\.source\.sql: the query /);
    expect(refusal({ source: { ...query(GROUP_BY), tables: { 'no-dash': { path: CDF } } }, sink })).toContain(
      'a table name must be letters, digits and _',
    );
    expect(refusal({ source: query(GROUP_BY), sink: { ...sink, exactlyOnce: true } })).toMatch(/^startExport: .*exactly once/);
  });
});

describe('a query result exported by a job', () => {
  it('refuses a query that fails before queueing a job, in one line with its place', async () => {
    const file = path.join(dir, 'bad.db');
    const [req] = validateCall('startExport', { source: query('SELECT birthday FROM t WHERE'), sink: sqliteSpec(file, { table: 'q' }) });
    const result = await api.startExport(req);
    expect(result).toMatchObject({ ok: false, error: { message: 'syntax error at end of input (line 1, column 29)' } });
    expect(jobs.list()).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('writes the rows of a GROUP BY to SQLite as DuckDB counts them over the files', async () => {
    const file = path.join(dir, 'counts.db');
    const [req] = validateCall('startExport', { source: query(GROUP_BY), sink: sqliteSpec(file, { table: 'counts' }) });
    const started = await api.startExport(req);
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value.title).toBe(`cdf-table query result -> sqlite:${file} (counts)`);
    const done = await jobs.wait(started.value.id);
    expect(done.state, done.error?.message).toBe('succeeded');
    const want = await expectedCounts();
    expect(done.result!.rows).toBe(want.length);
    expect(sqliteCounts(file, 'counts')).toEqual(want);
  });

  it('writes the same rows to Parquet, read back by DuckDB', async () => {
    const file = path.join(dir, 'counts.parquet');
    const [req] = validateCall('startExport', { source: query(GROUP_BY), sink: { kind: 'parquet', path: file } });
    const started = await api.startExport(req);
    if (!started.ok) throw new Error(started.error.message);
    const done = await jobs.wait(started.value.id);
    expect(done.state, done.error?.message).toBe('succeeded');
    expect((await duckCells(`SELECT * FROM read_parquet(${sqlText(file)})`, ['birthday', 'n'])).sort()).toEqual(await expectedCounts());
  });

  it('interrupts a query that runs long when the job is cancelled', async () => {
    const file = path.join(dir, 'long.db');
    const job = jobs.start({ source: query(LONG), sink: sqliteSpec(file, { table: 'long' }) });
    await expect.poll(() => jobs.list().find((j) => j.id === job.id)?.state, { timeout: 20_000 }).toBe('running');
    jobs.cancel(job.id);
    const ended = await jobs.wait(job.id);
    expect(ended.state).toBe('cancelled');
  });

  it('asks on Retry, with the rows the stopped job left in the target', async () => {
    const file = path.join(dir, 'retry.db');
    const db = new Database(file);
    db.exec('CREATE TABLE counts (birthday TEXT, n INTEGER)');
    db.exec(
      `CREATE TRIGGER stop_at BEFORE INSERT ON counts WHEN (SELECT count(*) FROM counts) >= 1 BEGIN SELECT RAISE(ABORT, 'stop here'); END`,
    );
    db.close();
    const [req] = validateCall('startExport', {
      source: query(GROUP_BY),
      sink: sqliteSpec(file, { table: 'counts', mode: 'append', batchSize: 1, maxRetries: 0 }),
    });
    const failed = await jobs.wait(jobs.start(req).id);
    expect(failed.error?.message).toContain('stop here');
    expect(await jobs.retry(failed.id)).toEqual({
      ask: { reason: "a query result's export cannot resume: it runs the query again and starts from its first row", rowsInTarget: 1 },
    });
  });
});
