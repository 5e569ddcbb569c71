import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportRequest, JobEvent, JobInfo } from '../../../shared/api.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { commitInfo } from '../../support/delta-oracle.js';
import { duck, sqlName, sqlText } from '../../support/duckdb.js';
import { tablePath } from '../../support/tables.js';
import { expectedFilteredExport, FILTER, FILTERED_TABLE } from '../export/filtered-export-case.js';
import { localEngine } from '../../support/task-tables.js';

/** Rows the table's single commit says it wrote (commitInfo.operationMetrics.numOutputRows). */
function committedRows(table: string): number {
  return Number(commitInfo(tablePath(table), 0).operationMetrics.numOutputRows);
}

/** Rows of a table in a DuckDB file, read by the tests' own DuckDB; 0 where the table is not there. */
async function duckdbRows(file: string, table: string): Promise<number> {
  if (!fs.existsSync(file)) return 0;
  await duck(`ATTACH ${sqlText(file)} AS landed (READ_ONLY)`);
  try {
    const [{ n }] = await duck<{ n: number }>(
      `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'landed' AND table_name = ${sqlText(table)}`,
    );
    return n === 0 ? 0 : Number((await duck<{ n: bigint }>(`SELECT count(*) AS n FROM landed.${sqlName(table)}`))[0].n);
  } finally {
    await duck('DETACH landed');
  }
}

let dir: string;
let state: AppState;
let runner: JobRunner;
const events: JobEvent[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-jobs-'));
  state = AppState.open(path.join(dir, 'state.db'), { encryptor: null });
  runner = new JobRunner({ store: state, engine: localEngine });
  runner.onJobEvent((e) => events.push(e));
});

