// Reading a checkpoint (PROTOCOL.md "Checkpoints"): classic single-file, multi-part, and V2 (JSON or Parquet top
// level, whose add actions may live in _delta_log/_sidecars). Only the columns a snapshot needs are decoded;
// file statistics are read separately, on demand, by recordCounts().
import path from 'node:path';
import type { Table } from 'apache-arrow';
import { DeltaportError } from '../../shared/errors.js';
import type { Action, AddFile, DeletionVectorDescriptor, Metadata, Protocol } from './actions.js';
import { toPlain } from './arrow-plain.js';
import { readJsonActions } from './commit-file.js';
import { CorruptLogError, MissingFileError } from './errors.js';
import type { CheckpointRef } from './log-listing.js';
import { openParquet, type ParquetHandle } from './parquet-file.js';
import { resolveDataPath } from './storage.js';

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
  for (const file of ref.files) {
    if (file.endsWith('.json')) {
      (await readJsonActions(file)).forEach(take);
    } else {
      await readParquetActions(file, true, take);
      state.parquetAddSources.push(file);
    }
  }
  // Sidecar paths are relative to _delta_log/_sidecars (PROTOCOL.md "Sidecar File Information").
  const sidecarDir = path.join(path.dirname(ref.files[0]), '_sidecars');
  for (const sidecar of sidecars) {
    const file = resolveDataPath(sidecarDir, sidecar);
    await readParquetActions(file, false, take);
    state.parquetAddSources.push(file);
  }
  return state;
}

/**
 * numRecords per add.path from the stats of the adds a checkpoint holds in Parquet: from the JSON `stats` column, or
 * from `stats_parsed` when the writer stored statistics as a struct only. null where a file has no statistics.
 */
export async function recordCounts(state: CheckpointState): Promise<Map<string, number | null>> {
  const counts = new Map<string, number | null>();
  for (const file of state.parquetAddSources) {
    await withParquet(file, async (handle) => {
      const addFields = structFieldNames(await handle.read({ limit: 0 }), 'add');
      if (!addFields) return;
      const has = (name: string): boolean => addFields.includes(name);
      const columns = ['add.path'];
      if (has('stats')) columns.push('add.stats');
      if (has('stats_parsed')) columns.push('add.stats_parsed.numRecords');
      const add = (await handle.read({ columns })).getChild('add');
      const paths = add?.getChild('path');
      if (!add || !paths) return;
      const stats = add.getChild('stats');
      const parsed = add.getChild('stats_parsed')?.getChild('numRecords');
      for (let i = 0; i < paths.length; i++) {
        const p = paths.get(i) as string | null;
        if (p === null) continue;
        const fromParsed = parsed?.get(i) as bigint | number | null | undefined;
        counts.set(p, fromParsed !== null && fromParsed !== undefined ? Number(fromParsed) : numRecordsOf(stats?.get(i) as string | null));
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
    const layout = await handle.read({ limit: 0 });
    const addFields = structFieldNames(layout, 'add') ?? [];
    const columns = ADD_FIELDS.filter((f) => addFields.includes(f)).map((f) => `add.${f}`);
    if (withNonFileActions) {
      columns.push(...NON_FILE_ACTIONS.filter((name) => layout.schema.fields.some((f) => f.name === name)));
    }
    if (columns.length === 0) return;
    const table = await handle.read({ columns });
    takeAdds(table, take);
    if (withNonFileActions) takeNonFileActions(table, take);
  });
}

// Column-wise: a checkpoint can hold hundreds of thousands of adds, and per-row struct proxies are slow.
function takeAdds(table: Table, take: (action: Action) => void): void {
  const add = table.getChild('add');
  const paths = add?.getChild('path');
  if (!add || !paths) return;
  const partitionValues = add.getChild('partitionValues');
  const size = add.getChild('size');
  const modificationTime = add.getChild('modificationTime');
  const deletionVector = add.getChild('deletionVector');
  for (let i = 0; i < paths.length; i++) {
    const p = paths.get(i) as string | null;
    if (p === null) continue;
    take({
      add: {
        path: p,
        partitionValues: (toPlain(partitionValues?.get(i)) ?? {}) as Record<string, string | null>,
        size: Number(size?.get(i) ?? 0),
        modificationTime: Number(modificationTime?.get(i) ?? 0),
        // A checkpoint describes state, not change.
        dataChange: false,
        deletionVector: toPlain(deletionVector?.get(i)) as DeletionVectorDescriptor | null,
      },
    });
  }
}

function takeNonFileActions(table: Table, take: (action: Action) => void): void {
  for (const name of NON_FILE_ACTIONS) {
    const column = table.getChild(name);
    if (!column || column.nullCount === column.length) continue;
    for (let i = 0; i < column.length; i++) {
      if (!column.isValid(i)) continue;
      take({ [name]: toPlain(column.get(i)) } as Action);
    }
  }
}

/** The child names of a top-level struct column, or null when the file has no such column. */
function structFieldNames(layout: Table, name: string): string[] | null {
  const field = layout.schema.fields.find((f) => f.name === name);
  return field ? (field.type.children ?? []).map((child) => child.name) : null;
}

async function withParquet(file: string, use: (handle: ParquetHandle) => Promise<void>): Promise<void> {
  let handle: ParquetHandle;
  try {
    handle = await openParquet(file);
  } catch (err) {
    throw checkpointError(file, err);
  }
  try {
    await use(handle);
  } catch (err) {
    throw checkpointError(file, err);
  } finally {
    handle.close();
  }
}

function checkpointError(file: string, err: unknown): unknown {
  if (!(err instanceof DeltaportError)) return err;
  if (err.code === 'MISSING_FILE') return new MissingFileError(`checkpoint file is missing: ${file}`);
  if (err.code === 'CORRUPT_DATA') return new CorruptLogError(`unreadable checkpoint: ${err.message}`);
  return err;
}
