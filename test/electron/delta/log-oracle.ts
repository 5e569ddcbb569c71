// An independent view of a Delta log for the reader's tests: JSON commits by plain JSON.parse, classic checkpoints
// through DuckDB, and a deliberately naive replay (every action in order, no caching, no projection).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { v } from './log-files.js';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface OracleSnapshot {
  /** Live adds keyed by decoded path + deletion vector id. */
  adds: Map<string, Json>;
  protocol: Json;
  metaData: Json;
}

export function jsonVersions(root: string): number[] {
  return readdirSync(path.join(root, '_delta_log'))
    .filter((n) => /^\d{20}\.json$/.test(n))
    .map((n) => Number(n.slice(0, 20)))
    .sort((a, b) => a - b);
}

export function readCommit(root: string, version: number): Json[] {
  return readFileSync(path.join(root, '_delta_log', `${v(version)}.json`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);
}

export function commitInfo(root: string, version: number): Json {
  return readCommit(root, version).find((a) => a.commitInfo)?.commitInfo as Json;
}

let connection: Promise<DuckDBConnection> | null = null;

async function checkpointActions(root: string, version: number): Promise<Json[]> {
  connection ??= DuckDBInstance.create().then((db) => db.connect());
  const file = path.join(root, '_delta_log', `${v(version)}.checkpoint.parquet`).replaceAll("'", "''");
  const reader = await (
    await connection
  ).runAndReadAll(`SELECT to_json(add) AS add, to_json(protocol) AS protocol, to_json(metaData) AS metaData FROM read_parquet('${file}')`);
  return (reader.getRowObjectsJS() as Record<string, string | null>[]).map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, JSON.parse(v as string)]),
    ),
  );
}

function key(action: Json): string {
  const dv = action.deletionVector as Json | null | undefined;
  return dv
    ? `${decodeURIComponent(action.path)}|${dv.storageType}${dv.pathOrInlineDv}@${dv.offset ?? ''}`
    : decodeURIComponent(action.path);
}

/** The table at `version`: from commit 0 when `fromCheckpoint` is absent, else from that classic checkpoint. */
export async function oracleSnapshot(root: string, version: number, fromCheckpoint?: number): Promise<OracleSnapshot> {
  const state: OracleSnapshot = { adds: new Map(), protocol: {}, metaData: {} };
  const apply = (a: Json): void => {
    if (a.protocol) state.protocol = a.protocol;
    if (a.metaData) state.metaData = a.metaData;
    if (a.add) state.adds.set(key(a.add), a.add);
    if (a.remove) state.adds.delete(key(a.remove));
  };
  if (fromCheckpoint !== undefined) (await checkpointActions(root, fromCheckpoint)).forEach(apply);
  for (let v = (fromCheckpoint ?? -1) + 1; v <= version; v++) readCommit(root, v).forEach(apply);
  return state;
}

/** Sum of numRecords less deleted rows, or null if a live file has no stats. */
export function oracleRecordCount(snapshot: OracleSnapshot): number | null {
  let total = 0;
  for (const add of snapshot.adds.values()) {
    const n = add.stats ? (JSON.parse(add.stats as string) as Json).numRecords : add.stats_parsed?.numRecords;
    if (typeof n !== 'number') return null;
    total += n - ((add.deletionVector as Json | null)?.cardinality ?? 0);
  }
  return total;
}
