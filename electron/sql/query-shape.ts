// What a query reads, from DuckDB's own parse of it (json_serialize_sql, which parses without binding): the tables
// it names, the column names it mentions, and the conditions that hold for every row it reads of a table. Only those
// tables are read, of them only the columns the query could mean (a `*` anywhere reads them all), and where the query
// is a plain SELECT over one table, its simple WHERE conditions become our scan's filter (electron/delta/filter/), so
// partition values and statistics skip files before DuckDB sees a row.
import type { DuckDBConnection } from '@duckdb/node-api';
import { DeltaportError } from '../../shared/errors.js';
import { quoteName, quoteText } from '../../shared/sql-quote.js';

export interface QueryShape {
  /** Lower-cased names of the tables in FROM clauses. */
  tables: Set<string>;
  /** Lower-cased names in column references (every part of `a.b.c`); null when a `*` asks for all columns. */
  columns: Set<string> | null;
  /** A table's rows the query can use all pass this filter (in the filter language of shared/expression/), by the
   * table's lower-cased name. */
  filters: Map<string, string>;
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
  const shape: QueryShape = { tables: new Set(), columns: new Set(), filters: new Map() };
  const refs = { count: 0 };
  collect(statements[0], shape, refs);
  const pushed = refs.count === 1 ? pushedFilter(statements[0]) : null;
  if (pushed) shape.filters.set(pushed.table, pushed.filter);
  return shape;
}

type Node = Record<string, unknown>;

const isNode = (x: unknown): x is Node => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A SELECT straight over the one table the statement names, without CTEs: its WHERE's conjuncts that the filter
 * language says the same way (a column compared with a text, a whole number or a DATE), as a filter. Every row the
 * query reads of the table passes its WHERE, so reading only those rows changes nothing. */
function pushedFilter(statement: unknown): { table: string; filter: string } | null {
  const node = isNode(statement) ? statement.node : null;
  if (!isNode(node) || node.type !== 'SELECT_NODE' || !isNode(node.from_table) || node.from_table.type !== 'BASE_TABLE') return null;
  const cte = isNode(node.cte_map) ? node.cte_map.map : null;
  if (Array.isArray(cte) && cte.length > 0) return null;
  const from = node.from_table;
  const names = new Set([String(from.table_name).toLowerCase(), String(from.alias).toLowerCase()]);
  const parts = conjuncts(node.where_clause)
    .map((c) => comparisonText(c, names))
    .filter((t): t is string => t !== null);
  return parts.length === 0 ? null : { table: String(from.table_name).toLowerCase(), filter: parts.join(' AND ') };
}

function conjuncts(where: unknown): unknown[] {
  if (isNode(where) && where.type === 'CONJUNCTION_AND' && Array.isArray(where.children)) return where.children.flatMap(conjuncts);
  return where === null || where === undefined ? [] : [where];
}

const OPERATORS: Record<string, [string, string]> = {
  COMPARE_EQUAL: ['=', '='],
  COMPARE_NOTEQUAL: ['<>', '<>'],
  COMPARE_LESSTHAN: ['<', '>'],
  COMPARE_GREATERTHAN: ['>', '<'],
  COMPARE_LESSTHANOREQUALTO: ['<=', '>='],
  COMPARE_GREATERTHANOREQUALTO: ['>=', '<='],
};

/** `"col" op literal` for a column of the table compared with a constant (either side), else null. */
function comparisonText(c: unknown, table: Set<string>): string | null {
  if (!isNode(c) || c.class !== 'COMPARISON') return null;
  const op = OPERATORS[String(c.type)];
  if (!op) return null;
  const left = columnName(c.left, table);
  const right = columnName(c.right, table);
  if (left !== null && right === null) {
    const value = literal(c.right);
    return value === null ? null : `${quoteName(left)} ${op[0]} ${value}`;
  }
  if (right !== null && left === null) {
    const value = literal(c.left);
    return value === null ? null : `${quoteName(right)} ${op[1]} ${value}`;
  }
  return null;
}

function columnName(x: unknown, table: Set<string>): string | null {
  if (!isNode(x) || x.class !== 'COLUMN_REF' || !Array.isArray(x.column_names)) return null;
  const names = x.column_names as string[];
  if (names.length === 1) return names[0];
  return names.length === 2 && table.has(names[0].toLowerCase()) ? names[1] : null;
}

function literal(x: unknown): string | null {
  if (isNode(x) && x.class === 'CAST' && isNode(x.cast_type) && x.cast_type.id === 'DATE' && !x.try_cast) {
    const text = constant(x.child, ['VARCHAR']);
    return typeof text === 'string' ? `DATE ${quoteText(text)}` : null;
  }
  const value = constant(x, ['VARCHAR', 'INTEGER', 'BIGINT']);
  if (typeof value === 'string') return quoteText(value);
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : null;
}

function constant(x: unknown, types: string[]): unknown {
  if (!isNode(x) || x.class !== 'CONSTANT' || !isNode(x.value)) return null;
  const { type, is_null: isNull, value } = x.value;
  return isNode(type) && types.includes(String(type.id)) && !isNull ? value : null;
}

/** The refusal of anything but a query: SQL here reads the opened tables and nothing else. */
export function refused(sql: string): DeltaportError {
  const keyword = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? 'this statement';
  return new DeltaportError('FORBIDDEN', `${keyword} is refused: SQL here only queries the opened tables (SELECT, WITH, ...)`);
}

function collect(node: unknown, shape: QueryShape, refs: { count: number }): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, shape, refs);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.type === 'BASE_TABLE' && typeof record.table_name === 'string') {
    shape.tables.add(record.table_name.toLowerCase());
    refs.count++;
  }
  if (record.class === 'COLUMN_REF' && Array.isArray(record.column_names)) {
    for (const name of record.column_names) if (typeof name === 'string') shape.columns?.add(name.toLowerCase());
  }
  if (Array.isArray(record.using_columns)) {
    for (const name of record.using_columns) if (typeof name === 'string') shape.columns?.add(name.toLowerCase());
  }
  if (record.class === 'STAR') shape.columns = null;
  for (const value of Object.values(record)) collect(value, shape, refs);
}
