// The tests' independent reader of a Delta log, which expected values come from. It imports nothing of electron/:
// JSON commits by plain JSON.parse, classic checkpoints through DuckDB, and a deliberately naive replay (every action
// in order, no caching, no projection). The rows a deletion vector deletes are delta-oracle-deletion-vectors.ts's.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { duck, sqlText } from './duckdb.js';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface OracleSnapshot {
  /** Live add actions keyed by fileKey. */
  adds: Map<string, Json>;
  protocol: Json;
  metaData: Json;
}

const logName = (version: number): string => String(version).padStart(20, '0');

/** The JSON commit file of a version. */
export function commitFile(root: string, version: number): string {
  return path.join(root, '_delta_log', `${logName(version)}.json`);
}

/** The versions that have a JSON commit, ascending. */
export function commitVersions(root: string): number[] {
  return readdirSync(path.join(root, '_delta_log'))
    .filter((n) => /^\d{20}\.json$/.test(n))
    .map((n) => Number(n.slice(0, 20)))
    .sort((a, b) => a - b);
}

export function readCommit(root: string, version: number): Json[] {
  return readFileSync(commitFile(root, version), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);
}

export function commitInfo(root: string, version: number): Json {
  return readCommit(root, version).find((a) => a.commitInfo)?.commitInfo as Json;
}

/** A data file's identity in the log: its decoded path and, when it has one, its deletion vector (an update of the
 * deletion vector removes the file with the old one and adds it with the new one). */
export function fileKey(action: Json): string {
  const dv = action.deletionVector as Json | null | undefined;
  return dv
    ? `${decodeURIComponent(action.path)}|${dv.storageType}${dv.pathOrInlineDv}@${dv.offset ?? ''}`
    : decodeURIComponent(action.path);
}

/** The local file an add or remove action names. */
export function dataFile(root: string, action: Json): string {
  return path.join(root, decodeURIComponent(action.path as string));
}

/** The files of a classic checkpoint (single- or multi-part). */
function checkpointFiles(root: string, version: number): string[] {
  const pattern = new RegExp(`^${logName(version)}\\.checkpoint(\\.\\d{10}\\.\\d{10})?\\.parquet$`);
  return readdirSync(path.join(root, '_delta_log'))
    .filter((n) => pattern.test(n))
    .sort()
    .map((n) => path.join(root, '_delta_log', n));
}

/** The versions that have a classic checkpoint. */
function checkpointVersions(root: string): number[] {
  return readdirSync(path.join(root, '_delta_log'))
    .filter((n) => /^\d{20}\.checkpoint(\.\d{10}\.\d{10})?\.parquet$/.test(n))
    .map((n) => Number(n.slice(0, 20)));
}

/** The newest classic checkpoint at or before `version`. */
function newestCheckpoint(root: string, version: number): number {
  const versions = checkpointVersions(root).filter((x) => x <= version);
  if (versions.length === 0) throw new Error(`${root} has no commit 0 and no classic checkpoint at or before ${version}`);
  return Math.max(...versions);
}

async function checkpointActions(root: string, version: number): Promise<Json[]> {
  const files = checkpointFiles(root, version).map(sqlText);
  const rows = await duck(
    `SELECT to_json(add) AS add, to_json(protocol) AS protocol, to_json(metaData) AS metaData FROM read_parquet([${files.join(', ')}])`,
  );
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, JSON.parse(v as string)]),
    ),
  );
}

/**
 * The table at `version` (default the latest): replayed from that classic checkpoint when `fromCheckpoint` is
 * given, else from commit 0, or where commit 0 is gone from the newest classic checkpoint at or before `version`.
 */
export async function oracleSnapshot(root: string, version?: number, fromCheckpoint?: number): Promise<OracleSnapshot> {
  const to = version ?? Math.max(...commitVersions(root), ...checkpointVersions(root));
  const start = fromCheckpoint ?? (existsSync(commitFile(root, 0)) ? undefined : newestCheckpoint(root, to));
  const state: OracleSnapshot = { adds: new Map(), protocol: {}, metaData: {} };
  const apply = (a: Json): void => {
    if (a.protocol) state.protocol = a.protocol;
    if (a.metaData) state.metaData = a.metaData;
    if (a.add) state.adds.set(fileKey(a.add), a.add);
    if (a.remove) state.adds.delete(fileKey(a.remove));
  };
  if (start !== undefined) (await checkpointActions(root, start)).forEach(apply);
  for (let v = (start ?? -1) + 1; v <= to; v++) readCommit(root, v).forEach(apply);
  return state;
}

/** The live add actions at `version` (default the latest), with their deletion vectors and partition values. */
export async function liveFiles(root: string, version?: number): Promise<Json[]> {
  return [...(await oracleSnapshot(root, version)).adds.values()];
}

const statsRecords = (add: Json): unknown =>
  add.stats ? (JSON.parse(add.stats as string) as Json).numRecords : add.stats_parsed?.numRecords;

/** What the log's statistics say: the sum of numRecords less deleted rows, or null if a live file has no stats. */
export function oracleRecordCount(snapshot: OracleSnapshot): number | null {
  let total = 0;
  for (const add of snapshot.adds.values()) {
    const n = statsRecords(add);
    if (typeof n !== 'number') return null;
    total += n - ((add.deletionVector as Json | null)?.cardinality ?? 0);
  }
  return total;
}

/** The rows live in `files` (default the latest version's): numRecords (DuckDB's count where a file has no stats) less
 * deleted rows. */
export async function liveRowCount(root: string, files?: Json[]): Promise<number> {
  let total = 0;
  for (const add of files ?? (await liveFiles(root))) {
    const n = statsRecords(add);
    total +=
      typeof n === 'number'
        ? n
        : ((await duck(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlText(dataFile(root, add))})`))[0].n as number);
    total -= (add.deletionVector as Json | null)?.cardinality ?? 0;
  }
  return total;
}

/** The rows of the live files taken whole from the first on, in the reader's order (by path): 0, then the first
 * file's, then the first two's, and so on (liveRowCount of each). What a reader of whole files has read so far. */
export async function wholeFileRows(root: string, version?: number): Promise<number[]> {
  const files = (await liveFiles(root, version)).map((add) => ({ add, file: dataFile(root, add) }));
  files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const sums = [0];
  for (const { add } of files) sums.push(sums.at(-1)! + (await liveRowCount(root, [add])));
  return sums;
}
