// Opening a DuckDB database file for an export, describing a table in it, and DuckDB's errors in one line. DuckDB locks
// its file for the one process that has it open: a second process that tries is told which process holds it.
import { existsSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { DeltaportError } from '../../../shared/errors.js';
import type { TableDescription } from '../sql-plan.js';

/** Settings of every database the sink opens: no extension is fetched or loaded behind the user's back. */
const OPTIONS = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };

/** Opens (creating when missing) the database at `path`, or throws a one-line error saying why it cannot. */
export async function openDuckdb(path: string, options: { readOnly?: boolean } = {}): Promise<DuckDBInstance> {
  try {
    return await DuckDBInstance.create(path, { ...OPTIONS, ...(options.readOnly ? { access_mode: 'READ_ONLY' } : {}) });
  } catch (err) {
    throw openError(path, err);
  }
}

function openError(path: string, err: unknown): DeltaportError {
  const message = duckdbMessage(err);
  const holder = /Conflicting lock is held in .*\(PID (\d+)\)/.exec(message);
  if (holder) return new DeltaportError('SINK_BUSY', `the DuckDB file ${path} is in use by another process (PID ${holder[1]})`);
  if (/not a valid DuckDB database file|database file with version|unable to open/i.test(message) || /\bIO Error\b/.test(message))
    return new DeltaportError('SINK_WRITE', `${path} cannot be opened as a DuckDB database: ${message}`);
  return new DeltaportError('SINK_WRITE', `cannot open the DuckDB file ${path}: ${message}`);
}

/** DuckDB's message on one line, without its "See also" links. */
export function duckdbMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text
    .replace(/\s*See also https?:\/\/\S+/g, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** The rows of a statement as plain values (BIGINT as bigint, text as string). */
export async function duckdbRows(connection: DuckDBConnection, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const reader = await connection.runAndReadAll(sql, params as DuckDBValue[]);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

/** A table's columns and its unique keys (primary key and UNIQUE constraints), or null when there is no such table. */
export async function describeDuckdbTable(connection: DuckDBConnection, table: string): Promise<TableDescription | null> {
  const columns = await duckdbRows(
    connection,
    `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = ? ORDER BY column_index`,
    [table],
  );
  if (columns.length === 0) return null;
  const keys = await duckdbRows(
    connection,
    `SELECT constraint_column_names AS names FROM duckdb_constraints()
     WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = ? AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')`,
    [table],
  );
  return {
    columns: columns.map((c) => ({
      name: String(c.name),
      type: String(c.type),
      notNull: c.nullable === false,
      hasDefault: c.dflt !== null,
    })),
    uniqueKeys: keys.map((k) => (k.names as unknown[]).map(String)),
  };
}

/** `read` on the file at `path` opened read-only (never created: null when there is no file). */
export async function readDuckdbFile<T>(path: string, read: (connection: DuckDBConnection) => Promise<T>): Promise<T | null> {
  if (!existsSync(path)) return null;
  const instance = await openDuckdb(path, { readOnly: true });
  try {
    const connection = await instance.connect();
    try {
      return await read(connection);
    } finally {
      // The file stays locked while any connection to it is open, closed instance or not.
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/** The target table in the file at `path`, read without creating the file or taking more than a read lock. */
export async function describeDuckdbFile(path: string, table: string): Promise<TableDescription | null> {
  return readDuckdbFile(path, (connection) => describeDuckdbTable(connection, table));
}
