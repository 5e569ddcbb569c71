// `deltaport sql`: queries over snapshots named on the command line, printed or exported. Expected values come from
// DuckDB reading the live data files itself and from the log (numRecords less deletion vectors).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFile, liveFiles, liveRowCount } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { tablePath } from '../../support/tables.js';
import { cli } from './run-cli.js';

const partitioned = tablePath('delta-0.8.0-partitioned');
const dv = tablePath('table-with-dv-small');

let out: string;
beforeAll(() => {
  out = mkdtempSync(path.join(tmpdir(), 'deltaport-cli-sql-'));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function parquetOf(root: string): Promise<string> {
  return `read_parquet([${(await liveFiles(root)).map((a) => sqlText(dataFile(root, a))).join(', ')}])`;
}

describe('deltaport sql', () => {
  it('a GROUP BY over the one table named t, as CSV', async () => {
    const run = await cli('sql', partitioned, 'SELECT value, count(*) AS n FROM t GROUP BY value ORDER BY value', '--format', 'csv');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const expected = await duck<{ value: string; n: number }>(
      `SELECT value, count(*)::INTEGER AS n FROM ${await parquetOf(partitioned)} GROUP BY value ORDER BY value`,
    );
    expect(expected.length).toBeGreaterThan(1);
    expect(run.stdout).toBe(['value,n', ...expected.map((r) => `${r.value},${r.n}`)].join('\n') + '\n');
  });

  it('a partition column reads as the log gives it', async () => {
    const run = await cli('sql', partitioned, 'SELECT year, count(*) AS n FROM t GROUP BY year ORDER BY year', '--format', 'jsonl');
    const counts = new Map<string, number>();
    for (const add of await liveFiles(partitioned)) {
      const year = add.partitionValues.year as string;
      counts.set(year, (counts.get(year) ?? 0) + (await liveRowCount(partitioned, [add])));
    }
    const expected = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([year, n]) => JSON.stringify({ year, n }));
    expect(run.stdout.trimEnd().split('\n')).toEqual(expected);
  });

  it('--table names tables, a version in the location or in the query', async () => {
    const run = await cli(
      'sql',
      'SELECT * FROM old EXCEPT SELECT * FROM d@1 ORDER BY 1',
      '--table',
      `old=${dv}@v0`,
      '--table',
      `d=${dv}`,
      '--format',
      'jsonl',
    );
    expect(run.stderr).toBe('');
    const removed = (await liveFiles(dv, 1)).find((a) => a.deletionVector)!;
    const rows = run.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(removed.deletionVector.cardinality as number);
    const v0 = await duck<{ value: number }>(`SELECT value FROM read_parquet(${sqlText(dataFile(dv, removed))})`);
    for (const row of rows) expect(v0.map((r) => r.value)).toContain((JSON.parse(row) as { value: number }).value);
  });

  it('prints a table, at most 20 rows unless --limit, with the rows scanned', async () => {
    const total = await liveRowCount(partitioned);
    const run = await cli('sql', partitioned, 'SELECT * FROM t');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2 + Math.min(20, total) + 2);
    expect(lines.at(-1)).toMatch(new RegExp(`^\\(scanned ${total} rows \\(t: version \\d+\\) in \\d+\\.\\d s\\)$`));
    const limited = await cli('sql', partitioned, 'SELECT * FROM t', '--limit', '2');
    expect(limited.stdout).toContain('(2 rows; more rows exist, see --limit)');
  });

  it('runs within a memory limit given, and leaves no temporary folder behind', async () => {
    const temp = mkdtempSync(path.join(out, 'tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    let run;
    try {
      run = await cli('sql', partitioned, 'SELECT count(DISTINCT value) AS n FROM t', '--memory-limit', '64MB', '--format', 'csv');
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    const [expected] = await duck<{ n: number }>(`SELECT count(DISTINCT value)::INTEGER AS n FROM ${await parquetOf(partitioned)}`);
    expect(run).toEqual({ code: 0, stdout: `n\n${expected.n}\n`, stderr: '' });
    expect(readdirSync(temp)).toEqual([]);
  });

  it('says which files the WHERE let the scan skip', async () => {
    const adds = await liveFiles(partitioned);
    const others = adds.filter((a) => a.partitionValues.year !== '2020').length;
    const run = await cli('sql', partitioned, "SELECT count(*) AS n FROM t WHERE year = '2020'");
    expect(run.stdout).toContain(`; filter skipped ${others} of ${adds.length} files (`);
  });

  it('exports the rows to SQLite', async () => {
    const db = path.join(out, 'result.db');
    const run = await cli('sql', dv, 'SELECT value, value * 2 AS twice FROM t', '--sink', `sqlite:${db}`, '--target', 'doubled');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const expected = await liveRowCount(dv);
    expect(run.stdout).toMatch(new RegExp(`^exported ${expected} rows in `));
    const conn = new Database(db, { readonly: true });
    const rows = conn.prepare('SELECT value, twice FROM doubled').all() as { value: number; twice: number }[];
    conn.close();
    expect(rows).toHaveLength(expected);
    for (const r of rows) expect(r.twice).toBe(2 * r.value);
  });

  it.each([
    [['sql', dv], 'deltaport: give a table and a query: sql <table> "<query>", or --table name=location\n', 2],
    [['sql', 'SELECT 1'], 'deltaport: give a table and a query: sql <table> "<query>", or --table name=location\n', 2],
    [['sql', '--table', `d=${dv}`], 'deltaport: missing the query\n', 2],
    [['sql', 'SELECT 1', '--table', 'a-b=x'], "deltaport: --table takes name=location (a name of letters, digits and _), got 'a-b=x'\n", 2],
    [
      ['sql', dv, 'SELECT * FROM t', '--sink', 'sqlite:x.db', '--exactly-once'],
      'deltaport: a query result cannot be exported exactly once: it has no position to resume from\n',
      2,
    ],
    [
      ['sql', dv, 'SELECT 1', '--memory-limit', 'lots'],
      "deltaport: --memory-limit: the memory limit must be a size such as 512MB or 2GB, got 'lots'\n",
      2,
    ],
    [['sql', dv, 'SELECT * FROM t WHERE'], 'deltaport: syntax error at end of input (line 1, column 22)\n', 1],
    [['sql', dv, "COPY t TO 'x.csv'"], 'deltaport: COPY is refused: SQL here only queries the opened tables (SELECT, WITH, ...)\n', 1],
  ])('%j fails with one line', async (argv, stderr, code) => {
    expect(await cli(...argv)).toEqual({ code, stdout: '', stderr });
  });
});
