// Reading a checkpoint (PROTOCOL.md "Checkpoints"): classic single-file, multi-part, and V2 (JSON or Parquet top
// level, whose add actions may live in _delta_log/_sidecars). Only the columns a snapshot needs are decoded;
// file statistics are read separately, on demand, by recordCounts().
import { joinLocation, parentLocation, type Storage } from '../../storage/storage.js';
import type { Action, AddFile, DeletionVectorDescriptor, Metadata, Protocol } from './actions.js';
import { CheckpointParquet, type RowReader } from '../engine/checkpoint-parquet.js';
import { readJsonActions } from './commit-file.js';
import type { CheckpointRef } from './log-listing.js';
import { resolveDataPath } from './log-paths.js';

export interface CheckpointState {
  version: number;
  protocol: Protocol | null;
  metadata: Metadata | null;
  /** Live files as of the checkpoint. Adds read from Parquet carry no stats (see recordCounts). */
  adds: AddFile[];
  /** Parquet files (parts or sidecars) whose add actions were read without their stats. */
  parquetAddSources: string[];
}

const ADD_FIELDS = ['path', 'partitionValues', 'size', 'modificationTime', 'deletionVector'] as const;
const NON_FILE_ACTIONS = ['protocol', 'metaData', 'sidecar'] as const;
/** The partition values of every add of an unpartitioned table: one object, not one per file. */
const NO_PARTITION_VALUES: AddFile['partitionValues'] = Object.freeze({});

export async function readCheckpoint(storage: Storage, ref: CheckpointRef): Promise<CheckpointState> {
  const state: CheckpointState = { version: ref.version, protocol: null, metadata: null, adds: [], parquetAddSources: [] };
  const sidecars: string[] = [];
  const take = ({ adds, others }: PartActions): void => {
    // A classic checkpoint's one part: its list as it is, not copied file by file.
    if (state.adds.length === 0) state.adds = adds;
    else for (const add of adds) state.adds.push(add);
    for (const action of others) {
      if (action.protocol) state.protocol = action.protocol;
      if (action.metaData) state.metadata = action.metaData;
      if (action.sidecar) sidecars.push(action.sidecar.path);
    }
  };
  (await readAll(ref.files, (file) => fileActions(storage, file, true))).forEach(take);
  state.parquetAddSources.push(...ref.files.filter((file) => !file.endsWith('.json')));
  // Sidecar paths are relative to _delta_log/_sidecars (PROTOCOL.md "Sidecar File Information").
  const sidecarDir = joinLocation(parentLocation(ref.files[0]), '_sidecars');
  const sidecarFiles = sidecars.map((sidecar) => resolveDataPath(sidecarDir, sidecar));
  (await readAll(sidecarFiles, (file) => fileActions(storage, file, false))).forEach(take);
  state.parquetAddSources.push(...sidecarFiles);
  return state;
}

/** A part's or sidecar's add actions, apart from the rest: in a long log's checkpoint they are nearly all of it. */
interface PartActions {
  adds: AddFile[];
  others: Action[];
}

/** The actions of one part or sidecar (JSON or Parquet); `withNonFileActions`: protocol, metaData, sidecar too. */
async function fileActions(storage: Storage, file: string, withNonFileActions: boolean): Promise<PartActions> {
  const part: PartActions = { adds: [], others: [] };
  if (file.endsWith('.json')) {
    for (const action of await readJsonActions(storage, file)) {
      if (action.add) part.adds.push(action.add);
      else part.others.push(action);
    }
  } else {
    await readParquetActions(storage, file, withNonFileActions, part);
  }
  return part;
}

/** Parts and sidecars read at once: in an object store each costs round trips (stat, footer, chunks). */
const PART_CONCURRENCY = 8;

/** Each file's actions, in file order, read at most PART_CONCURRENCY at a time. */
async function readAll(files: string[], read: (file: string) => Promise<PartActions>): Promise<PartActions[]> {
  const out: PartActions[] = new Array<PartActions>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      out[i] = await read(files[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PART_CONCURRENCY, files.length) }, worker));
  return out;
}

/** Only the checkpoint's metaData action: what time travel needs of the latest version, without its file list. */
export async function readCheckpointMetadata(storage: Storage, ref: CheckpointRef): Promise<Metadata | null> {
  let metadata: Metadata | null = null;
  const take = (action: Action): void => {
    if (action.metaData) metadata = action.metaData;
  };
  for (const file of ref.files) {
    if (file.endsWith('.json')) {
      (await readJsonActions(storage, file)).forEach(take);
      continue;
    }
    const checkpoint = await CheckpointParquet.open(storage, file);
    if (!checkpoint.fields(['metaData'])) continue;
    await checkpoint.read([['metaData']]);
    takeNonFileActions(checkpoint, take, ['metaData']);
  }
  return metadata;
}

/**
 * numRecords per add.path from the stats of the adds a checkpoint holds in Parquet: from the JSON `stats` column, or
 * from `stats_parsed` when the writer stored statistics as a struct only. null where a file has no statistics.
 */
