// Real Delta tables through the whole export (reader -> runExport -> MySQL sink) into MariaDB: every table of the
// shared corpus the reader reads lands equal to DuckDB's delta extension reading it (test/support/delta_census.py:
// count and SHA-256 of the sorted canonical rows, nested values and variants compared in the JSON form the docs
// promise), appended, overwritten, exactly-once and upserted (twice: the same table); each table the reader refuses,
// the extension refuses too, and no row is written. An export of COVID-19_NYT killed with SIGKILL and run again with
// exactly-once ends with every row once (many more kills, of the sink alone: mysql-kill.test.ts).
import { readdirSync } from 'node:fs';
import type { Connection as CoreConnection } from 'mysql2';
import { describe, expect, it } from 'vitest';
import { DeltaportError } from '../../../shared/errors.js';
import { deltaCensus, mysqlCensus, type TextRows } from '../../support/delta-census.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { exportRequest } from '../../support/export-request.js';
import { killMidway } from '../../support/kill-export.js';
import { useMysqlDatabase } from '../../support/mysql-database.js';
import { TABLE_KEYS } from '../../support/table-keys.js';
import { tablePath, TABLES_ROOT } from '../../support/tables.js';
import { mysqlSpec } from './sink-harness.js';

const db = useMysqlDatabase('mysql_real');
const COVID = tablePath('COVID-19_NYT');

const TABLES = readdirSync(TABLES_ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

const quote = (name: string) => `\`${name.replaceAll('`', '``')}\``;

/** A table's rows as MariaDB gives them as text (binary columns as hex), streamed. */
async function textRows(table: string): Promise<TextRows> {
  const columns = await db.rows(
    'SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position',
    [table],
  );
  const cells = columns.map(({ name, type }) =>
    /blob|binary/i.test(String(type)) ? `hex(${quote(String(name))})` : `CAST(${quote(String(name))} AS CHAR)`,
  );
  // The promise API has no stream: the query runs on the connection under it, when the census reads the rows.
  const connection = (db.client as unknown as { connection: CoreConnection }).connection;
  async function* rows(): AsyncGenerator<(string | null)[]> {
    yield* connection.query({ sql: `SELECT ${cells.join(', ')} FROM ${quote(table)}`, rowsAsArray: true }).stream() as AsyncIterable<
      (string | null)[]
    >;
  }
  return { table, columns: columns.map((c) => String(c.name)), rows: rows() };
}

async function tableNames(): Promise<string[]> {
  return (await db.rows('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()')).map((r) =>
    String(r.name),
  );
}

describe('every shared table into MariaDB equals DuckDB’s read of it, in each mode', () => {
  it.each(TABLES)('%s', { timeout: 600_000 }, async (name) => {
    const source = tablePath(name);
    const target = (mode: string) => `${mode}_${name.replaceAll(/[^a-z0-9]/gi, '_')}`.slice(0, 64);
    const spec = (mode: string, options: Parameters<typeof mysqlSpec>[1] = {}) =>
      mysqlSpec({ url: db.url }, { table: target(mode), ...options });
    const before = await tableNames();
    const first = await exportRequest({ source: { tablePath: source }, sink: spec('appended') }).catch(
      (err: unknown) => err as DeltaportError,
    );
    if (first instanceof DeltaportError) {
      // A table the reader refuses (a vacuumed version, an unknown feature, no log) is one the extension refuses too.
      const expected = await deltaCensus(source);
      expect(typeof expected, `Deltaport refused ${name} (${first.message}), DuckDB's delta extension read it`).toBe('string');
      expect(first.message).not.toContain('\n');
      // Nothing is left: not even the target table the export created before the reader met a missing data file.
      expect((await tableNames()).filter((t) => !before.includes(t))).toEqual([]);
      return;
    }
    const modes = ['appended'];
    // COVID-19_NYT (1.1M rows) is compared appended only: every mode of it would take minutes, and the modes are
    // proved on the other tables.
    if (first.rows < 100_000) {
      await exportRequest({ source: { tablePath: source }, sink: spec('overwritten') });
      await exportRequest({ source: { tablePath: source }, sink: spec('overwritten', { mode: 'overwrite' }) });
      // About 20 transactions, each committed with its ledger row; the finished job run again writes nothing.
      const once = spec('once', { exactlyOnce: true, batchSize: Math.max(100, Math.ceil(first.rows / 20)) });
      await exportRequest({ source: { tablePath: source }, sink: once });
      expect((await exportRequest({ source: { tablePath: source }, sink: once })).rows).toBe(0);
      modes.push('overwritten', 'once');
      const key = TABLE_KEYS[name];
      if (key) {
        const upsert = spec('upserted', { mode: 'upsert', keyColumns: [key] });
        await exportRequest({ source: { tablePath: source }, sink: upsert });
        await exportRequest({ source: { tablePath: source }, sink: upsert });
        modes.push('upserted');
      }
    }
    const targets = await Promise.all(modes.map((mode) => textRows(target(mode))));
    const { delta, tables } = await mysqlCensus(source, targets);
    expect(first.rows).toBe(delta.rows);
    expect(tables).toEqual(Object.fromEntries(modes.map((mode) => [target(mode), delta])));
  });
});

async function covidCensus(table: string): Promise<{ n: number; cases: number; deaths: number }> {
  const [r] = await db.rows(`SELECT count(*) AS n, sum(cases) AS cases, sum(deaths) AS deaths FROM ${quote(table)}`);
  return { n: Number(r.n), cases: Number(r.cases), deaths: Number(r.deaths) };
}

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

describe('a whole export killed with SIGKILL', () => {
  it('run again with exactly-once, it ends with every row of COVID-19_NYT exactly once', { timeout: 300_000 }, async () => {
    const [oracle] = await duck(
      `SELECT count(*)::BIGINT AS n, sum(cases)::BIGINT AS cases, sum(deaths)::BIGINT AS deaths FROM read_parquet(${sqlText(`${COVID}/*.parquet`)})`,
    );
    const expected = { n: Number(oracle.n), cases: Number(oracle.cases), deaths: Number(oracle.deaths) };
    const request = {
      source: { tablePath: COVID, columnNames: ['date', 'cases', 'deaths'] },
      sink: mysqlSpec({ url: db.url }, { table: 'covid_kill', batchSize: 20_000, exactlyOnce: true }),
    };
    expect(await killMidway(request, 100_000)).toBeGreaterThanOrEqual(100_000);
    await killedWritersGone();
    const partial = await covidCensus('covid_kill');
    expect(partial.n).toBeGreaterThan(0);
    expect(partial.n).toBeLessThan(expected.n);
    // Whole batches of 20,000 rows only.
    expect(partial.n % 20_000).toBe(0);
    const resumed = await exportRequest(request);
    expect(resumed).toMatchObject({ rows: expected.n - partial.n, resumedAfterRows: partial.n });
    expect(await covidCensus('covid_kill')).toEqual(expected);
  });
});
