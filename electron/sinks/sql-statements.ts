// The statements a SQL sink runs, per dialect. Every name is quoted (sql-identifiers.ts); values only ever travel as
// parameters or COPY data.
import type { StructField } from '../../shared/delta-schema.js';
import { quoteIdent, quoteList } from './sql-identifiers.js';
import { sqlType } from './sql-types.js';

/** Rows per SQLite INSERT: enough to amortize the statement, within SQLite's 32766 bound parameters. */
export function sqliteRowsPerInsert(columns: number): number {
  return Math.max(1, Math.min(100, Math.floor(32_766 / Math.max(1, columns))));
}

export function insertValuesSql(table: string, fields: StructField[], rows: number, keys: string[] | null): string {
  const row = `(${fields.map(() => '?').join(', ')})`;
  const values = Array.from({ length: rows }, () => row).join(', ');
  return `INSERT INTO ${quoteIdent(table)} (${columnList(fields)}) VALUES ${values}${keys ? onConflict(fields, keys) : ''}`;
}

/** The upsert clause, the same in both dialects; rows whose every column is a key have nothing to update. */
export function onConflict(fields: StructField[], keys: string[]): string {
  const keySet = new Set(keys);
  const updates = fields.filter((f) => !keySet.has(f.name)).map((f) => `${quoteIdent(f.name)} = excluded.${quoteIdent(f.name)}`);
  return ` ON CONFLICT (${quoteList(keys)}) DO ${updates.length > 0 ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`;
}

export function copySql(table: string, fields: StructField[], binary = false): string {
  return `COPY ${quoteIdent(table)} (${columnList(fields)}) FROM STDIN${binary ? ' (FORMAT binary)' : ''}`;
}

/** A session's landing table for upserts; a serial column remembers arrival order so the last row of a key wins. */
export const UPSERT_TEMP = '_deltaport_upsert';
const ARRIVAL = '_deltaport_arrival';

export function upsertTempSql(fields: StructField[]): string {
  const columns = fields.map((f) => `${quoteIdent(f.name)} ${sqlType(f, 'postgres')}`);
  return `CREATE TEMP TABLE IF NOT EXISTS ${quoteIdent(UPSERT_TEMP)} (${columns.join(', ')}, ${quoteIdent(ARRIVAL)} bigserial) ON COMMIT DELETE ROWS`;
}

/** Merges the landed rows; PostgreSQL refuses to update one row twice in a statement, so duplicates collapse first. */
export function upsertMergeSql(table: string, fields: StructField[], keys: string[]): string {
  return (
    `INSERT INTO ${quoteIdent(table)} (${columnList(fields)}) ` +
    `SELECT DISTINCT ON (${quoteList(keys)}) ${columnList(fields)} FROM ${quoteIdent(UPSERT_TEMP)} ` +
    `ORDER BY ${quoteList(keys)}, ${quoteIdent(ARRIVAL)} DESC${onConflict(fields, keys)}`
  );
}

export function columnList(fields: StructField[]): string {
  return quoteList(fields.map((f) => f.name));
}
