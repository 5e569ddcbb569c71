// Real Delta tables through the whole export (reader -> runExport -> MySQL sink) into MariaDB: every shared table the
// reader reads lands with the row count of its own log, in each mode; COVID-19_NYT's sums equal DuckDB's read of its
// Parquet files; and exports killed with SIGKILL at random points, run again with exactly-once, end with every row
// exactly once.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openSource } from '../../../electron/delta/source.js';
import { toErrorValue } from '../../../shared/errors.js';
import { commitVersions, liveRowCount } from '../../support/delta-oracle.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { exportRequest } from '../../support/export-request.js';
import { killMidway } from '../../support/kill-export.js';
import { useMysqlDatabase } from '../../support/mysql-database.js';
import { tablePath, TABLES_ROOT } from '../../support/tables.js';
import { openLocal } from '../../support/task-tables.js';
import { mysqlSpec } from './sink-harness.js';

const db = useMysqlDatabase('mysql_real');
const COVID = tablePath('COVID-19_NYT');

async function count(table: string): Promise<number> {
  const [r] = await db.rows(`SELECT count(*) AS n FROM \`${table}\``);
  return Number(r.n);
}

async function covidCensus(table: string): Promise<{ n: number; cases: number; deaths: number }> {
  const [r] = await db.rows(`SELECT count(*) AS n, sum(cases) AS cases, sum(deaths) AS deaths FROM \`${table}\``);
  return { n: Number(r.n), cases: Number(r.cases), deaths: Number(r.deaths) };
}

