// Real Delta tables through the whole export (reader -> runExport -> SQL sink), counted against the table's own log
// and summed against DuckDB reading the Parquet files; and an export process killed mid-way (into PostgreSQL, SQLite
// and DuckDB), then run again with exactly-once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRequest } from '../../support/export-request.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { useTestDatabase } from '../../support/test-database.js';
import { tablePath } from '../../support/tables.js';
import { liveRowCount, wholeFileRows } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { duckdbSpec, pgSpec, sqliteSpec } from './sink-harness.js';
import { killMidway } from '../../support/kill-export.js';

const COVID = tablePath('COVID-19_NYT');
const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-real-'));
const target = useTestDatabase('real_tables');
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Row count and sums of COVID-19_NYT's number columns, read by DuckDB straight from the data files. */
async function covidOracle(): Promise<{ n: number; cases: number; deaths: number }> {
  const [r] = await duck(
    `SELECT count(*)::BIGINT AS n, sum(cases)::BIGINT AS cases, sum(deaths)::BIGINT AS deaths FROM read_parquet(${sqlText(`${COVID}/*.parquet`)})`,
  );
  return { n: Number(r.n), cases: Number(r.cases), deaths: Number(r.deaths) };
}

async function pgCensus(table: string): Promise<{ n: number; cases: number; deaths: number }> {
  const { rows } = await target.client.query(
    `SELECT count(*)::int AS n, sum(cases)::bigint AS cases, sum(deaths)::bigint AS deaths FROM "${table}"`,
  );
  return { n: rows[0].n, cases: Number(rows[0].cases), deaths: Number(rows[0].deaths) };
}

function sqliteCensus(file: string, table: string): { n: number; cases: number; deaths: number } {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) AS n, sum(cases) AS cases, sum(deaths) AS deaths FROM "${table}"`).get() as {
      n: number;
      cases: number;
      deaths: number;
    };
  } finally {
    db.close();
  }
}

/** The census of a table in a DuckDB file, read by the tests' own DuckDB (attached read-only, then let go). */
async function duckdbCensus(file: string, table: string): Promise<{ n: number; cases: number; deaths: number }> {
  await duck(`ATTACH ${sqlText(file)} AS census (READ_ONLY)`);
  try {
    const [r] = await duck(
      `SELECT count(*)::BIGINT AS n, sum(cases)::BIGINT AS cases, sum(deaths)::BIGINT AS deaths FROM census."${table}"`,
    );
    return { n: Number(r.n), cases: Number(r.cases), deaths: Number(r.deaths) };
  } finally {
    await duck('DETACH census');
  }
}

describe('real tables into SQL', () => {
  it("table_with_column_mapping and delta-2.2.0-partitioned-types land with the log's record counts", async () => {
    for (const name of ['table_with_column_mapping', 'delta-2.2.0-partitioned-types']) {
      const file = path.join(dir, `${name}.sqlite`);
      const result = await exportRequest({ source: { tablePath: tablePath(name) }, sink: sqliteSpec(file, { table: name }) });
      const expected = await liveRowCount(tablePath(name));
      expect(result.rows).toBe(expected);
      const db = new Database(file, { readonly: true });
      expect(db.prepare(`SELECT count(*) AS n FROM "${name}"`).get()).toEqual({ n: expected });
      db.close();
      await exportRequest({ source: { tablePath: tablePath(name) }, sink: pgSpec({ url: target.url }, { table: name }) });
      expect((await target.client.query(`SELECT count(*)::int AS n FROM "${name}"`)).rows[0].n).toBe(expected);
    }
    const { rows } = await target.client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'table_with_column_mapping' ORDER BY ordinal_position`,
    );
    expect(rows.map((r) => r.column_name)).toContain('Company Very Short');
  });

  it('a default PostgreSQL export commits whole batches of 5,000 rows, several to a transaction, every row once', async () => {
    const oracle = await covidOracle();
    const batches = Math.ceil(oracle.n / 5000);
    const result = await exportRequest({ source: { tablePath: COVID }, sink: pgSpec({ url: target.url }, { table: 'covid_default' }) });
    expect(result.rows).toBe(oracle.n);
    expect(await pgCensus('covid_default')).toEqual(oracle);
    // The rows of one transaction share its id (xmin).
    const { rows } = await target.client.query(`SELECT xmin::text::bigint AS txn, count(*)::int AS n FROM covid_default GROUP BY 1`);
    const sizes = rows.map((r) => r.n as number);
    expect(sizes.length).toBeGreaterThan(1);
    expect(sizes.length).toBeLessThan(batches / 10);
    // Every transaction but the last of the stream (over two connections, not always the last to begin) holds whole
    // batches.
    expect(sizes.filter((n) => n % 5000 !== 0).length).toBeLessThanOrEqual(1);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(oracle.n);
  });

  it('an export killed mid-way with SIGKILL, run again with exactly-once, ends with every row exactly once', async () => {
    const oracle = await covidOracle();
    expect(oracle.n).toBe(await liveRowCount(COVID));
    const file = path.join(dir, 'covid.sqlite');
    const duckdbFile = path.join(dir, 'covid.duckdb');
    const sinks: [SinkSpec, () => Promise<{ n: number; cases: number; deaths: number }>][] = [
      [pgSpec({ url: target.url }, { table: 'covid', batchSize: 20_000, exactlyOnce: true }), () => pgCensus('covid')],
      [sqliteSpec(file, { table: 'covid', batchSize: 20_000, exactlyOnce: true }), async () => sqliteCensus(file, 'covid')],
      [duckdbSpec(duckdbFile, { table: 'covid', batchSize: 20_000, exactlyOnce: true }), () => duckdbCensus(duckdbFile, 'covid')],
    ];
    for (const [sink, census] of sinks) {
      const request = { source: { tablePath: COVID, columnNames: ['date', 'cases', 'deaths'] }, sink };
      const killedAt = await killMidway(request, 200_000);
      expect(killedAt).toBeGreaterThanOrEqual(200_000);
      await killedWritersGone();
      const partial = await census();
      expect(partial.n).toBeGreaterThan(0);
      expect(partial.n).toBeLessThan(oracle.n);
      // Whole transactions only: each holds one batch of 20,000 rows, or DuckDB's a range of the table's own files.
      if (sink.kind === 'duckdb') expect(await wholeFileRows(COVID)).toContain(partial.n);
      else expect(partial.n % 20_000).toBe(0);
      const resumed = await exportRequest(request);
      expect(resumed.rows).toBeLessThan(oracle.n);
      expect(await census()).toEqual(oracle);
      // The finished job run again changes nothing.
      await exportRequest(request);
      expect(await census()).toEqual(oracle);
    }
  });
});

describe('real tables into PostgreSQL over several connections', () => {
  it(
    'exports killed with SIGKILL at random points over 2 and 3 connections, resumed, land every row exactly once',
    { timeout: 600_000 },
    async () => {
      const oracle = await covidOracle();
      let seed = 20261206;
      const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      for (const [run, connections] of [2, 3, 2, 3].entries()) {
        const table = `covid_killed_${run}`;
        const sink = { ...pgSpec({ url: target.url }, { table, batchSize: 20_000, exactlyOnce: true }), connections };
        const request = { source: { tablePath: COVID, columnNames: ['date', 'cases', 'deaths'] }, sink };
        const at = 20_000 * Math.ceil(next() * 40);
        // The child may also finish before it is seen to pass `at` (its committed count jumps by whole transactions
        // of a few hundred thousand rows): then there is nothing to resume, which the rest checks as well.
        const killedAt = await killMidway(request, at).catch(() => null);
        if (killedAt !== null) {
          await killedWritersGone();
          const partial = await pgCensus(table);
          // Whole transactions of whole 20,000-row batches; the short last batch is one of them, and over several
          // connections it may commit before batches ahead of it.
          expect([0, oracle.n % 20_000], `run ${run}: killed after ${killedAt} rows`).toContain(partial.n % 20_000);
          expect(partial.n).toBeLessThanOrEqual(oracle.n);
        }
        // Killed again, now in the resumed run, where it may be resuming past rows committed ahead of its prefix.
        const again = await killMidway(request, 20_000 * Math.ceil(next() * 10)).catch(() => null);
        if (again !== null) await killedWritersGone();
        const resumed = await exportRequest(request);
        expect(resumed.rows).toBeLessThanOrEqual(oracle.n);
        expect(await pgCensus(table), `run ${run}: killed after ${killedAt} rows`).toEqual(oracle);
        await exportRequest(request);
        expect(await pgCensus(table)).toEqual(oracle);
      }
    },
  );
});

/** Waits until the server has ended the sessions of a killed export: it reads to the end of what the killed process
 * had sent (up to a whole transaction's COPY) before it sees the connection closed, and holds the job until then. */
async function killedWritersGone(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { rows } = await target.client.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'deltaport%' AND datname = current_database()`,
    );
    if (rows[0].n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the killed export still has a session after 60 s');
}
