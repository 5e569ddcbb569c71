// What a query reads, from DuckDB's own parse of it (json_serialize_sql, which parses without binding): the tables
// it names and the column names it mentions. Only those tables are read, and of them only the columns the query
// could mean (a `*` anywhere reads them all), so a projection reaches our scan before DuckDB sees a row.
import type { DuckDBConnection } from '@duckdb/node-api';
import { DeltaportError } from '../../shared/errors.js';

export interface QueryShape {
  /** Lower-cased names of the tables in FROM clauses. */
  tables: Set<string>;
  /** Lower-cased names in column references (every part of `a.b.c`); null when a `*` asks for all columns. */
  columns: Set<string> | null;
}

interface Parsed {
  error: boolean;
  error_message?: string;
  error_type?: string;
  position?: string;
  statements?: unknown[];
}

/** The query's shape, or a one-line error: a syntax error at its position, a statement that is not a query refused. */
export async function queryShape(connection: DuckDBConnection, sql: string, where: (offset: number) => string): Promise<QueryShape> {
  const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
  const parsed = JSON.parse(String(reader.getRows()[0][0])) as Parsed;
  if (parsed.error) {
    const message = parsed.error_message ?? 'the query cannot be read';
    if (/only select statements/i.test(message)) throw refused(sql);
    const at = parsed.position === undefined ? '' : ` (${where(Number(parsed.position))})`;
    throw new DeltaportError('VALIDATION', `${message.split('\n')[0]}${at}`);
  }
  const statements = parsed.statements ?? [];
  if (statements.length !== 1) throw new DeltaportError('VALIDATION', `give one query at a time, not ${statements.length}`);
  const shape: QueryShape = { tables: new Set(), columns: new Set() };
  collect(statements[0], shape);
  return shape;
}

/** The refusal of anything but a query: SQL here reads the opened tables and nothing else. */
export function refused(sql: string): DeltaportError {
  const keyword = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'this statement';
  return new DeltaportError('FORBIDDEN', `${keyword} is refused: SQL here only queries the opened tables (SELECT, WITH, ...)`);
}

function collect(node: unknown, shape: QueryShape): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, shape);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.type === 'BASE_TABLE' && typeof record.table_name === 'string') shape.tables.add(record.table_name.toLowerCase());
  if (record.class === 'COLUMN_REF' && Array.isArray(record.column_names)) {
    for (const name of record.column_names) if (typeof name === 'string') shape.columns?.add(name.toLowerCase());
  }
  if (Array.isArray(record.using_columns)) {
    for (const name of record.using_columns) if (typeof name === 'string') shape.columns?.add(name.toLowerCase());
  }
  if (record.class === 'STAR') shape.columns = null;
  for (const value of Object.values(record)) collect(value, shape);
}
