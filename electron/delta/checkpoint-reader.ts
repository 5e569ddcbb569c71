// Reading a checkpoint (PROTOCOL.md "Checkpoints"): classic single-file, multi-part, and V2 (JSON or Parquet top
// level, whose add actions may live in _delta_log/_sidecars). Only the columns a snapshot needs are decoded;
// file statistics are read separately, on demand, by recordCounts().
import { joinLocation, parentLocation } from '../storage/storage.js';
import type { Data, Field, RecordBatch, Schema, Table } from 'apache-arrow';
import { DeltaportError } from '../../shared/errors.js';
import type { Action, AddFile, DeletionVectorDescriptor, Metadata, Protocol } from './actions.js';
import { childReaders, numberReader, stringMapReader, structChild, utf8Reader, validity, type ColumnReader } from './arrow-columns.js';
import { toPlain } from './arrow-plain.js';
import { readJsonActions } from './commit-file.js';
import { corruptLog, missingFile } from './errors.js';
import type { CheckpointRef } from './log-listing.js';
import { openParquet, type ParquetHandle } from './parquet-file.js';
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

export async function readCheckpoint(ref: CheckpointRef): Promise<CheckpointState> {
  const state: CheckpointState = { version: ref.version, protocol: null, metadata: null, adds: [], parquetAddSources: [] };
  const sidecars: string[] = [];
  const take = (action: Action): void => {
    if (action.protocol) state.protocol = action.protocol;
    if (action.metaData) state.metadata = action.metaData;
    if (action.add) state.adds.push(action.add);
    if (action.sidecar) sidecars.push(action.sidecar.path);
  };
  for (const actions of await readAll(ref.files, (file) => fileActions(file, true))) actions.forEach(take);
  state.parquetAddSources.push(...ref.files.filter((file) => !file.endsWith('.json')));
  // Sidecar paths are relative to _delta_log/_sidecars (PROTOCOL.md "Sidecar File Information").
  const sidecarDir = joinLocation(parentLocation(ref.files[0]), '_sidecars');
  const sidecarFiles = sidecars.map((sidecar) => resolveDataPath(sidecarDir, sidecar));
  for (const actions of await readAll(sidecarFiles, (file) => fileActions(file, false))) actions.forEach(take);
  state.parquetAddSources.push(...sidecarFiles);
  return state;
}

/** The actions of one part or sidecar (JSON or Parquet); `withNonFileActions`: protocol, metaData, sidecar too. */
async function fileActions(file: string, withNonFileActions: boolean): Promise<Action[]> {
  if (file.endsWith('.json')) return readJsonActions(file);
  const actions: Action[] = [];
  await readParquetActions(file, withNonFileActions, (action) => actions.push(action));
  return actions;
}

/** Parts and sidecars read at once: in an object store each costs round trips (stat, footer, chunks). */
const PART_CONCURRENCY = 8;

