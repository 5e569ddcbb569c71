// Retry of an export into a SQL table that was cancelled or failed at a random point: it resumes after the rows the
// first run committed, and the target ends with each row of the snapshot once (DuckDB's read of the table's files is
// the independent answer). Where it cannot resume, it asks first and says how many rows the target holds. The table
// is written here: 200,000 rows in 20 files, enough transactions for a random point, quick enough for every run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pgLib from 'pg';
import { Int32, Int64, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportRequest, JobInfo, RetryAnswer } from '../../../shared/api.js';
import type { StructType } from '../../../shared/delta-schema.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { dataFileSchema, dataTable } from '../../support/delta-writer/data-columns.js';
import { DeltaTableWriter } from '../../support/delta-writer/table-writer.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { tablePath } from '../../support/tables.js';
import { useTestDatabase } from '../../support/test-database.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { duckdbSpec, pgSpec, sqliteSpec } from '../sinks/sink-harness.js';
import { localEngine } from '../../support/task-tables.js';

const PgClient = pgLib.Client;
const COLUMNS = ['id', 'county', 'cases', 'note'];
const FILES = 20;
const ROWS_PER_FILE = 10_000;
const ROWS = FILES * ROWS_PER_FILE;
const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: false, metadata: {} },
    { name: 'county', type: 'string', nullable: true, metadata: {} },
    { name: 'cases', type: 'integer', nullable: true, metadata: {} },
    // Bytes enough for PostgreSQL's transactions (of up to 8 MiB of COPY data) to be several.
    { name: 'note', type: 'string', nullable: true, metadata: {} },
  ],
};
/** A row there before the export, whose key the table lacks. */
const OLD_ROW = { sql: "(-1, 'Nowhere', NULL, NULL)", cells: '-1|Nowhere|NULL|NULL' };
const HTTP = tablePath('http_requests');

const pg = useTestDatabase('retry');
let dir: string;
let state: AppState;
let runner: JobRunner;
let proxy: FaultProxy;
/** While set, the proxy resets every new connection: the server is gone. */
let serverDown = false;
let table: string;
/** DuckDB's read of the table's files: each row as its cells joined by '|', sorted. */
let expected: string[];
/** The different counts of committed rows each job reported: one more with each commit it reported. */
const commitsSeen = new Map<string, Set<number>>();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-retry-'));
  state = AppState.open(path.join(dir, 'state.db'), { encryptor: null });
  runner = new JobRunner({ store: state, engine: localEngine });
  runner.onJobEvent(({ job }) => {
    const seen = commitsSeen.get(job.id) ?? new Set<number>();
    if (job.progress.committedRows) seen.add(job.progress.committedRows);
    commitsSeen.set(job.id, seen);
  });
  proxy = await startFaultProxy(pg.url, () => (serverDown ? { action: 'reset', atByte: 0 } : null));
  table = path.join(dir, 'cases');
  const writer = await DeltaTableWriter.create(table, { schema: SCHEMA });
  const parts = Array.from({ length: FILES }, (_, f) => {
    const ids = Array.from({ length: ROWS_PER_FILE }, (_, i) => BigInt(f * ROWS_PER_FILE + i));
    const county = ids.map((id) => (id % 97n === 0n ? null : `county ${id % 3000n}`));
    const cases = ids.map((id) => (id % 89n === 0n ? null : Number((id * 7919n) % 100_000n)));
    return {
      data: dataTable(dataFileSchema(SCHEMA), {
        id: vectorFromArray(ids, new Int64()),
        county: vectorFromArray(county, new Utf8()),
        cases: vectorFromArray(cases, new Int32()),
        note: vectorFromArray(
          ids.map((id) => `row ${id} of the retry test, with some words to make it longer`),
          new Utf8(),
        ),
      }),
    };
  });
  await writer.append(parts);
  expected = (await duckdbRows(table, 1, 'true', COLUMNS)).rows;
  expect(expected).toHaveLength(ROWS);
}, 120_000);

