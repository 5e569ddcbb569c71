// The statements that write a transaction's rows, which DuckDB reads from the transaction's temporary Parquet files
// (duckdb-parquet-parts.ts). Without keys, one INSERT ... SELECT from read_parquet, which casts into an existing
// target's own types. For an upsert, the rows first land in a session's landing table of the exported types (in the
// order they came: DuckDB's rowid grows with it), then are merged by ON CONFLICT, the last row of a key in the export
// winning, as in the other SQL sinks.
import type { StructField } from '../../../shared/delta-schema.js';
import { quoteName, quoteText } from '../../../shared/sql-quote.js';
import { quoteList } from '../sql-identifiers.js';
import { columnList, onConflict } from '../sql-statements.js';
import { duckdbType } from './duckdb-types.js';

/** A session's landing table (a temporary table: it lives and dies with the connection). */
export const LANDING_TABLE = '_deltaport_rows';
const LANDING = `temp.main.${quoteName(LANDING_TABLE)}`;
/** A session's view of a transaction's range of the snapshot's own files (duckdb-own-files.ts), a temporary view with
 * helper tables named from it. */
export const OWN_FILES_VIEW = '_deltaport_files';
/** The landing rows' ordinal in a merge. */
const PICK = '_deltaport_pick';
/** What Show plan prints for the scan of a transaction's files: its Parquet parts, or its range of the snapshot's own
 * files (duckdb-own-files.ts). */
const PLAN_SCAN = "read_parquet([-- the transaction's files --])";
const PLAN_OWN_SCAN = "read_parquet([-- the table's own data files, a range of them per transaction --])";

export function landingTableSql(fields: StructField[]): string {
  const columns = fields.map((f) => `${quoteName(f.name)} ${duckdbType(f.type)}`);
  return `CREATE OR REPLACE TEMP TABLE ${quoteName(LANDING_TABLE)} (${columns.join(', ')})`;
}

export const CLEAR_LANDING_SQL = `DELETE FROM ${LANDING}`;

/** DuckDB's scan of a transaction's files. */
export function parquetScan(files: string[]): string {
  return `read_parquet([${files.map(quoteText).join(', ')}])`;
}

/** The statements that write one transaction's rows, read by `scan`, into `table` (with keys: through the landing
 * table). */
export function transactionSql(table: string, fields: StructField[], keys: string[] | null, scan: string): string[] {
  const columns = columnList(fields);
  if (!keys) return [`INSERT INTO ${quoteName(table)} (${columns}) SELECT ${columns} FROM ${scan}`];
  return [CLEAR_LANDING_SQL, `INSERT INTO ${LANDING} (${columns}) SELECT ${columns} FROM ${scan}`, mergeSql(table, fields, keys)];
}

/** The landing rows into the target, one row per key (the last landed), merged by ON CONFLICT. */
function mergeSql(table: string, fields: StructField[], keys: string[]): string {
  const columns = columnList(fields);
  const picked = `(SELECT *, row_number() OVER (PARTITION BY ${quoteList(keys)} ORDER BY rowid DESC) AS ${PICK} FROM ${LANDING})`;
  return `INSERT INTO ${quoteName(table)} (${columns}) SELECT ${columns} FROM ${picked} WHERE ${PICK} = 1${onConflict(fields, keys)}`;
}

/** What Show plan says each transaction runs; `ownFiles`: the rows are read from the snapshot's own files. */
export function writeStatement(table: string, fields: StructField[], keys: string[] | null, ownFiles: boolean): string {
  return transactionSql(table, fields, keys, ownFiles ? PLAN_OWN_SCAN : PLAN_SCAN)
    .filter((sql) => sql !== CLEAR_LANDING_SQL)
    .join('; ');
}