/** Each file's actions, in file order, read at most PART_CONCURRENCY at a time. */
async function readAll(files: string[], read: (file: string) => Promise<Action[]>): Promise<Action[][]> {
  const out: Action[][] = new Array<Action[]>(files.length);
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
export async function readCheckpointMetadata(ref: CheckpointRef): Promise<Metadata | null> {
  let metadata: Metadata | null = null;
  const take = (action: Action): void => {
    if (action.metaData) metadata = action.metaData;
  };
  for (const file of ref.files) {
    if (file.endsWith('.json')) {
      (await readJsonActions(file)).forEach(take);
      continue;
    }
    await withParquet(file, async (handle) => {
      if (structFieldNames(handle.schema, ['metaData'])) {
        takeNonFileActions(await handle.read({ columns: ['metaData'] }), take, ['metaData']);
      }
    });
  }
  return metadata;
}

/**
 * numRecords per add.path from the stats of the adds a checkpoint holds in Parquet: from the JSON `stats` column, or
 * from `stats_parsed` when the writer stored statistics as a struct only. null where a file has no statistics.
 */
export async function recordCounts(state: CheckpointState): Promise<Map<string, number | null>> {
  const counts = new Map<string, number | null>();
  for (const file of state.parquetAddSources) {
    await withParquet(file, async (handle) => {
      const addFields = structFieldNames(handle.schema, ['add']);
      if (!addFields) return;
      const columns = ['add.path'];
      if (addFields.includes('stats')) columns.push('add.stats');
      if (structFieldNames(handle.schema, ['add', 'stats_parsed'])?.includes('numRecords')) columns.push('add.stats_parsed.numRecords');
      for (const batch of (await handle.read({ columns })).batches) {
        const add = topLevel(batch, 'add');
        if (!add) continue;
        const paths = utf8Reader(structChild(add, 'path'));
        const stats = utf8Reader(structChild(add, 'stats'));
        const parsed = structChild(add, 'stats_parsed');
        const parsedCount = numberReader(parsed && structChild(parsed, 'numRecords'));
        const isAdd = validity(add);
        for (let i = 0; i < batch.numRows; i++) {
          const p = paths(i);
          if (p !== null && isAdd(i)) counts.set(p, parsedCount(i) ?? numRecordsOf(stats(i)));
        }
      }
    });
  }
  return counts;
}

/** numRecords from an add's JSON stats string; null when absent or unreadable. */
export function numRecordsOf(stats: string | null | undefined): number | null {
  if (!stats) return null;
  try {
    const n = (JSON.parse(stats) as { numRecords?: unknown }).numRecords;
    return typeof n === 'number' ? n : null;
  } catch {
    return null;
  }
}

async function readParquetActions(file: string, withNonFileActions: boolean, take: (action: Action) => void): Promise<void> {
  await withParquet(file, async (handle) => {
    const addFields = structFieldNames(handle.schema, ['add']) ?? [];
    const columns = ADD_FIELDS.filter((f) => addFields.includes(f)).map((f) => `add.${f}`);
    if (withNonFileActions) {
      columns.push(...NON_FILE_ACTIONS.filter((name) => handle.schema.fields.some((f) => f.name === name)));
    }
    if (columns.length === 0) return;
    const table = await handle.read({ columns });
    takeAdds(table, take);
    if (withNonFileActions) takeNonFileActions(table, take);
  });
}

function takeAdds(table: Table, take: (action: Action) => void): void {
  for (const batch of table.batches) {
    const add = topLevel(batch, 'add');
    if (!add) continue;
    const read = childReaders(add, {
      path: utf8Reader,
      partitionValues: stringMapReader,
      size: numberReader,
      modificationTime: numberReader,
      deletionVector: deletionVectorReader,
    });
    // Rows of other actions (protocol, metaData, txn) have a null add; delta-rs writes add.path as required, so
    // under a null add it reads as '' rather than null: the struct's own validity is what tells.
    const isAdd = validity(add);
    for (let i = 0; i < batch.numRows; i++) {
      const path = read.path(i);
      if (path === null || !isAdd(i)) continue;
      take({
        add: {
          path,
          partitionValues: read.partitionValues(i) ?? {},
          size: read.size(i) ?? 0,
          modificationTime: read.modificationTime(i) ?? 0,
          // A checkpoint describes state, not change.
          dataChange: false,
          deletionVector: read.deletionVector(i),
        },
      });
    }
  }
}

function deletionVectorReader(data: Data | null): ColumnReader<DeletionVectorDescriptor> {
  if (!data) return () => null;
  const read = childReaders(data, {
    storageType: utf8Reader,
    pathOrInlineDv: utf8Reader,
    offset: numberReader,
    sizeInBytes: numberReader,
    cardinality: numberReader,
  });
  const valid = validity(data);
  return (row) =>
    valid(row)
      ? {
          storageType: read.storageType(row) as DeletionVectorDescriptor['storageType'],
          pathOrInlineDv: read.pathOrInlineDv(row) ?? '',
          offset: read.offset(row),
          sizeInBytes: read.sizeInBytes(row) ?? 0,
          cardinality: read.cardinality(row) ?? 0,
        }
      : null;
}

// protocol, metaData and sidecar rows are few: the generic (slow) conversion is fine once the row is found.
function takeNonFileActions(table: Table, take: (action: Action) => void, names: readonly string[] = NON_FILE_ACTIONS): void {
  for (const batch of table.batches) {
    for (const name of names) {
      const data = topLevel(batch, name);
      if (!data || data.nullCount === data.length) continue;
      const column = batch.getChild(name);
      const valid = validity(data);
      for (let i = 0; i < batch.numRows; i++) {
        if (valid(i)) take({ [name]: toPlain(column?.get(i)) } as Action);
      }
    }
  }
}

function topLevel(batch: RecordBatch, name: string): Data | null {
  const index = batch.schema.fields.findIndex((f) => f.name === name);
  return index < 0 ? null : batch.data.children[index];
}

/** The field names of the struct at `path` (["add"], ["add", "stats_parsed"]), or null when the file has none. */
function structFieldNames(schema: Schema, path: string[]): string[] | null {
  let fields: Field[] = schema.fields;
  for (const name of path) {
    const field = fields.find((f) => f.name === name);
    if (!field) return null;
    fields = (field.type.children ?? []) as Field[];
  }
  return fields.map((f) => f.name);
}

async function withParquet(file: string, use: (handle: ParquetHandle) => Promise<void>): Promise<void> {
  let handle: ParquetHandle;
  try {
    handle = await openParquet(file, 'checkpoint file');
  } catch (err) {
    throw checkpointError(err);
  }
  try {
    await use(handle);
  } catch (err) {
    throw checkpointError(err);
  } finally {
    handle.close();
  }
}

/** The door's errors keep their message and become log errors: a checkpoint is part of the log. */
function checkpointError(err: unknown): unknown {
  if (!(err instanceof DeltaportError)) return err;
  if (err.code === 'MISSING_FILE') return missingFile(err.message);
  if (err.code === 'CORRUPT_DATA') return corruptLog(err.message);
  return err;
}
