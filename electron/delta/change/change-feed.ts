// Delta's change data feed (PROTOCOL.md "Change Data Files"; Spark's table_changes) for versions from..to: each row
// with _change_type (insert, delete, update_preimage, update_postimage), _commit_version and _commit_timestamp after
// the table's columns. A commit with cdc actions is read from those _change_data files alone; a commit without them
// gives its data-changing adds as inserts and its data-changing removes as deletes, and a file removed and re-added
// with a larger deletion vector (a DELETE with deletion vectors) its newly deleted rows as deletes. Commits that do
// not change data (OPTIMIZE: dataChange false) give no rows.
import * as arrow from 'apache-arrow';
import type { StructField } from '../../../shared/delta-schema.js';
import { recordsChangeFeed } from '../../../shared/change-source.js';
import { DeltaportError } from '../../../shared/errors.js';
import type { Action, AddFile, Metadata, RemoveFile } from '../log/actions.js';
import { toArrowField } from '../scan/arrow-types.js';
import { loadDeletionVector } from '../scan/deletion-vectors.js';
import type { EngineContext } from '../engine/engine-context.js';
import { resolveDataPath } from '../log/log-paths.js';
import type { LiveFile, Snapshot } from '../snapshot.js';
import type { DeltaTable } from '../table.js';
import { fileRows, type ConstantColumn } from './file-rows.js';

interface CdcAction {
  path: string;
  partitionValues?: Record<string, string | null>;
  size?: number;
}

const CHANGE_TYPE: StructField = { name: '_change_type', type: 'string', nullable: false };
const COMMIT_VERSION: StructField = { name: '_commit_version', type: 'long', nullable: false };
const COMMIT_TIMESTAMP: StructField = { name: '_commit_timestamp', type: 'timestamp', nullable: false };
const VERSION_FIELD = toArrowField(COMMIT_VERSION);
const TIMESTAMP_FIELD = toArrowField(COMMIT_TIMESTAMP);

export interface ChangeFeed {
  /** The table's columns at `to`, then _change_type, _commit_version, _commit_timestamp; as Delta fields and Arrow. */
  fields: StructField[];
  schema: arrow.Schema;
  /** The snapshot at `to`. */
  snapshot: Snapshot;
  /** The files the commits name for rows() to read, and their bytes (an export's progress; reads every commit). */
  toRead(): Promise<{ files: number; bytes: number }>;
  rows(signal?: AbortSignal, onFileRead?: (bytes: number) => void): AsyncGenerator<arrow.RecordBatch>;
}

export async function changeFeed(table: DeltaTable, from: number, to: number): Promise<ChangeFeed> {
  if (from > to) throw new DeltaportError('VALIDATION', `--from ${from} is after --to ${to}`);
  const snapshot = await table.snapshot({ version: to });
  const earliest = (await table.versionRange()).earliest;
  if (from < earliest)
    throw new DeltaportError('VERSION_NOT_FOUND', `version ${from} is no longer in the log; the earliest readable is ${earliest}`);
  if (!recordsFeed(snapshot.metadata)) {
    throw new DeltaportError('VALIDATION', 'the table does not record a change data feed (delta.enableChangeDataFeed is not true)');
  }
  // Commits before the feed was turned on have no change files: their rows would pass for a feed they are not.
  if (from < to && !recordsFeed((await table.snapshot({ version: from })).metadata)) {
    const start = await feedStart(table, from, to);
    throw new DeltaportError(
      'VALIDATION',
      `the change data feed starts at version ${start} (delta.enableChangeDataFeed was turned on then): start the range at ${start} or later`,
    );
  }
  // Change files name their columns as data files do; under column mapping _change_type keeps its own name.
  const changeType: StructField = { ...CHANGE_TYPE, metadata: { 'delta.columnMapping.physicalName': '_change_type' } };
  return {
    fields: [...snapshot.schema.fields, CHANGE_TYPE, COMMIT_VERSION, COMMIT_TIMESTAMP],
    schema: new arrow.Schema([...snapshot.schema.fields.map(toArrowField), toArrowField(CHANGE_TYPE), VERSION_FIELD, TIMESTAMP_FIELD]),
    snapshot,
    async toRead() {
      let files = 0;
      let bytes = 0;
      for (let version = from; version <= to; version++) {
        const reads = commitReads(await table.commit(version));
        files += readCount(reads);
        bytes += readBytes(reads);
      }
      return { files, bytes };
    },
    async *rows(signal?: AbortSignal, onFileRead?: (bytes: number) => void) {
      for (let version = from; version <= to; version++) {
        const actions = await table.commit(version);
        const micros = BigInt(await table.commitTime(version)) * 1000n;
        const stamp = (changeType?: string): ConstantColumn[] => [
          ...(changeType ? [{ field: toArrowField(CHANGE_TYPE), value: changeType }] : []),
          { field: VERSION_FIELD, value: BigInt(version) },
          { field: TIMESTAMP_FIELD, value: micros },
        ];
        const reads = commitReads(actions);
        for (const change of reads.cdc) {
          yield* fileRows(snapshot, liveFile(snapshot, addOf(change)), stamp(), {
            extraFields: [changeType],
            engine: table.engine,
            signal,
            onFileRead,
          });
        }
        yield* dataFileChanges(table.engine, snapshot, reads, stamp, signal, onFileRead);
      }
    },
  };
}