export async function recordCounts(storage: Storage, state: CheckpointState): Promise<Map<string, number | null>> {
  const counts = new Map<string, number | null>();
  for (const file of state.parquetAddSources) {
    const checkpoint = await CheckpointParquet.open(storage, file);
    const addFields = checkpoint.fields(['add']);
    if (!addFields) continue;
    const columns = [['add', 'path']];
    if (addFields.includes('stats')) columns.push(['add', 'stats']);
    if (checkpoint.fields(['add', 'stats_parsed'])?.includes('numRecords')) columns.push(['add', 'stats_parsed', 'numRecords']);
    await checkpoint.read(columns);
    const isAdd = checkpoint.presence(['add']);
    const paths = checkpoint.scalar<string>(['add', 'path']);
    const stats = checkpoint.scalar<string>(['add', 'stats']);
    const parsedCount = checkpoint.scalar<number>(['add', 'stats_parsed', 'numRecords']);
    if (!isAdd || !paths) continue;
    for (let i = 0; i < checkpoint.numRows; i++) {
      const p = paths(i);
      if (p !== null && isAdd(i)) counts.set(p, parsedCount?.(i) ?? numRecordsOf(stats?.(i)));
    }
  }
  return counts;
}

// Writers (Spark, delta-rs, the kernels) put numRecords first in a file's stats: a count read off the front spares a
// parse of the whole object, the bulk of describing a table of 10,000 files.
const LEADING_COUNT = /^\{"numRecords":(0|[1-9]\d{0,14})[,}]/;

/** numRecords from an add's JSON stats string; null when absent or unreadable. */
export function numRecordsOf(stats: string | null | undefined): number | null {
  if (!stats) return null;
  const leading = LEADING_COUNT.exec(stats);
  // A second numRecords key (JSON.parse keeps the last), a column of that name or a cut-off string makes it a parse
  // after all.
  if (leading && stats.endsWith('}') && !stats.includes('"numRecords"', leading[0].length)) return Number(leading[1]);
  try {
    const n = (JSON.parse(stats) as { numRecords?: unknown }).numRecords;
    return typeof n === 'number' ? n : null;
  } catch {
    return null;
  }
}

async function readParquetActions(storage: Storage, file: string, withNonFileActions: boolean, part: PartActions): Promise<void> {
  const checkpoint = await CheckpointParquet.open(storage, file);
  const addFields = checkpoint.fields(['add']) ?? [];
  const nonFile = withNonFileActions ? NON_FILE_ACTIONS.filter((name) => checkpoint.fields([name]) && !checkpoint.allNull([name])) : [];
  // A field null (or empty) in every row is left unread: it reads as absent, as it is.
  const addPaths = ADD_FIELDS.filter((f) => addFields.includes(f))
    .map((f) => ['add', f])
    .filter((path) => path[1] === 'path' || !checkpoint.allNull(path));
  await checkpoint.read([...addPaths, ...nonFile.map((name) => [name])]);
  takeAdds(checkpoint, part.adds);
  takeNonFileActions(checkpoint, (action) => part.others.push(action), nonFile);
}

function takeAdds(checkpoint: CheckpointParquet, adds: AddFile[]): void {
  // Rows of other actions (protocol, metaData, txn) have a null add; delta-rs writes add.path as required, so the
  // add's own presence is what tells.
  const isAdd = checkpoint.presence(['add']);
  const path = checkpoint.scalar<string>(['add', 'path']);
  if (!isAdd || !path) return;
  const partitionValues = checkpoint.map(['add', 'partitionValues']);
  const size = checkpoint.scalar<number>(['add', 'size']);
  const modificationTime = checkpoint.scalar<number>(['add', 'modificationTime']);
  const deletionVector = deletionVectorReader(checkpoint);
  for (let i = 0; i < checkpoint.numRows; i++) {
    const p = path(i);
    if (p === null || !isAdd(i)) continue;
    adds.push({
      path: p,
      partitionValues: (partitionValues?.(i) ?? NO_PARTITION_VALUES) as AddFile['partitionValues'],
      size: size?.(i) ?? 0,
      modificationTime: modificationTime?.(i) ?? 0,
      // A checkpoint describes state, not change.
      dataChange: false,
      deletionVector: deletionVector(i),
    });
  }
}

function deletionVectorReader(checkpoint: CheckpointParquet): RowReader<DeletionVectorDescriptor> {
  const present = checkpoint.presence(['add', 'deletionVector']);
  if (!present) return () => null;
  const field = <T>(name: string): RowReader<T> => checkpoint.scalar<T>(['add', 'deletionVector', name]) ?? (() => null);
  const storageType = field<DeletionVectorDescriptor['storageType']>('storageType');
  const pathOrInlineDv = field<string>('pathOrInlineDv');
  const offset = field<number>('offset');
  const sizeInBytes = field<number>('sizeInBytes');
  const cardinality = field<number>('cardinality');
  return (row) =>
    present(row)
      ? {
          storageType: storageType(row)!,
          pathOrInlineDv: pathOrInlineDv(row) ?? '',
          offset: offset(row),
          sizeInBytes: sizeInBytes(row) ?? 0,
          cardinality: cardinality(row) ?? 0,
        }
      : null;
}

// protocol, metaData and sidecar rows are few: each is put together whole, as it reads in a JSON commit.
function takeNonFileActions(checkpoint: CheckpointParquet, take: (action: Action) => void, names: readonly string[]): void {
  for (const name of names) {
    const present = checkpoint.presence([name]);
    const read = checkpoint.plain([name]);
    if (!present || !read) continue;
    for (let i = 0; i < checkpoint.numRows; i++) if (present(i)) take({ [name]: read(i) } as Action);
  }
}
