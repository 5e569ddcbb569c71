// What the CLI tests of the network SQL sinks (PostgreSQL, MySQL) share: the partitioned table they export, the flags
// of its exactly-once export, and what its files hold as DuckDB reads them (the independent answer).
import { duck, sqlText, type DuckRow } from '../../support/duckdb.js';
import { tablePath } from '../../support/tables.js';

export const PARTITIONED = tablePath('delta-0.8.0-partitioned');
const FILES = sqlText(`${PARTITIONED}/**/*.parquet`);

/** The table's value and year columns into "Sales 2021", exactly once, two rows a batch. */
export function exactlyOnceArgs(sink: string): string[] {
  return [
    'export',
    PARTITIONED,
    '--columns',
    'value,year',
    '--sink',
    sink,
    '--target',
    'Sales 2021',
    '--exactly-once',
    '--batch-size',
    '2',
  ];
}

/** Every data file's rows (DuckDB), with year from the hive path as the log's partitionValues also say. */
export function valueAndYear(): Promise<DuckRow[]> {
  return duck(`SELECT value, CAST(year AS VARCHAR) AS year FROM read_parquet(${FILES}, hive_partitioning=true) ORDER BY value`);
}

/** How many rows the data files hold. */
export async function rowCount(): Promise<number> {
  const [source] = await duck(`SELECT count(*)::INTEGER AS n FROM read_parquet(${FILES})`);
  return Number(source.n);
}

/** How many distinct values of `value` the data files hold. */
export async function distinctValues(): Promise<number> {
  const [source] = await duck(`SELECT count(DISTINCT value)::INTEGER AS n FROM read_parquet(${FILES})`);
  return Number(source.n);
}
