// Independent views of the data for the export tests: DuckDB reads Parquet and CSV files, plain JSON parsing reads
// the Delta log's own record counts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

let connection: Promise<DuckDBConnection> | null = null;

export async function duck(sql: string): Promise<Record<string, unknown>[]> {
  connection ??= DuckDBInstance.create().then((db) => db.connect());
  return (await (await connection).runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

export function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Column name -> DuckDB type of a query's result. */
export async function columnTypes(from: string): Promise<Record<string, string>> {
  const rows = await duck(`DESCRIBE SELECT * FROM ${from}`);
  return Object.fromEntries(rows.map((r) => [r.column_name as string, r.column_type as string]));
}

/**
 * Rows of the live files, from the JSON commits (tables without checkpoints): add.stats.numRecords, or DuckDB's count
 * of the file where an add has no stats.
 */
export async function liveRecordCount(table: string): Promise<number> {
  const live = new Map<string, number | null>();
  const log = path.join(table, '_delta_log');
  for (const name of readdirSync(log)
    .filter((n) => /^\d{20}\.json$/.test(n))
    .sort()) {
    for (const line of readFileSync(path.join(log, name), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const action = JSON.parse(line) as { add?: { path: string; stats?: string }; remove?: { path: string } };
      if (action.add) {
        const stats = action.add.stats ? (JSON.parse(action.add.stats) as { numRecords?: number }) : {};
        live.set(action.add.path, stats.numRecords ?? null);
      }
      if (action.remove) live.delete(action.remove.path);
    }
  }
  let total = 0;
  for (const [file, count] of live) {
    if (count !== null) total += count;
    else {
      const [row] = await duck(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlText(path.join(table, decodeURIComponent(file)))})`);
      total += row.n as number;
    }
  }
  return total;
}
