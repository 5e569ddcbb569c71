// The statements the DuckDB sink runs besides its appender. Rows go through DuckDB's appender straight into a table
// whose columns are exactly the exported ones (one the export created: a new target, an overwrite's staging table);
// otherwise into a session's landing table of the exported types, then copied with one INSERT ... SELECT, which
// casts into an existing target's own types, and for an upsert merges (the last row of a key in the export wins, as
// in the other SQL sinks).
import type { StructField } from '../../../shared/delta-schema.js';
import { quoteIdent, quoteList } from '../sql-identifiers.js';
import type { TableDescription } from '../sql-plan.js';
import { columnList, onConflict } from '../sql-statements.js';
import { duckdbType, sameDuckdbType } from './duckdb-types.js';

/** A session's landing table (a temporary table: it lives and dies with the connection). */
export const LANDING_TABLE = '_deltaport_rows';
const LANDING = `temp.main.${quoteIdent(LANDING_TABLE)}`;
/** The landing rows' ordinal in a merge: DuckDB's rowid grows with the order the appender added them in. */
const PICK = '_deltaport_pick';

export function landingTableSql(fields: StructField[]): string {
  const columns = fields.map((f) => `${quoteIdent(f.name)} ${duckdbType(f.type)}`);
  return `CREATE OR REPLACE TEMP TABLE ${quoteIdent(LANDING_TABLE)} (${columns.join(', ')})`;
}

export const CLEAR_LANDING_SQL = `DELETE FROM ${LANDING}`;

/** The landing rows into the target; with keys, one row per key (the last landed) merged by ON CONFLICT. */
export function fromLandingSql(table: string, fields: StructField[], keys: string[] | null): string {
  const columns = columnList(fields);
  const into = `INSERT INTO ${quoteIdent(table)} (${columns}) SELECT ${columns} FROM `;
  if (!keys) return `${into}${LANDING}`;
  const picked = `(SELECT *, row_number() OVER (PARTITION BY ${quoteList(keys)} ORDER BY rowid DESC) AS ${PICK} FROM ${LANDING})`;
  return `${into}${picked} WHERE ${PICK} = 1${onConflict(fields, keys)}`;
}

/** Whether the appender writes straight into the target (null: one the export creates): not for an upsert, and only
 * where the table's columns are the exported ones, in their order, of exactly their types. */
export function appendsDirectly(fields: StructField[], keys: string[] | null, existing: TableDescription | null): boolean {
  if (keys) return false;
  if (!existing) return true;
  const { columns } = existing;
  return columns.length === fields.length && columns.every((c, i) => c.name === fields[i].name && sameDuckdbType(fields[i].type, c.type));
}

/** What Show plan says each transaction runs. */
export function writeStatement(table: string, fields: StructField[], keys: string[] | null, existing: TableDescription | null): string {
  return appendsDirectly(fields, keys, existing)
    ? `-- each transaction's rows through DuckDB's appender into ${quoteIdent(table)}`
    : fromLandingSql(table, fields, keys);
}
