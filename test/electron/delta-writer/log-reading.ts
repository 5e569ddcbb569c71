// Independent readers for the writer's tests: the log by plain JSON parsing, Parquet files through DuckDB.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function readCommit(root: string, version: number): Promise<Json[]> {
  const text = await fs.readFile(path.join(root, '_delta_log', `${String(version).padStart(20, '0')}.json`), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);
}

export async function commitVersions(root: string): Promise<number[]> {
  const names = await fs.readdir(path.join(root, '_delta_log'));
  return names
    .filter((n) => /^\d{20}\.json$/.test(n))
    .map((n) => Number(n.slice(0, 20)))
    .sort((a, b) => a - b);
}

/** Replays add/remove actions of commits 0..version by hand: live adds by path. */
export async function liveAdds(root: string, version?: number): Promise<Map<string, Json>> {
  const live = new Map<string, Json>();
  for (const v of await commitVersions(root)) {
    if (version !== undefined && v > version) break;
    for (const a of await readCommit(root, v)) {
      if (a.remove) live.delete(a.remove.path);
      if (a.add) live.set(a.add.path, a.add);
    }
  }
  return live;
}

let connection: Promise<DuckDBConnection> | null = null;

export async function duck(sql: string): Promise<Json[]> {
  connection ??= DuckDBInstance.create().then((db) => db.connect());
  const result = await (await connection).runAndReadAll(sql);
  return result.getRowObjectsJS() as Json[];
}

export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
