// The SQL engine over real tables. What a row is, the reader decides: `SELECT * FROM t` must give the reader's own
// rows of that snapshot (as a multiset, in the JSON text every output writes). Counts and sums come from the log
// (numRecords less deletion vectors) and from DuckDB reading the live data files itself.
import { cpSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toErrorValue } from '../../../shared/errors.js';
import { openSource } from '../../../electron/delta/source.js';
import { SqlEngine, type SqlTable } from '../../../electron/sql/sql-engine.js';
import { jsonTextReader } from '../../../electron/values/text-formats.js';
import { commitFile, commitVersions, dataFile, liveFiles, liveRowCount } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { TABLES_ROOT, tablePath } from '../../support/tables.js';
import { openLocal, taskTables } from '../../support/task-tables.js';

let engine: SqlEngine;
let temp: string;
beforeAll(async () => {
  temp = mkdtempSync(path.join(tmpdir(), 'deltaport-sql-test-'));
  engine = await SqlEngine.open({ memoryLimit: '512MB', tempDirectory: temp }, taskTables().open);
});
afterAll(async () => {
  await engine.close();
  rmSync(temp, { recursive: true, force: true });
});

const COVID = tablePath('COVID-19_NYT');
const DV = tablePath('table-with-dv-small');

async function query(sql: string, tables: Record<string, SqlTable>, signal?: AbortSignal): Promise<RecordBatch[]> {
  const result = await engine.query({ sql, tables, signal });
  const batches: RecordBatch[] = [];
  for await (const b of result.batches) batches.push(b);
  return batches;
}

/** Each row as one JSON text line, counted: a multiset that compares whatever the row order. */
function rowCounts(batches: Iterable<RecordBatch>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const batch of batches) {
    const cells = batch.schema.fields.map((f, i) => [JSON.stringify(f.name), jsonTextReader(batch.getChildAt(i)!, f)] as const);
    for (let r = 0; r < batch.numRows; r++) {
      const line = cells.map(([name, cell]) => `${name}:${cell(r)}`).join(',');
      counts.set(line, (counts.get(line) ?? 0) + 1);
    }
  }
  return counts;
}

/** The rows one multiset holds more often than the other (a few of each, for a readable failure). */
function difference(ours: Map<string, number>, expected: Map<string, number>): { extra: string[]; missing: string[] } {
  const extra = [...ours].filter(([line, n]) => n > (expected.get(line) ?? 0)).map(([line]) => line);
  const missing = [...expected].filter(([line, n]) => n > (ours.get(line) ?? 0)).map(([line]) => line);
  return { extra: extra.slice(0, 5), missing: missing.slice(0, 5) };
}

/** A result's rows as plain objects. */
async function rowsOf<T = Record<string, unknown>>(result: { batches: AsyncIterable<RecordBatch> }): Promise<T[]> {
  const rows: T[] = [];
  for await (const batch of result.batches) rows.push(...batch.toArray().map((r) => r.toJSON() as T));
  return rows;
}

async function plain<T>(sql: string, tables: Record<string, SqlTable>): Promise<T[]> {
  return rowsOf<T>(await engine.query({ sql, tables }));
}

function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  return promise.then(
    () => ({ code: 'none', message: 'no error' }),
    (err: unknown) => toErrorValue(err),
  );
}

