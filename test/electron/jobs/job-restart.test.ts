// The app killed (SIGKILL) during an export, then started again: the job is marked failed; a file export's partial
// file is removed at the start, and a SQL export's Retry resumes after the rows the killed run committed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportRequest } from '../../../shared/api.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { RUN_SOURCES } from '../../support/source-workers.js';
import { tablePath } from '../../support/tables.js';
import { sqliteSpec } from '../sinks/sink-harness.js';
import { localEngine } from '../../support/task-tables.js';

const COVID = tablePath('COVID-19_NYT');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-restart-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the app's job runner in a child process and kills it with SIGKILL once `ready` (given the rows committed so
 * far) says so; returns the job's id. */
function killedDuring(stateFile: string, request: ExportRequest, ready: (committed: number) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...RUN_SOURCES, path.join(import.meta.dirname, 'runner-child.ts')], {
      env: { ...process.env, DELTAPORT_CHILD_STATE: stateFile, DELTAPORT_CHILD_EXPORT: JSON.stringify(request) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let id = '';
    let committed = 0;
    let stderr = '';
    const poll = setInterval(() => {
      if (id && ready(committed) && child.exitCode === null) child.kill('SIGKILL');
    }, 20);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      id ||= /job (\S+)/.exec(d.toString())?.[1] ?? '';
      for (const m of d.toString().matchAll(/committed (\d+)/g)) committed = Math.max(committed, Number(m[1]));
    });
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      if (signal === 'SIGKILL') resolve(id);
      else reject(new Error(`the app ended on its own (code ${code}) before it was killed: ${stderr.split('\n')[0]}`));
    });
  });
}

describe('the app started again after it was killed during an export', () => {
  it('marks a file export failed and removes the partial file it left beside the target', { timeout: 120_000 }, async () => {
    const stateFile = path.join(dir, 'file-state.db');
    const folder = fs.mkdtempSync(path.join(dir, 'csv-'));
    const target = path.join(folder, 'covid.csv');
    const partialWithRows = () =>
      fs.readdirSync(folder).some((n) => n.startsWith('covid.csv.partial-') && fs.statSync(path.join(folder, n)).size > 100_000);
    const id = await killedDuring(stateFile, { source: { tablePath: COVID }, sink: { kind: 'csv', path: target } }, partialWithRows);
    expect(fs.readdirSync(folder)).toEqual([expect.stringMatching(/^covid\.csv\.partial-\d+-[0-9a-f]{12}$/)]);

    const state = AppState.open(stateFile, { encryptor: null });
    try {
      const runner = new JobRunner({ store: state, engine: localEngine });
      await runner.swept;
      expect(fs.readdirSync(folder)).toEqual([]);
      expect(runner.list().find((j) => j.id === id)).toMatchObject({ state: 'failed', error: { code: 'CANCELLED' } });
    } finally {
      state.close();
    }
  });

  it('resumes a SQLite export on Retry after the rows the killed run committed, each row once', { timeout: 240_000 }, async () => {
    const stateFile = path.join(dir, 'sql-state.db');
    const file = path.join(dir, 'covid.sqlite');
    const request: ExportRequest = { source: { tablePath: COVID }, sink: sqliteSpec(file, { table: 'covid', batchSize: 20_000 }) };
    await killedDuring(stateFile, request, (committed) => committed >= 300_000);
    const killed = new Database(file, { readonly: true });
    const killedAt = (killed.prepare('SELECT count(*) AS n FROM covid').get() as { n: number }).n;
    killed.close();
    expect(killedAt).toBeGreaterThanOrEqual(300_000);

    const state = AppState.open(stateFile, { encryptor: null });
    try {
      const runner = new JobRunner({ store: state, engine: localEngine });
      const [killed] = runner.list();
      expect(killed.state).toBe('failed');
      const answer = await runner.retry(killed.id);
      if (!('started' in answer)) throw new Error(`Retry asked: ${answer.ask.reason}`);
      const done = await runner.wait(answer.started.id);
      expect(done.state, done.error?.message).toBe('succeeded');
      expect(done.result?.resumedAfterRows).toBe(killedAt);
    } finally {
      state.close();
    }
    // Each row once: DuckDB's count and sums of the table's files, and no key twice.
    const files = `read_parquet(${sqlText(path.join(COVID, '*.parquet'))})`;
    const [want] = await duck(`SELECT count(*)::BIGINT AS n, sum(cases)::BIGINT AS cases, sum(deaths)::BIGINT AS deaths FROM ${files}`);
    const db = new Database(file, { readonly: true });
    try {
      const got = db.prepare('SELECT count(*) AS n, sum(cases) AS cases, sum(deaths) AS deaths FROM covid').get() as Record<string, number>;
      expect({ n: BigInt(got.n), cases: BigInt(got.cases), deaths: BigInt(got.deaths) }).toEqual(want);
      const keys = db.prepare('SELECT count(*) AS n FROM (SELECT DISTINCT date, county, state FROM covid)').get() as { n: number };
      expect(keys.n).toBe(got.n);
    } finally {
      db.close();
    }
  });
});