afterAll(async () => {
  await runner.cancelAll();
  state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function eventsOf(id: string): JobInfo[] {
  return events.filter((e) => e.job.id === id).map((e) => e.job);
}

function covidToSqlite(file: string): ExportRequest {
  return {
    source: { tablePath: tablePath('COVID-19_NYT') },
    sink: {
      kind: 'sqlite',
      path: file,
      table: 'covid',
      mode: 'append',
      execution: { batchSize: 1000, batchIntervalMs: 0, maxRetries: 0 },
      exactlyOnce: false,
    },
  };
}

function covidToDuckdb(file: string, table: string): ExportRequest {
  return {
    ...covidToSqlite(file),
    sink: {
      kind: 'duckdb',
      path: file,
      table,
      mode: 'append',
      execution: { batchSize: 5000, batchIntervalMs: 0, maxRetries: 0 },
      exactlyOnce: false,
    },
  };
}

/** When the cancel tests cancel a job: as it starts, and along the way. */
const CANCEL_DELAYS_MS = [0, 300, 700, 1200];

/** Starts the export, cancels it `delayMs` after it is running and returns how it ended. */
async function cancelledAfter(jobs: JobRunner, request: ExportRequest, delayMs: number): Promise<JobInfo> {
  const job = jobs.start(request);
  await expect.poll(() => jobs.list().find((j) => j.id === job.id)?.state, { timeout: 20_000 }).toBe('running');
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  jobs.cancel(job.id);
  return jobs.wait(job.id);
}

/** Resolves once the job has reported progress with rows written. */
async function untilRowsWritten(id: string): Promise<void> {
  while (!eventsOf(id).some((j) => j.progress.rows > 0)) {
    const job = runner.list().find((j) => j.id === id)!;
    if (job.finishedAt !== null) throw new Error(`job ended early: ${job.state} ${job.error?.message}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('JobRunner', () => {
  it('runs a real export in a worker with bounded, monotonic progress and records the outcome', async () => {
    const out = path.join(dir, 'partitioned.jsonl');
    const expectedRows = committedRows('delta-0.8.0-partitioned');
    const job = runner.start({ source: { tablePath: tablePath('delta-0.8.0-partitioned') }, sink: { kind: 'jsonl', path: out } });
    expect(job.state).toBe('queued');
    const done = await runner.wait(job.id);

    expect(done.state).toBe('succeeded');
    expect(done.result?.rows).toBe(expectedRows);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(expectedRows);

    const seen = eventsOf(job.id);
    expect(seen.map((j) => j.state)).toEqual(expect.arrayContaining(['queued', 'running', 'succeeded']));
    const percents = seen.map((j) => j.progress.percent);
    for (let i = 1; i < percents.length; i++) expect(percents[i]).toBeGreaterThanOrEqual(percents[i - 1]!);
    for (const p of percents) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(100);
    }
    expect(done.progress).toMatchObject({ percent: 100, rows: expectedRows, files: 6, filesTotal: 6 });

    const recorded = state.jobHistory().find((j) => j.id === job.id);
    expect(recorded).toMatchObject({ state: 'succeeded', result: { rows: expectedRows } });
  });

  it('reports a failure as a value, recorded, without a stack', async () => {
    const job = runner.start({
      source: { tablePath: path.join(dir, 'no-such-table') },
      sink: { kind: 'csv', path: path.join(dir, 'x.csv') },
    });
    const done = await runner.wait(job.id);
    expect(done.state).toBe('failed');
    expect(done.error?.code).toBe('TABLE_NOT_FOUND');
    expect(done.error?.message).not.toMatch(/\n\s+at /);
    expect(fs.existsSync(path.join(dir, 'x.csv'))).toBe(false);
    expect(state.jobHistory().find((j) => j.id === job.id)?.state).toBe('failed');
  });

  it('refuses a second export into a DuckDB file while another thread of this process writes it', async () => {
    // DuckDB locks a file for a process, not a thread: two export threads must not both open it.
    const both = new JobRunner({ store: state, engine: localEngine, concurrency: 2 });
    const file = path.join(dir, 'two-threads.duckdb');
    const first = both.start(covidToDuckdb(file, 'first'));
    const second = await both.wait(both.start(covidToDuckdb(file, 'second')).id);
    expect(second.state).toBe('failed');
    expect(second.error).toMatchObject({ code: 'SINK_BUSY', message: `the DuckDB file ${file} is in use by another export` });
    both.cancel(first.id);
    expect(['cancelled', 'succeeded']).toContain((await both.wait(first.id)).state);
  });

  it('queues a second export behind the first and cancels a queued one at once', async () => {
    const first = runner.start(covidToSqlite(path.join(dir, 'queue.db')));
    const second = runner.start({
      source: { tablePath: tablePath('simple_table') },
      sink: { kind: 'jsonl', path: path.join(dir, 'q.jsonl') },
    });
    expect(runner.list().find((j) => j.id === second.id)?.state).toBe('queued');
    expect(runner.cancel(second.id).state).toBe('cancelled');
    runner.cancel(first.id);
    expect((await runner.wait(first.id)).state).toBe('cancelled');
    expect(fs.existsSync(path.join(dir, 'q.jsonl'))).toBe(false);
  });

  it('cancels a long SQLite export before it ends, keeping only whole committed batches', async () => {
    const file = path.join(dir, 'covid.db');
    const request = covidToSqlite(file);
    const total = committedRows('COVID-19_NYT');
    const job = runner.start(request);
    await untilRowsWritten(job.id);

    const asked = performance.now();
    runner.cancel(job.id);
    const done = await runner.wait(job.id);
    const stoppedAfterMs = performance.now() - asked;

    expect(done.state).toBe('cancelled');
    expect(done.error?.code).toBe('CANCELLED');
    // A bound against a cancel that hangs, not a speed figure: on a loaded 2-core machine a cancel that stops at
    // once still took up to ~1.1 s; that it stopped early is shown by the row count below the table's.
    expect(stoppedAfterMs).toBeLessThan(10_000);
    const db = new Database(file, { readonly: true });
    const { n } = db.prepare('SELECT count(*) AS n FROM covid').get() as { n: number };
    db.close();
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(total);
    expect(n % 1000).toBe(0);
    // The record says what stayed: the committed rows, not the rows read ahead of the last commit.
    expect(done.progress.rows).toBe(n);
    expect(done.error?.message).toBe(`export cancelled after ${n} rows were committed; Retry resumes after them`);
    expect(state.jobHistory().find((j) => j.id === job.id)?.state).toBe('cancelled');
  });

  it('records where a retried job resumed, and only the rows it committed itself', async () => {
    const file = path.join(dir, 'resumed.db');
    const first = runner.start(covidToSqlite(file));
    await untilRowsWritten(first.id);
    runner.cancel(first.id);
    const cancelled = await runner.wait(first.id);
    expect(cancelled.state).toBe('cancelled');
    const kept = cancelled.progress.rows;
    const retried = await runner.retry(first.id);
    if (!('started' in retried)) throw new Error(`Retry asked: ${retried.ask.reason}`);
    const done = await runner.wait(retried.started.id);
    expect(done.state).toBe('succeeded');
    expect(done.result?.resumedAfterRows).toBe(kept);
    expect(done.result!.rows + kept).toBe(committedRows('COVID-19_NYT'));
    const db = new Database(file, { readonly: true });
    expect((db.prepare('SELECT count(*) AS n FROM covid').get() as { n: number }).n).toBe(committedRows('COVID-19_NYT'));
    db.close();
  });

  it('cancels a long file export, leaving neither the file nor a partial one', async () => {
    const out = path.join(dir, 'covid.jsonl');
    const job = runner.start({ source: { tablePath: tablePath('COVID-19_NYT') }, sink: { kind: 'jsonl', path: out } });
    await untilRowsWritten(job.id);
    runner.cancel(job.id);
    const done = await runner.wait(job.id);
    expect(done.state).toBe('cancelled');
    // It stopped before the end of the table, not after writing it all.
    expect(done.progress.rows).toBeLessThan(committedRows('COVID-19_NYT'));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('covid.jsonl'))).toEqual([]);
  });

  it('leaves a SQLite target as one file when its export thread had to be terminated', async () => {
    const impatient = new JobRunner({ store: state, engine: localEngine, cancelGraceMs: 0 });
    const own = fs.mkdtempSync(path.join(dir, 'terminated-sqlite-'));
    const file = path.join(own, 'covid.db');
    const job = impatient.start(covidToSqlite(file));
    while (!(impatient.list().find((j) => j.id === job.id)?.progress.rows ?? 0)) await new Promise((r) => setTimeout(r, 5));
    impatient.cancel(job.id);
    expect((await impatient.wait(job.id)).state).toBe('cancelled');
    expect(fs.readdirSync(own)).toEqual(['covid.db']);
    // The thread could not give its claim on the job up; the runner did, so the same export runs again at once.
    const again = await runner.wait(runner.start(covidToSqlite(file)).id);
    expect(again.error).toBeNull();
    expect(again.state).toBe('succeeded');
  });

  it("stops a query result's export by DuckDB's interrupt, never by terminating its thread (which ended the process)", async () => {
    const impatient = new JobRunner({ store: state, engine: localEngine, cancelGraceMs: 0 });
    const cdf = tablePath('cdf-table');
    // Ten billion pairs: minutes of DuckDB's work, so only the interrupt ends it.
    const sql = 'SELECT sum(a.range * b.range) FROM range(100000) a, range(100000) b';
    const file = path.join(dir, 'long-query.db');
    // Cancelled as the query starts and while it runs: a terminated thread took the whole test process down with it.
    for (const delay of CANCEL_DELAYS_MS) {
      const request: ExportRequest = {
        source: { rows: 'sql', tablePath: cdf, sql, tables: {} },
        sink: { ...covidToSqlite(file).sink, table: `q${delay}` } as ExportRequest['sink'],
      };
      expect((await cancelledAfter(impatient, request, delay)).state).toBe('cancelled');
    }
  });

  it('stops an export into a DuckDB file by its interrupt, never by terminating its thread', async () => {
    const impatient = new JobRunner({ store: state, engine: localEngine, cancelGraceMs: 0 });
    // DuckDB reads COVID-19_NYT's data files itself here (the sink's own-files path): about a second of native work a
    // terminated thread would have been thrown back into. Cancelled as it starts and at points along the way; a late
    // cancel may come after the last commit has begun, which is never interrupted, so that export may succeed.
    for (const delay of CANCEL_DELAYS_MS) {
      const file = path.join(dir, `cancelled-${delay}.duckdb`);
      const done = await cancelledAfter(impatient, covidToDuckdb(file, 'covid'), delay);
      if (delay === 0) expect(done.state).toBe('cancelled');
      // What stayed is what the record says: whole committed transactions, or the whole table.
      const landed = await duckdbRows(file, 'covid');
      expect(landed).toBe(done.progress.rows);
      if (done.state === 'succeeded') expect(landed).toBe(committedRows('COVID-19_NYT'));
      else expect([done.state, done.error?.code]).toEqual(['cancelled', 'CANCELLED']);
    }
  });

  it('removes the partial file of an export whose thread had to be terminated', async () => {
    const impatient = new JobRunner({ store: state, engine: localEngine, cancelGraceMs: 0 });
    const out = path.join(dir, 'terminated.csv');
    const job = impatient.start({ source: { tablePath: tablePath('COVID-19_NYT') }, sink: { kind: 'csv', path: out } });
    while (!fs.readdirSync(dir).some((f) => f.startsWith('terminated.csv.partial-'))) await new Promise((r) => setTimeout(r, 5));
    impatient.cancel(job.id);
    expect((await impatient.wait(job.id)).state).toBe('cancelled');
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('terminated.csv'))).toEqual([]);
  });

  it('reports what a filter skipped in every progress report, the final progress and the recorded outcome', async () => {
    const want = await expectedFilteredExport();
    expect([want.skipping.filesTotal, want.skipping.filesSkipped, want.rows]).toEqual([16, 13, 3]);
    const out = path.join(dir, 'filtered.jsonl');
    const job = runner.start({ source: { tablePath: FILTERED_TABLE, filter: FILTER }, sink: { kind: 'jsonl', path: out } });
    const done = await runner.wait(job.id);
    expect(done.state).toBe('succeeded');
    expect(done.result).toMatchObject({ rows: want.rows, skipping: want.skipping });
    expect(done.progress).toMatchObject({ skipping: want.skipping, files: 3, filesTotal: 3, percent: 100 });
    const reports = eventsOf(job.id).filter((j) => j.state === 'running' && j.progress.rows > 0);
    expect(reports.length).toBeGreaterThan(0);
    for (const j of reports) expect(j.progress.skipping).toEqual(want.skipping);
    expect(state.jobHistory().find((j) => j.id === job.id)?.result?.skipping).toEqual(want.skipping);
    // Without a filter there is nothing to report.
    const all = await runner.wait(runner.start({ source: { tablePath: FILTERED_TABLE }, sink: { kind: 'jsonl', path: `${out}.all` } }).id);
    expect([all.state, all.result?.skipping, all.progress.skipping]).toEqual(['succeeded', undefined, undefined]);
  }, 60_000);

  it('marks jobs left running by a previous session as interrupted', () => {
    const file = path.join(dir, 'stale.db');
    const old = AppState.open(file, { encryptor: null });
    const stale = runner.list().find((j) => j.state === 'succeeded')!;
    old.recordJob({ ...stale, id: 'stale-1', state: 'running', finishedAt: null, result: null });
    const fresh = new JobRunner({ store: old, engine: localEngine });
    const job = fresh.list().find((j) => j.id === 'stale-1')!;
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/quit before this job finished/);
    old.close();
  });
});
