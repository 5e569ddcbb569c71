// Expected rows of a filtered read, from DuckDB: read_parquet over each data file the log lists (the naive replay
// of log-oracle.ts), with partition values from the log and physical names mapped to logical ones from the log's
// schema, then DuckDB's own WHERE. Tables with deletion vectors are out of its reach.
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { oracleSnapshot, type Json } from './log-oracle.js';

let connection: Promise<DuckDBConnection> | null = null;

async function duck(): Promise<DuckDBConnection> {
  connection ??= DuckDBInstance.create().then(async (db) => {
    const c = await db.connect();
    await c.run("SET TimeZone = 'UTC'");
    return c;
  });
  return connection;
}

const DUCK_TYPES: Record<string, string> = {
  string: 'VARCHAR',
  integer: 'INTEGER',
  long: 'BIGINT',
  short: 'SMALLINT',
  byte: 'TINYINT',
  boolean: 'BOOLEAN',
  double: 'DOUBLE',
  float: 'FLOAT',
  date: 'DATE',
  timestamp: 'TIMESTAMPTZ',
  timestamp_ntz: 'TIMESTAMP',
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const text = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** A DuckDB SELECT of one data file's rows as the table's logical columns: physical names mapped, partition values
 * from the action, columns the file lacks as NULL; `extra` names file columns to keep besides (a change file's
 * _change_type). */
export async function fileSelect(root: string, metaData: Json, action: Json, extra: string[] = []): Promise<string> {
  const mapped = (metaData.configuration?.['delta.columnMapping.mode'] ?? 'none') !== 'none';
  const fields = (JSON.parse(metaData.schemaString as string) as Json).fields as Json[];
  const partitions = new Set(metaData.partitionColumns as string[]);
  const file = path.join(root, decodeURIComponent(action.path as string));
  const c = await duck();
  const present = new Set(
    ((await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${text(file)})`)).getRowObjectsJS() as Json[]).map(
      (r) => r.column_name as string,
    ),
  );
  const select = fields.map((f) => {
    const physical = mapped ? (f.metadata['delta.columnMapping.physicalName'] as string) : (f.name as string);
    if (partitions.has(f.name as string)) {
      const raw = (action.partitionValues as Record<string, string | null>)[physical];
      const value = raw === null || raw === undefined || raw === '' ? 'NULL' : text(raw);
      return `CAST(${value} AS ${DUCK_TYPES[f.type as string]}) AS ${quote(f.name as string)}`;
    }
    return present.has(physical) ? `${quote(physical)} AS ${quote(f.name as string)}` : `NULL AS ${quote(f.name as string)}`;
  });
  return `SELECT ${[...select, ...extra.map(quote)].join(', ')} FROM read_parquet(${text(file)})`;
}

/** Rows of a query as `columns` cast to VARCHAR ('NULL' for null) joined by '|'. */
export async function duckCells(from: string, columns: string[], where = 'true'): Promise<string[]> {
  const cells = columns.map((name) => `coalesce(CAST(${quote(name)} AS VARCHAR), 'NULL')`).join(` || '|' || `);
  const rows = (await (await duck()).runAndReadAll(`SELECT ${cells} AS row FROM (${from}) WHERE ${where}`)).getRowObjectsJS() as Json[];
  return rows.map((r) => r.row as string);
}

/** Each kept row as its `columns` cast to VARCHAR ('NULL' for null) joined by '|', sorted; also the files listed. */
export async function duckdbRows(
  root: string,
  version: number,
  where: string,
  columns: string[],
  fromCheckpoint?: number,
): Promise<{ rows: string[]; files: Json[] }> {
  const snapshot = await oracleSnapshot(root, version, fromCheckpoint);
  const files = [...snapshot.adds.values()];
  const parts = await Promise.all(files.map((add) => fileSelect(root, snapshot.metaData, add)));
  const rows = await duckCells(parts.join(' UNION ALL BY NAME '), columns, where);
  return { rows: rows.sort(), files };
}