afterAll(async () => {
  await runner.cancelAll();
  await proxy.close();
  state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Waits until the job has reported at least `rows` committed rows, or `commits` commits (it must still run then). */
async function untilCommitted(id: string, { rows = Infinity, commits = Infinity }): Promise<void> {
  for (;;) {
    const seen = commitsSeen.get(id) ?? new Set<number>();
    if (Math.max(0, ...seen) >= rows || seen.size >= commits) return;
    const job = runner.list().find((j) => j.id === id)!;
    if (job.finishedAt !== null) throw new Error(`the job ended before ${rows} committed rows: ${job.state} ${job.error?.message ?? ''}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function started(answer: RetryAnswer): JobInfo {
  if (!('started' in answer)) throw new Error(`Retry asked instead of resuming: ${answer.ask.reason}`);
  return answer.started;
}

/** The rows of a SQLite table as DuckDB's oracle spells them. */
function sqliteRows(file: string, table: string, columns: string[]): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const cells = columns.map((c) => `coalesce(CAST("${c}" AS TEXT), 'NULL')`).join(` || '|' || `);
    return (db.prepare(`SELECT ${cells} AS row FROM "${table}"`).all() as { row: string }[]).map((r) => r.row).sort();
  } finally {
    db.close();
  }
}

async function pgRows(table: string, columns: string[]): Promise<string[]> {
  const cells = columns.map((c) => `coalesce("${c}"::text, 'NULL')`).join(` || '|' || `);
  const { rows } = await pg.client.query<{ row: string }>(`SELECT ${cells} AS row FROM "${table}"`);
  return rows.map((r) => r.row).sort();
}

/** Runs `work` on the DuckDB file attached to the tests' own DuckDB (as `target`), then lets it go: only while no
 * export has it open. */
async function inDuckdbFile<T>(file: string, work: () => Promise<T>): Promise<T> {
  await duck(`ATTACH ${sqlText(file)} AS target`);
  try {
    return await work();
  } finally {
    await duck('DETACH target');
  }
}

function duckdbFileRows(file: string, table: string, columns: string[]): Promise<string[]> {
  const cells = columns.map((c) => `coalesce(CAST("${c}" AS VARCHAR), 'NULL')`).join(` || '|' || `);
  return inDuckdbFile(file, async () => (await duck(`SELECT ${cells} AS row FROM target."${table}"`)).map((r) => r.row as string).sort());
}

/** Rows missing from and rows in excess of the expected multiset (both sorted), a few of each as examples. */
function multisetDifference(actual: string[], wanted: string[]): { missing: number; extra: number; examples: string[] } {
  const counts = new Map<string, number>();
  for (const row of wanted) counts.set(row, (counts.get(row) ?? 0) + 1);
  for (const row of actual) counts.set(row, (counts.get(row) ?? 0) - 1);
  let missing = 0;
  let extra = 0;
  const examples: string[] = [];
  for (const [row, n] of counts) {
    if (n === 0) continue;
    if (n > 0) missing += n;
    else extra -= n;
    if (examples.length < 5) examples.push(`${n > 0 ? 'missing' : 'extra'} ${Math.abs(n)}x ${row}`);
  }
  return { missing, extra, examples };
}

/** A random point in the export: between a tenth and six tenths of its rows. */
function randomPoint(): number {
  return Math.round(ROWS * (0.1 + Math.random() * 0.5));
}

/** A session ready to take PostgreSQL's lock on the ledger table, which holds up the writer at its next progress
 * row (connected beforehand, so that the lock comes at once). */
async function ledgerHolder(): Promise<{ hold(): Promise<void>; release(): Promise<void> }> {
  const holder = new PgClient({ connectionString: pg.url });
  await holder.connect();
  return {
    hold: async () => {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "_deltaport_progress" IN EXCLUSIVE MODE');
    },
    release: async () => {
      await holder.query('COMMIT');
      await holder.end();
    },
  };
}

/** Waits until the server has ended the sessions of a lost run: until then they hold the job's claim. */
async function lostSessionsGone(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { rows } = await pg.client.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'deltaport%' AND datname = current_database()`,
    );
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the lost run still has a session after 60 s');
}

const MODES = {
  append: { mode: 'append', keyColumns: undefined },
  overwrite: { mode: 'overwrite', keyColumns: undefined },
  upsert: { mode: 'upsert', keyColumns: ['id'] },
} as const;

describe('Retry of a stopped export into a SQL table', () => {
  // Each mode once per sink, stopped at a random point every run: cancelled, its PostgreSQL server lost (every
  // connection cut, new ones refused), or a row refused by the SQLite table's trigger (a failure no retry within the run gets past).
  const cases = [
    { kind: 'sqlite', mode: MODES.append, stop: 'refuse' },
    { kind: 'sqlite', mode: MODES.overwrite, stop: 'cancel' },
    { kind: 'sqlite', mode: MODES.upsert, stop: 'cancel' },
    { kind: 'postgres', mode: MODES.append, stop: 'cancel' },
    { kind: 'postgres', mode: MODES.overwrite, stop: 'cut' },
    { kind: 'postgres', mode: MODES.upsert, stop: 'cut' },
    { kind: 'duckdb', mode: MODES.upsert, stop: 'cancel' },
  ] as const;

  for (const { kind, mode, stop } of cases) {
    it(
      `${kind} ${mode.mode}, stopped by ${stop}: Retry resumes after the committed rows and leaves each row once`,
      { timeout: 180_000 },
      async () => {
        const point = randomPoint();
        const target = `cases_${mode.mode}_${stop}`;
        const file = path.join(dir, `${target}.${kind === 'duckdb' ? 'duckdb' : 'sqlite'}`);
        const keyColumns = mode.keyColumns && [...mode.keyColumns];
        // Transactions small enough for the stop to land well before the end (PostgreSQL's go out pipelined).
        const options = { table: target, mode: mode.mode, keyColumns, batchSize: kind === 'postgres' ? 100 : 500, maxRetries: 0 };
        const sink: SinkSpec =
          kind === 'sqlite'
            ? sqliteSpec(file, options)
            : kind === 'duckdb'
              ? duckdbSpec(file, options)
              : pgSpec({ url: proxy.url }, options);
        // A row there before: an overwrite replaces it, an upsert keeps it (the snapshot lacks its key).
        const sqlite = kind === 'sqlite' ? new Database(file) : null;
        const run = async (sql: string) =>
          void (sqlite
            ? sqlite.exec(sql)
            : kind === 'duckdb'
              ? await inDuckdbFile(file, () => duck(sql.replaceAll(`"${target}"`, `target."${target}"`)))
              : await pg.client.query(sql));
        await run(`CREATE TABLE "${target}" (id bigint PRIMARY KEY, county text, cases integer, note text)`);
        if (mode.mode !== 'append') await run(`INSERT INTO "${target}" VALUES ${OLD_ROW.sql}`);
        const refuse = `CREATE TRIGGER refuse BEFORE INSERT ON "${target}" WHEN NEW.id = ${point} BEGIN SELECT RAISE(ABORT, 'refused'); END`;
        if (stop === 'refuse') sqlite!.exec(refuse);
        sqlite?.close();

        const holder = kind === 'postgres' ? await ledgerHolder() : null;
        const first = runner.start({ source: { tablePath: table }, sink });
        // At the point the writer is held up by another session's lock, so that the stop lands before it could
        // finish: SQLite's write lock, given back at once (the stopped run needs it to give its lease up), or
        // PostgreSQL's on the ledger table, which every transaction writes, until the run has stopped.
        if (stop !== 'refuse') {
          // PostgreSQL's and DuckDB's transactions are few and large: they stop after their first or second commit.
          await untilCommitted(first.id, kind === 'sqlite' ? { rows: point } : { commits: point % 2 === 0 ? 1 : 2 });
          await holder?.hold();
          const lock = kind === 'sqlite' ? new Database(file, { timeout: 60_000 }) : null;
          lock?.exec('BEGIN IMMEDIATE');
          if (stop === 'cut') {
            serverDown = true;
            proxy.cutAll();
          } else runner.cancel(first.id);
          lock?.exec('ROLLBACK');
          lock?.close();
        }
        const stopped = await runner.wait(first.id);
        serverDown = false;
        await holder?.release();
        expect(stopped.state, stopped.error?.message).toBe(stop === 'cancel' ? 'cancelled' : 'failed');
        if (stop === 'refuse') {
          const db = new Database(file);
          db.exec('DROP TRIGGER refuse');
          db.close();
        }
        if (kind === 'postgres') await lostSessionsGone();

        const done = await runner.wait(started(await runner.retry(first.id)).id);
        expect(done.state, done.error?.message).toBe('succeeded');
        const committed = stopped.progress.committedRows ?? 0;
        expect(committed, `stopped at ${point}`).toBeGreaterThan(0);
        // A COMMIT sent before the connection went may have landed unanswered (its session held up by the lock), and
        // a DuckDB COMMIT is never interrupted, so one still running when the job runner ends the cancelled thread
        // lands unreported: the ledger then holds one transaction more than the stopped run knew of.
        if (kind === 'sqlite') expect(done.result?.resumedAfterRows).toBe(committed);
        else expect(done.result?.resumedAfterRows).toBeGreaterThanOrEqual(committed);
        expect(done.result!.resumedAfterRows! + done.result!.rows).toBe(ROWS);

        const actual =
          kind === 'sqlite'
            ? sqliteRows(file, target, COLUMNS)
            : kind === 'duckdb'
              ? await duckdbFileRows(file, target, COLUMNS)
              : await pgRows(target, COLUMNS);
        const wanted = mode.mode === 'upsert' ? [...expected, OLD_ROW.cells].sort() : expected;
        expect(multisetDifference(actual, wanted), `stopped at ${point} rows (committed ${committed})`).toEqual({
          missing: 0,
          extra: 0,
          examples: [],
        });
      },
    );
  }
});

describe('Retry of an export that cannot resume', () => {
  const HTTP_COLUMNS = ['date', 'ClientIP', 'ClientRequestURI', 'EdgeResponseBytes'];
  const source = { tablePath: HTTP, columnNames: HTTP_COLUMNS };
  /** DuckDB's read of the table's latest version, these columns. */
  const httpRows = async () => (await duckdbRows(HTTP, 1, 'true', HTTP_COLUMNS)).rows;

  /** An SQLite export of http_requests that fails once `failAt` rows are in the table (a trigger refuses more). */
  async function failingExport(file: string, sink: SinkSpec, failAt: number): Promise<JobInfo> {
    const db = new Database(file);
    db.exec(
      `CREATE TRIGGER stop_at BEFORE INSERT ON http WHEN (SELECT count(*) FROM http) >= ${failAt} BEGIN SELECT RAISE(ABORT, 'stop here'); END`,
    );
    db.close();
    const job = await runner.wait(runner.start({ source, sink }).id);
    expect(job.state).toBe('failed');
    expect(job.error?.message).toContain('stop here');
    const unlock = new Database(file);
    unlock.exec('DROP TRIGGER stop_at');
    unlock.close();
    return job;
  }

  function createHttpTable(file: string): void {
    const db = new Database(file);
    db.exec('CREATE TABLE http (date text, "ClientIP" text, "ClientRequestURI" text, "EdgeResponseBytes" integer)');
    db.close();
  }

  it('asks when the ledger was removed, says how many rows the target holds, and Replace leaves the snapshot', async () => {
    const file = path.join(dir, 'http-ledger.sqlite');
    createHttpTable(file);
    const sink = sqliteSpec(file, { table: 'http', batchSize: 100, maxRetries: 0 });
    const failed = await failingExport(file, sink, 700);
    expect(failed.progress.committedRows).toBe(700);
    const db = new Database(file);
    db.exec('DROP TABLE _deltaport_progress');
    db.close();

    const answer = await runner.retry(failed.id);
    expect(answer).toEqual({ ask: { reason: expect.stringContaining('_deltaport_progress'), rowsInTarget: 700 } });
    expect(sqliteRows(file, 'http', HTTP_COLUMNS)).toHaveLength(700);

    const replaced = await runner.wait(started(await runner.retry(failed.id, 'replace')).id);
    expect(replaced.state, replaced.error?.message).toBe('succeeded');
    expect(sqliteRows(file, 'http', HTTP_COLUMNS)).toEqual(await httpRows());
  });

  it('asks for a custom SQL export, and Append writes every row again', async () => {
    const file = path.join(dir, 'http-sql.sqlite');
    createHttpTable(file);
    const sql = 'INSERT INTO http VALUES (:date, :ClientIP, :ClientRequestURI, :EdgeResponseBytes)';
    const sink = sqliteSpec(file, { table: 'http', mode: 'sql', sql, batchSize: 100, maxRetries: 0 });
    const failed = await failingExport(file, sink, 300);

    const answer = await runner.retry(failed.id);
    expect(answer).toEqual({ ask: { reason: expect.stringContaining('your own SQL statement'), rowsInTarget: 300 } });

    const appended = await runner.wait(started(await runner.retry(failed.id, 'append')).id);
    expect(appended.state, appended.error?.message).toBe('succeeded');
    const all = await httpRows();
    expect(sqliteRows(file, 'http', HTTP_COLUMNS)).toHaveLength(all.length + 300);
  });

  it('asks for a change-feed export, counting only the rows this job committed', async () => {
    const file = path.join(dir, 'feed.sqlite');
    const feed: ExportRequest = {
      source: { rows: 'changes', tablePath: tablePath('cdf-table'), from: 0, to: 3 },
      sink: sqliteSpec(file, { table: 'feed', batchSize: 1, maxRetries: 0 }),
    };
    const first = await runner.wait(runner.start(feed).id);
    expect(first.state, first.error?.message).toBe('succeeded');
    const before = sqliteRows(file, 'feed', ['id']).length;
    const db = new Database(file);
    db.exec(
      `CREATE TRIGGER stop_at BEFORE INSERT ON feed WHEN (SELECT count(*) FROM feed) >= ${before + 3} BEGIN SELECT RAISE(ABORT, 'stop here'); END`,
    );
    db.close();
    const failed = await runner.wait(runner.start(feed).id);
    expect(failed.error?.message).toContain('stop here');

    const answer = await runner.retry(failed.id);
    expect(answer).toEqual({ ask: { reason: expect.stringContaining('a diff or change-feed export cannot resume'), rowsInTarget: 3 } });
  });

  it('refuses to retry a job that succeeded', async () => {
    const file = path.join(dir, 'http-done.sqlite');
    const done = await runner.wait(runner.start({ source, sink: sqliteSpec(file, { table: 'http' }) }).id);
    expect(done.state).toBe('succeeded');
    await expect(runner.retry(done.id)).rejects.toThrow('only a failed or cancelled job can be retried; this one is succeeded');
  });
});