/** Whether the table records a change data feed as of this metadata. */
export function recordsFeed(metadata: Metadata): boolean {
  return recordsChangeFeed(metadata.configuration);
}

/** The first version after `from` from which on, up to `to`, the feed is on (`to` has it, `from` does not). */
async function feedStart(table: DeltaTable, from: number, to: number): Promise<number> {
  let start = to;
  let on = false;
  for (let version = from + 1; version <= to; version++) {
    const metaData = (await table.commit(version)).find((a) => a.metaData)?.metaData;
    if (!metaData) continue;
    const now = recordsFeed(metaData);
    if (now && !on) start = version;
    on = now;
  }
  return start;
}

/** The files the feed reads of one commit: its change files if it has any, else the data files it removes (whole, or
 * for a file re-added with a larger deletion vector only the rows it newly deletes) and adds, with dataChange. */
export interface CommitReads {
  cdc: CdcAction[];
  removes: { remove: RemoveFile; readded: AddFile | undefined }[];
  adds: AddFile[];
}

export function commitReads(actions: Action[]): CommitReads {
  const cdc = actions.filter((a) => a.cdc).map((a) => a.cdc as CdcAction);
  if (cdc.length > 0) return { cdc, removes: [], adds: [] };
  const adds = actions.filter((a) => a.add?.dataChange).map((a) => a.add!);
  const removes = actions.filter((a) => a.remove?.dataChange).map((a) => a.remove!);
  const readded = new Map(adds.map((a) => [a.path, a]));
  const removedPaths = new Set(removes.map((r) => r.path));
  return {
    cdc,
    removes: removes.map((remove) => ({ remove, readded: readded.get(remove.path) })),
    adds: adds.filter((a) => !removedPaths.has(a.path)),
  };
}

/** How many files `reads` names. */
export function readCount(reads: CommitReads): number {
  return reads.cdc.length + reads.removes.length + reads.adds.length;
}

/** The bytes of the files `reads` names. */
export function readBytes(reads: CommitReads): number {
  const sizes = [...reads.cdc, ...reads.removes.map((r) => r.remove), ...reads.adds].map((f) => f.size ?? 0);
  return sizes.reduce((sum, size) => sum + size, 0);
}

async function* dataFileChanges(
  engine: EngineContext,
  snapshot: Snapshot,
  reads: CommitReads,
  stamp: (changeType: string) => ConstantColumn[],
  signal: AbortSignal | undefined,
  onFileRead: ((bytes: number) => void) | undefined,
): AsyncGenerator<arrow.RecordBatch> {
  for (const { remove, readded } of reads.removes) {
    const old = liveFile(snapshot, { ...addOf(remove), deletionVector: remove.deletionVector ?? null });
    if (!readded) {
      yield* fileRows(snapshot, old, stamp('delete'), { engine, signal, onFileRead });
      continue;
    }
    // The same file with a new deletion vector: its newly deleted rows are the deletes.
    const before = new Set(await deleted(engine, snapshot, old.add));
    const newly = (await deleted(engine, snapshot, readded)).filter((row) => !before.has(row));
    if (newly.length > 0) yield* fileRows(snapshot, old, stamp('delete'), { engine, onlyRows: newly, signal, onFileRead });
    else onFileRead?.(old.add.size);
  }
  for (const add of reads.adds) yield* fileRows(snapshot, liveFile(snapshot, add), stamp('insert'), { engine, signal, onFileRead });
}

function addOf(action: { path: string; partitionValues?: Record<string, string | null> | null; size?: number | null }): AddFile {
  return {
    path: action.path,
    partitionValues: action.partitionValues ?? {},
    size: action.size ?? 0,
    modificationTime: 0,
    dataChange: true,
  };
}

function liveFile(snapshot: Snapshot, add: AddFile): LiveFile {
  return { add, absolutePath: resolveDataPath(snapshot.tableRoot, add.path) };
}

function deleted(engine: EngineContext, snapshot: Snapshot, add: AddFile): Promise<Float64Array> {
  return add.deletionVector
    ? loadDeletionVector(engine.storage(snapshot.tableRoot), snapshot.tableRoot, add.deletionVector)
    : Promise.resolve(new Float64Array(0));
}