describe('SELECT * is the reader’s snapshot', () => {
  const names = readdirSync(TABLES_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  // COVID-19_NYT's 1.1 million rows as text, twice, take a while on a busy machine: this is no measure of speed.
  it.each(names)('%s', { timeout: 300_000 }, async (name) => {
    const location = tablePath(name);
    let expected: Map<string, number>;
    try {
      const source = await openSource({ tablePath: location }, openLocal);
      const batches: RecordBatch[] = [];
      for await (const b of source.batches()) batches.push(b.batch);
      expected = rowCounts(batches);
    } catch (err) {
      // A table the reader refuses, SQL refuses with the reader's words.
      const refusal = toErrorValue(err);
      expect(await errorOf(query('SELECT * FROM t', { t: { location } }))).toEqual(refusal);
      return;
    }
    const ours = rowCounts(await query('SELECT * FROM t', { t: { location } }));
    expect(difference(ours, expected)).toEqual({ extra: [], missing: [] });
    expect([...ours.values()].reduce((a, b) => a + b, 0)).toBe([...expected.values()].reduce((a, b) => a + b, 0));
  });
});

describe('aggregates', () => {
  it('COVID-19_NYT: GROUP BY, sum, min, max and a filtered count equal DuckDB reading the live files', async () => {
    const files = (await liveFiles(COVID)).map((a) => sqlText(dataFile(COVID, a)));
    const parquet = `read_parquet([${files.join(', ')}])`;
    const expected = await duck<{ state: string; cases: string; lo: string; hi: string }>(
      `SELECT state, sum(cases)::VARCHAR AS cases, min(date)::VARCHAR AS lo, max(deaths)::VARCHAR AS hi FROM ${parquet} GROUP BY state`,
    );
    const ours = await plain<{ state: string; cases: unknown; lo: Date | number; hi: unknown }>(
      'SELECT state, sum(cases) AS cases, min(date)::VARCHAR AS lo, max(deaths) AS hi FROM t GROUP BY state',
      { t: { location: COVID } },
    );
    const text = (rows: { state: string; cases: unknown; lo: unknown; hi: unknown }[]) =>
      rows.map((r) => `${r.state}|${String(r.cases)}|${String(r.lo)}|${String(r.hi)}`).sort();
    expect(text(ours)).toEqual(text(expected));
    expect(ours.length).toBeGreaterThan(50);

    const [ohio] = await duck<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${parquet} WHERE state = 'Ohio'`);
    const [count] = await plain<{ n: number }>("SELECT count(*)::INTEGER AS n FROM t WHERE state = 'Ohio'", { t: { location: COVID } });
    expect(count.n).toBe(ohio.n);
    expect(count.n).toBeGreaterThan(0);
  });

  it('count(*) of a table with deletion vectors is the log’s numRecords less the deleted rows, at every version', async () => {
    const versions = commitVersions(DV);
    expect(versions.length).toBeGreaterThan(1);
    for (const version of versions) {
      const expected = await liveRowCount(DV, await liveFiles(DV, version));
      const [row] = await plain<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM t@${version}`, { t: { location: DV } });
      expect(row.n, `version ${version}`).toBe(expected);
    }
  });

  it('t@v reads every version of a multi-version table', async () => {
    const location = tablePath('simple_table');
    for (const version of commitVersions(location)) {
      const expected = await liveRowCount(location, await liveFiles(location, version));
      const [row] = await plain<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM t@${version}`, { t: { location } });
      expect(row.n, `version ${version}`).toBe(expected);
    }
  });
});

describe('what is read', () => {
  it('DuckDB reads a local snapshot’s files itself; nested columns come through the reader', async () => {
    const location = tablePath('delta-1.2.1-only-struct-stats');
    const cases: [string, Record<string, SqlTable>, string][] = [
      ['SELECT count(*) FROM t', { t: { location: COVID } }, 'parquet'],
      ['SELECT * FROM t', { t: { location: DV } }, 'parquet'],
      ["SELECT struct->>'struct_element' FROM t", { t: { location } }, 'feed'],
    ];
    for (const [sql, tables, readBy] of cases) {
      const result = await engine.query({ sql, tables });
      for await (const b of result.batches) void b;
      expect(
        result.snapshots.map((s) => s.readBy),
        sql,
      ).toEqual([readBy]);
    }
  });

  it('only the tables and columns the query names; nested values as JSON text', async () => {
    const location = tablePath('delta-1.2.1-only-struct-stats');
    const sql =
      "SELECT struct->>'struct_element' AS e, nested_struct->'struct_element'->>'nested_struct_element' AS n FROM t ORDER BY 1, 2";
    const result = await engine.query({ sql, tables: { t: { location }, unused: { location: DV } } });
    const rows: { e: string | null; n: string | null }[] = [];
    for await (const b of result.batches) rows.push(...b.toArray().map((r) => r.toJSON() as { e: string | null; n: string | null }));
    expect(result.snapshots.map((s) => [s.name, s.columns])).toEqual([['t', ['struct', 'nested_struct']]]);
    const files = (await liveFiles(location)).map((a) => sqlText(dataFile(location, a)));
    const expected = await duck<{ e: string | null; n: string | null }>(
      `SELECT struct.struct_element AS e, nested_struct.struct_element.nested_struct_element AS n FROM read_parquet([${files.join(', ')}], union_by_name = true) ORDER BY 1, 2`,
    );
    expect(expected.some((r) => r.e !== null)).toBe(true);
    expect(rows).toEqual(expected);
  });
});

describe('the query’s WHERE reaches the scan', () => {
  it('files the log’s statistics rule out are not read, and the count is DuckDB’s over every file', async () => {
    const day = '2021-01-01';
    const adds = await liveFiles(COVID);
    const ruledOut = adds.filter((a) => {
      const stats = JSON.parse(a.stats as string) as { minValues: { date: string }; maxValues: { date: string } };
      return stats.minValues.date > day || stats.maxValues.date < day;
    });
    expect(ruledOut.length).toBeGreaterThan(0);
    const result = await engine.query({
      sql: `SELECT count(*)::INTEGER AS n FROM t WHERE date = '${day}'`,
      tables: { t: { location: COVID } },
    });
    const rows: { n: number }[] = [];
    for await (const b of result.batches) rows.push(...b.toArray().map((r) => r.toJSON() as { n: number }));
    const files = adds.map((a) => sqlText(dataFile(COVID, a)));
    const [expected] = await duck<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM read_parquet([${files.join(', ')}]) WHERE date = DATE '${day}'`,
    );
    expect(rows).toEqual([expected]);
    // The rows scanned are those of the files left: the log's count of them.
    const left = await liveRowCount(
      COVID,
      adds.filter((a) => !ruledOut.includes(a)),
    );
    expect(left).toBeLessThan(await liveRowCount(COVID, adds));
    expect(result.snapshots[0]).toMatchObject({ filter: `"date" = '${day}'`, rows: left });
    expect(result.snapshots[0].skipping?.filesSkipped).toBe(ruledOut.length);
  });

  it('partition values prune files; a condition the filter language reads otherwise is left to DuckDB alone', async () => {
    const location = tablePath('delta-0.8.0-partitioned');
    const adds = await liveFiles(location);
    const pruned = await engine.query({ sql: "SELECT value FROM t WHERE year = '2020'", tables: { t: { location } } });
    for await (const b of pruned.batches) void b;
    expect(pruned.snapshots[0].skipping?.filesSkipped).toBe(adds.filter((a) => a.partitionValues.year !== '2020').length);
    // year is a string column: DuckDB casts for `year = 2020`, our filter refuses the comparison, so none is pushed.
    const [cast] = await plain<{ n: number }>('SELECT count(*)::INTEGER AS n FROM t WHERE year = 2020', { t: { location } });
    expect(cast.n).toBe(
      await liveRowCount(
        location,
        adds.filter((a) => a.partitionValues.year === '2020'),
      ),
    );
  });
});