async function covidOracle(): Promise<{ n: number; cases: number; deaths: number }> {
  const [r] = await duck(
    `SELECT count(*)::BIGINT AS n, sum(cases)::BIGINT AS cases, sum(deaths)::BIGINT AS deaths FROM read_parquet(${sqlText(`${COVID}/*.parquet`)})`,
  );
  return { n: Number(r.n), cases: Number(r.cases), deaths: Number(r.deaths) };
}

const names = readdirSync(TABLES_ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'COVID-19_NYT')
  .map((d) => d.name)
  .sort();

describe('every shared table into MariaDB', () => {
  it.each(names)('%s lands with its log’s row count (append, then overwrite)', { timeout: 120_000 }, async (name) => {
    const location = tablePath(name);
    const target = name.slice(0, 60);
    try {
      const source = await openSource({ tablePath: location }, openLocal);
      for await (const batch of source.batches()) void batch;
    } catch (err) {
      // A table the reader cannot read (data files removed by VACUUM), the export refuses with the reader's words.
      const refusal = toErrorValue(err);
      await expect(
        exportRequest({ source: { tablePath: location }, sink: mysqlSpec({ url: db.url }, { table: target }) }),
      ).rejects.toMatchObject({
        message: refusal.message,
      });
      return;
    }
    const expected = await liveRowCount(location);
    const appended = await exportRequest({ source: { tablePath: location }, sink: mysqlSpec({ url: db.url }, { table: target }) });
    expect(appended.rows).toBe(expected);
    expect(await count(target)).toBe(expected);
    await exportRequest({ source: { tablePath: location }, sink: mysqlSpec({ url: db.url }, { table: target, mode: 'overwrite' }) });
    expect(await count(target)).toBe(expected);
  });

  it('COVID-19_NYT: count and sums equal DuckDB reading its Parquet files', { timeout: 300_000 }, async () => {
    const oracle = await covidOracle();
    expect(oracle.n).toBe(await liveRowCount(COVID));
    const result = await exportRequest({ source: { tablePath: COVID }, sink: mysqlSpec({ url: db.url }, { table: 'covid_all' }) });
    expect(result.rows).toBe(oracle.n);
    expect(await covidCensus('covid_all')).toEqual(oracle);
  });
});

/** Count and SHA-256 of the sorted rows, each its columns as text ('NULL' for null) joined by '|'. */
function digest(rows: string[]): { n: number; sha256: string } {
  return {
    n: rows.length,
    sha256: createHash('sha256')
      .update([...rows].sort().join('\n'))
      .digest('hex'),
  };
}

/** The table's rows in MariaDB, cast to text as DuckDB casts them (integers, strings and dates read the same). */
async function mariadbRows(table: string, columns: string[]): Promise<string[]> {
  const cells = columns.map((c) => `coalesce(CAST(\`${c}\` AS CHAR), 'NULL')`).join(', ');
  return (await db.rows(`SELECT concat_ws('|', ${cells}) AS r FROM \`${table}\``)).map((r) => String(r.r));
}

describe('rows equal DuckDB’s read of the source, per mode', () => {
  // Tables of integer, string and date columns, without deletion vectors (what DuckDB's read of the files covers).
  const cases: { name: string; columns: string[]; key: string | null }[] = [
    { name: 'COVID-19_NYT', columns: ['date', 'county', 'state', 'fips', 'cases', 'deaths'], key: null },
    { name: 'delta-0.8.0-partitioned', columns: ['value', 'year', 'month', 'day'], key: 'value' },
    { name: 'simple_table', columns: ['id'], key: 'id' },
    { name: 'delta-0.8.0-null-partition', columns: ['k', 'v'], key: null },
  ];
  it.each(cases)('$name: count and SHA-256 of the sorted rows, in each mode', { timeout: 300_000 }, async ({ name, columns, key }) => {
    const root = tablePath(name);
    const expected = digest((await duckdbRows(root, commitVersions(root).at(-1)!, 'true', columns)).rows);
    expect(expected.n).toBe(await liveRowCount(root));
    const target = `same_${name.replaceAll(/[^a-z0-9]/gi, '_')}`;
    const modes = [
      { mode: 'append' as const },
      { mode: 'overwrite' as const },
      ...(key ? [{ mode: 'upsert' as const, keyColumns: [key] }] : []),
    ];
    for (const options of modes) {
      await db.client.query(`DROP TABLE IF EXISTS \`${target}\``);
      const sink = mysqlSpec({ url: db.url }, { table: target, ...options });
      await exportRequest({ source: { tablePath: root, columnNames: columns }, sink });
      expect(digest(await mariadbRows(target, columns)), options.mode).toEqual(expected);
      // Upsert twice gives the same table.
      if (options.mode === 'upsert') {
        await exportRequest({ source: { tablePath: root, columnNames: columns }, sink });
        expect(digest(await mariadbRows(target, columns)), 'upsert twice').toEqual(expected);
      }
    }
  });
});

describe('exports killed with SIGKILL', () => {
  it('run again with exactly-once, each ends with every row exactly once', { timeout: 600_000 }, async () => {
    const oracle = await covidOracle();
    // Kill points in the first part of the export (committed rows reported before the kill: the child goes on while the
    // report travels, so later points can find it done), one fresh target each.
    const points = [20_000, 60_000, 100_000, 150_000, 200_000];
    for (const [run, at] of points.entries()) {
      const table = `covid_kill_${run}`;
      const request = {
        source: { tablePath: COVID, columnNames: ['date', 'cases', 'deaths'] },
        sink: mysqlSpec({ url: db.url }, { table, batchSize: 20_000, exactlyOnce: true }),
      };
      const killedAt = await killMidway(request, at);
      expect(killedAt).toBeGreaterThanOrEqual(at);
      const partial = await covidCensus(table);
      expect(partial.n, `run ${run}`).toBeLessThan(oracle.n);
      await killedWritersGone();
      const resumed = await exportRequest(request);
      expect(resumed.rows, `run ${run}`).toBeLessThan(oracle.n);
      expect(await covidCensus(table), `run ${run}`).toEqual(oracle);
    }
  });
});

/** Waits until the server has ended the killed export's sessions (and its named lock with them): it rolls back what
 * the killed process had sent of its last transaction once it sees the connection closed. */
async function killedWritersGone(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const [r] = await db.rows('SELECT count(*) AS n FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()');
    if (Number(r.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the killed export still has a session after 60 s');
}
