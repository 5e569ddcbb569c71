// SQL over a snapshot (`deltaport sql`, electron/sql/) against DuckDB's own delta_scan of the same table in the same
// run (duckdb-query.py): two queries, each the first in a fresh engine (cold: from opening the engine to the rows) and
// then again (warm), timed inside each process so that neither's Node or Python start-up counts; and the peak RSS of
// the `deltaport sql` process on the table.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SqlEngine } from '../../electron/sql/sql-engine.js';
import { taskTables } from '../support/task-tables.js';
import { runCli, runPython } from './child-run.js';
import type { Figure } from './report.js';

export interface SqlQueryFigures {
  query: string;
  coldMs: Figure;
  warmMs: Figure;
  duckdbColdMs: Figure;
  duckdbWarmMs: Figure;
}

export interface SqlTableFigures {
  table: string;
  groupBy: SqlQueryFigures;
  count: SqlQueryFigures;
  /** Peak RSS of `deltaport sql <table> "<the GROUP BY>"`, MB. */
  peakRssMb: Figure;
}

/** A table and the columns that play the issue's `state` and `cases`, and one value of the first. */
export interface SqlBenchTable {
  name: string;
  root: string;
  group: string;
  sum: string;
  value: string;
}

type Measure = (name: string, fn: () => Promise<number>) => Promise<Figure>;

export async function sqlCases(table: SqlBenchTable, measure: Measure): Promise<SqlTableFigures> {
  const groupBy = `SELECT ${table.group}, sum(${table.sum}) FROM t GROUP BY ${table.group}`;
  const count = `SELECT count(*) FROM t WHERE ${table.group} = '${table.value}'`;
  return {
    table: table.name,
    groupBy: await queryCase(table, groupBy, measure),
    count: await queryCase(table, count, measure),
    peakRssMb: await measure(`${table.name}: deltaport sql process peak RSS, MB`, async () => {
      const run = await runCli(['sql', table.root, groupBy, '--format', 'csv']);
      if (run.maxRssMb === null) throw new Error('the process reported no RSS');
      return run.maxRssMb;
    }),
  };
}

async function queryCase(table: SqlBenchTable, query: string, measure: Measure): Promise<SqlQueryFigures> {
  const ours = await deltaportTimes(table.root, query).catch((err: unknown) => err as Error);
  const peer = await runPython('duckdb-query.py', [table.root, query])
    .then((run) => JSON.parse(run.stdout) as { coldMs: number; warmMs: number })
    .catch((err: unknown) => err as Error);
  const at = `${table.name}: ${query}`;
  return {
    query,
    coldMs: await measure(`${at}, cold, ms`, async () => value(ours, 'coldMs')),
    warmMs: await measure(`${at}, warm, ms`, async () => value(ours, 'warmMs')),
    duckdbColdMs: await measure(`${at}, DuckDB delta_scan cold, ms`, async () => value(peer, 'coldMs')),
    duckdbWarmMs: await measure(`${at}, DuckDB delta_scan warm, ms`, async () => value(peer, 'warmMs')),
  };
}

function value(times: { coldMs: number; warmMs: number } | Error, name: 'coldMs' | 'warmMs'): number {
  if (times instanceof Error) throw times;
  return times[name];
}

/** The query twice in a fresh engine in this process: the first run starts DuckDB and reads the snapshot, the second
 * finds them kept. */
async function deltaportTimes(root: string, query: string): Promise<{ coldMs: number; warmMs: number }> {
  const tempDirectory = await mkdtemp(path.join(os.tmpdir(), 'deltaport-bench-sql-'));
  let started = performance.now();
  const engine = await SqlEngine.open({ memoryLimit: '1GB', tempDirectory }, taskTables().open);
  try {
    const times: number[] = [];
    for (let run = 0; run < 2; run++) {
      const result = await engine.query({ sql: query, tables: { t: { location: root } } });
      for await (const batch of result.batches) void batch;
      times.push(performance.now() - started);
      started = performance.now();
    }
    return { coldMs: times[0], warmMs: times[1] };
  } finally {
    await engine.close();
    await rm(tempDirectory, { recursive: true, force: true });
  }
}
