// The tests' one DuckDB connection: the independent reader of Parquet, CSV and JSON files that expected values come
// from. Its session time zone is UTC, as Deltaport's is, so timestamps cast to text read the same on every machine.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export type DuckRow = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let connection: Promise<DuckDBConnection> | null = null;

function duckdb(): Promise<DuckDBConnection> {
  connection ??= DuckDBInstance.create().then(async (db) => {
    const c = await db.connect();
    await c.run("SET TimeZone = 'UTC'");
    return c;
  });
  return connection;
}

/** The rows of a query as plain JS values. */
export async function duck<T = DuckRow>(sql: string): Promise<T[]> {
  return (await (await duckdb()).runAndReadAll(sql)).getRowObjectsJS() as T[];
}

/** A SQL string literal. */
export function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A quoted SQL name. */
export function sqlName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Column name -> DuckDB type of a query's result. */
export async function columnTypes(from: string): Promise<Record<string, string>> {
  const rows = await duck(`DESCRIBE SELECT * FROM ${from}`);
  return Object.fromEntries(rows.map((r) => [r.column_name as string, r.column_type as string]));
}
