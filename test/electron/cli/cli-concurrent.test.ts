// Runs of `deltaport export` started at the same time, each in its own process, into the same real PostgreSQL
// database, SQLite file or DuckDB file (which DuckDB locks for the one process that has it open). A job owns its target while it writes: a second run of the same job stops at once with
// one line naming the run that holds it (or, started after the first finished, finds the job done), and overwrites
// of one table running at once each build their own staging table, leaving exactly one complete snapshot.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../support/test-database.js';
import { tablePath } from '../../support/tables.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { RUN_SOURCES } from '../../support/source-workers.js';

const root = path.resolve(import.meta.dirname, '../../..');
const COVID = tablePath('COVID-19_NYT');
const db = useTestDatabase('cli_concurrent');
const scratch = mkdtempSync(path.join(tmpdir(), 'deltaport-concurrent-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let covidRows = 0;
beforeAll(async () => {
  const [r] = await duck(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlText(`${COVID}/*.parquet`)})`);
  covidRows = r.n as number;
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function deltaport(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...RUN_SOURCES, 'electron/cli/bin.ts', ...args], { cwd: root, timeout: 170_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/** Each run either exported (exit 0) or stopped at once because another run of the job held it. */
function expectWinnerAndRefusals(runs: Run[]): void {
  for (const run of runs) {
    if (run.code === 0) expect(run.stdout).toMatch(/^exported \d+ rows/);
    else
      expect(run).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringMatching(/^deltaport: this export is already running in process \d+ since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/),
      });
  }
  expect(runs.filter((r) => r.code === 0).length).toBeGreaterThanOrEqual(1);
}

describe('export runs at the same time', () => {
  it.each(['2', '3'])(
    '4 runs of one --exactly-once export into PostgreSQL over %s connections land exactly one copy',
    { timeout: 180_000 },
    async (connections) => {
      const target = `eo_four_${connections}`;
      const args = [
        'export',
        COVID,
        '--columns',
        'date,fips,cases',
        '--sink',
        db.url,
        '--target',
        target,
        '--exactly-once',
        '--batch-size',
        '20000',
        '--connections',
        connections,
      ];
      const runs = await Promise.all([1, 2, 3, 4].map(() => deltaport(...args)));
      const [{ n }] = (await db.client.query(`SELECT count(*)::int AS n FROM ${target}`)).rows;
      console.log(
        `postgres: ${n} rows landed of ${covidRows}; runs: ${runs.map((r) => `${r.code} ${(r.stdout + r.stderr).trim()}`).join(' | ')}`,
      );
      expectWinnerAndRefusals(runs);
      expect(n).toBe(covidRows);
    },
  );

  it('two overwrites of one PostgreSQL table at once leave exactly one complete snapshot', { timeout: 180_000 }, async () => {
    // Different columns: two different jobs, which may run together; each builds its own staging table.
    const runs = await Promise.all(
      ['date,county,cases', 'date,state,cases'].map((columns) =>
        deltaport(
          'export',
          COVID,
          '--columns',
          columns,
          '--sink',
          db.url,
          '--target',
          'over_two',
          '--mode',
          'overwrite',
          '--batch-size',
          '20000',
        ),
      ),
    );
    expect(runs.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    const [{ n }] = (await db.client.query('SELECT count(*)::int AS n FROM over_two')).rows;
    console.log(`overwrites: ${n} rows of ${covidRows}; runs: ${runs.map((r) => `${r.code} ${(r.stdout + r.stderr).trim()}`).join(' | ')}`);
    expect(n).toBe(covidRows);
    const { rows: staging } = await db.client.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE '\\_deltaport\\_stage%'`);
    expect(staging).toEqual([]);
  });

  it('4 runs of one --exactly-once export into a SQLite file land exactly one copy', { timeout: 180_000 }, async () => {
    const file = path.join(scratch, 'four.db');
    const args = [
      'export',
      COVID,
      '--columns',
      'date,fips,cases',
      '--sink',
      `sqlite:${file}`,
      '--target',
      'eo_four',
      '--exactly-once',
      '--batch-size',
      '20000',
    ];
    const runs = await Promise.all([1, 2, 3, 4].map(() => deltaport(...args)));
    const said = runs.map((r) => `${r.code} ${(r.stdout + r.stderr).trim()}`).join(' | ');
    // A refused run that had found no file once removed the file the winner was writing.
    expect(existsSync(file), said).toBe(true);
    const sqlite = new Database(file, { readonly: true });
    try {
      console.log(`sqlite: ${JSON.stringify(sqlite.prepare('SELECT count(*) AS n FROM eo_four').get())} of ${covidRows}; runs: ${said}`);
      expectWinnerAndRefusals(runs);
      expect(sqlite.prepare('SELECT count(*) AS n FROM eo_four').get()).toEqual({ n: covidRows });
      // The lease rows are gone with their runs.
      expect(sqlite.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = '_deltaport_runs'`).get()).toEqual({ n: 0 });
    } finally {
      sqlite.close();
    }
  });

  it('a second export into a DuckDB file that another process is writing stops with one line', { timeout: 180_000 }, async () => {
    const file = path.join(scratch, 'busy.duckdb');
    // A condition every row meets: the reader filters, so the export goes through its batches, which take long enough
    // for the second run to start meanwhile (DuckDB copies the table's own files in about a second).
    const every = ['--where', 'cases >= 0 OR cases IS NULL'];
    const args = (table: string) => [
      'export',
      COVID,
      '--columns',
      'date,fips,cases',
      ...every,
      '--sink',
      `duckdb:${file}`,
      '--target',
      table,
    ];
    let firstDone = false;
    const first = deltaport(...args('first')).finally(() => (firstDone = true));
    // The file appears as the first run opens it, and stays locked by that process until the run ends.
    while (!existsSync(file) && !firstDone) await new Promise((r) => setTimeout(r, 20));
    const second = await deltaport(...args('second'));
    expect(firstDone, 'the first run ended before the second started: nothing overlapped').toBe(false);
    expect(second).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^deltaport: the DuckDB file \S+busy\.duckdb is in use by another process \(PID \d+\)\n$/),
    });
    expect(await first).toMatchObject({ code: 0, stderr: '' });
    await duck(`ATTACH ${sqlText(file)} AS busy (READ_ONLY)`);
    try {
      expect(await duck(`SELECT count(*)::INTEGER AS n FROM busy.first`)).toEqual([{ n: covidRows }]);
      expect(
        await duck(`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = 'busy' AND table_name = 'second'`),
      ).toEqual([{ n: 0 }]);
    } finally {
      await duck('DETACH busy');
    }
  });
});