describe('several snapshots in one query', () => {
  it('the rows of v0 not in v1 are the rows the deletion vector removed', async () => {
    const rows = await plain<{ value: number }>('SELECT * FROM t@0 EXCEPT SELECT * FROM t@1 ORDER BY 1', { t: { location: DV } });
    const [add] = (await liveFiles(DV, 1)).filter((a) => a.deletionVector);
    expect(rows).toHaveLength(add.deletionVector.cardinality as number);
    const v0 = await duck<{ value: number }>(`SELECT value FROM read_parquet(${sqlText(dataFile(DV, add))})`);
    expect(v0.map((r) => r.value)).toEqual(expect.arrayContaining(rows.map((r) => r.value)));
  });

  it('joins two tables, each by its own name, one at a version', async () => {
    const tables = { covid: { location: COVID }, dv: { location: DV, version: 0 } };
    const [row] = await plain<{ n: number }>(
      'SELECT count(*)::INTEGER AS n FROM (SELECT DISTINCT fips FROM covid WHERE fips < 10) c JOIN dv ON c.fips = dv.value',
      tables,
    );
    const files = (await liveFiles(COVID)).map((a) => sqlText(dataFile(COVID, a)));
    const [fips] = await duck<{ n: number }>(
      `SELECT count(DISTINCT fips)::INTEGER AS n FROM read_parquet([${files.join(', ')}]) WHERE fips BETWEEN 0 AND 9`,
    );
    expect(row.n).toBe(fips.n);
  });

  it('the same query again reads a commit made since (its parse and views kept, not its snapshot)', async () => {
    const location = path.join(temp, 'growing');
    cpSync(DV, location, { recursive: true, filter: (file) => !file.endsWith(path.basename(commitFile(DV, 1))) });
    const count = 'SELECT count(*)::INTEGER AS n FROM t';
    const before = await engine.query({ sql: count, tables: { t: { location } } });
    expect(before.snapshots.map((s) => s.version)).toEqual([0]);
    expect((await rowsOf(before))[0].n).toBe(await liveRowCount(DV, await liveFiles(DV, 0)));
    // The listing an open makes stands for the latest version for a second (electron/delta/table.ts).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    cpSync(commitFile(DV, 1), commitFile(location, 1));
    const after = await engine.query({ sql: count, tables: { t: { location } } });
    expect(after.snapshots.map((s) => s.version)).toEqual([1]);
    const expected = await liveRowCount(DV, await liveFiles(DV, 1));
    expect(expected).not.toBe(await liveRowCount(DV, await liveFiles(DV, 0)));
    expect((await rowsOf(after))[0].n).toBe(expected);
  });

  it('a timestamp in a name reads the version committed by then', async () => {
    // Without in-commit timestamps, a commit's time is its file's modification time (Delta's PROTOCOL.md); a copy of
    // the corpus may give every commit the same one, so a copy of the table gets one a minute apart.
    const location = path.join(temp, 'simple_table');
    cpSync(tablePath('simple_table'), location, { recursive: true });
    const versions = commitVersions(location);
    const first = Date.parse('2024-03-01T10:00:00Z');
    versions.forEach((v, i) => utimesSync(commitFile(location, v), new Date(first + i * 60_000), new Date(first + i * 60_000)));
    const version = versions[versions.length - 2];
    const committed = new Date(first + (versions.length - 2) * 60_000 + 30_000).toISOString();
    const [at] = await plain<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM t@'${committed}'`, { t: { location } });
    const expected = await liveRowCount(location, await liveFiles(location, version));
    expect(expected).not.toBe(await liveRowCount(location, await liveFiles(location)));
    expect(at.n).toBe(expected);
  });
});

describe('what SQL may not do', () => {
  const t = { t: { location: DV } };
  it.each([
    ["COPY (SELECT 1) TO '/tmp/deltaport-sql-copy.csv'", 'COPY is refused'],
    ["ATTACH '/tmp/deltaport-sql.db'", 'ATTACH is refused'],
    ['INSTALL httpfs', 'INSTALL is refused'],
    ["SET memory_limit = '100GB'", 'SET is refused'],
    ['DROP TABLE t', 'DROP is refused'],
  ])('%s', async (sql, words) => {
    const error = await errorOf(query(sql, t));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain(words);
    expect(error.message).not.toContain('\n');
  });

  it('reading a file through a table function', async () => {
    const error = await errorOf(query("SELECT * FROM read_csv('/etc/passwd')", t));
    expect(error).toEqual({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/^Permission Error: .*disabled by configuration \(line 1, column \d+\)$/),
    });
  });

  it('a new engine’s first query, before any table is read', async () => {
    const fresh = await SqlEngine.open({ memoryLimit: '256MB', tempDirectory: path.join(temp, 'fresh') }, taskTables().open);
    try {
      const result = fresh.query({ sql: "SELECT * FROM read_csv('/etc/passwd')", tables: t });
      expect(await errorOf(result)).toEqual({
        code: 'FORBIDDEN',
        message: expect.stringMatching(/^Permission Error: .*disabled by configuration/),
      });
      const set = await errorOf(fresh.query({ sql: 'SET enable_external_access = true', tables: t }));
      expect(set.code).toBe('FORBIDDEN');
    } finally {
      await fresh.close();
    }
  });

  it('of the table’s folder, only the data files of the snapshots read: not its log', async () => {
    const [row] = await plain<{ n: number }>('SELECT count(*)::INTEGER AS n FROM t', { t: { location: COVID } });
    expect(row.n).toBe(await liveRowCount(COVID));
    const log = sqlText(commitFile(COVID, 0));
    const error = await errorOf(query(`SELECT * FROM read_text(${log})`, { t: { location: COVID } }));
    expect(error).toEqual({ code: 'FORBIDDEN', message: expect.stringMatching(/^Permission Error: .*disabled by configuration/) });
  });

  it('a syntax error names its place in the query as written', async () => {
    const error = await errorOf(query('SELECT value\nFROM t@1\nWHERE value >', t));
    expect(error).toEqual({ code: 'VALIDATION', message: 'syntax error at end of input (line 3, column 14)' });
    const binder = await errorOf(query('SELECT nope FROM t@0', t));
    expect(binder.message).toBe('Binder Error: Referenced column "nope" not found in FROM clause! (line 1, column 8)');
  });

  it('a cancel stops a long query', async () => {
    const cancel = new AbortController();
    const running = errorOf(query('SELECT count(*) FROM range(100000000000) a, t', t, cancel.signal));
    // A cross join of 10^11 rows: it ends only if the cancel reaches DuckDB while it runs.
    await new Promise((resolve) => setTimeout(resolve, 300));
    cancel.abort();
    expect(await running).toEqual({ code: 'CANCELLED', message: 'query cancelled' });
  });
});
