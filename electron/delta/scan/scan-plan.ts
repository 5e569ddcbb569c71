// A scan's plan, made before anything is decoded, as delta-kernel-rs plans a scan's files before it reads them: for
// the table, the output columns and their Arrow schema; for each file, what to read and what to keep: the rows its
// deletion vector removes, its partition values as constant columns, the row groups the filter's statistics rule
// out, and which of its Parquet columns feed the output. Decoding (scan-decode.ts) and emitting the kept rows
// (scan-emit.ts) follow the plan and decide none of it.
import * as arrow from 'apache-arrow';
import type { StructField } from '../../../shared/delta-schema.js';
import type { Expr } from '../../../shared/expression/index.js';
import { constantData } from '../engine/arrow-data.js';
import { ColumnScratch } from '../engine/arrow-ffi.js';
import { canConcat } from '../engine/concat-batches.js';
import type { EngineContext } from '../engine/engine-context.js';
import { selectFields, toArrowField, toArrowType } from './arrow-types.js';
import { columnMappingMode, findFileField, physicalName, type ColumnMappingMode } from '../column-mapping.js';
import { loadDeletionVector } from './deletion-vectors.js';
import { skippedRowGroups } from '../filter/row-group-skipping.js';
import { NO_DELETIONS } from './kept-rows.js';
import { openParquet, type ParquetHandle } from '../engine/parquet-file.js';
import { parsePartitionValue } from './partition-values.js';
import { checkCancelled, refusingOnceCancelled, type ScanOptions } from './scan-types.js';
import type { LiveFile, Snapshot } from '../snapshot.js';

/** What every file of the scan shares. */
export interface ScanPlan {
  /** The output columns, in output order. */
  fields: StructField[];
  schema: arrow.Schema;
  structType: arrow.Struct;
  partitions: Set<string>;
  mode: ColumnMappingMode;
  /** Rows per emitted batch at most. */
  batchSize: number;
  signal?: AbortSignal;
  rowGroupFilter?: Expr;
  /** The scan's engine: once the scan is cancelled, its stores refuse every call. */
  engine: EngineContext;
  /** With ScanOptions.reuseBuffers, and flat columns (canConcat, so that the consumer can copy a batch it keeps), the
   * buffers each decoded piece is copied into out of WebAssembly, the next piece's over them (arrow-ffi.ts); else
   * none, and each piece has new ones. */
  scratch: ColumnScratch | undefined;
}

export function planScan(snapshot: Snapshot, options: ScanOptions, batchSize: number): ScanPlan {
  const fields = selectFields(snapshot, options.columns);
  const schema = new arrow.Schema(fields.map(toArrowField));
  return {
    fields,
    schema,
    structType: new arrow.Struct(schema.fields),
    partitions: new Set(snapshot.partitionColumns),
    mode: columnMappingMode(snapshot.metadata),
    batchSize,
    signal: options.signal,
    rowGroupFilter: options.rowGroupFilter,
    engine: refusingOnceCancelled(options.engine, options.signal),
    scratch: options.reuseBuffers && canConcat(schema) ? new ColumnScratch() : undefined,
  };
}

/** One data file's part of the plan, with the file open: whoever plans it closes `handle`. */
export interface FilePlan {
  fileIndex: number;
  file: LiveFile;
  handle: ParquetHandle;
  /** Physical indexes of the deleted rows, sorted. */
  deleted: Float64Array;
  /** Per output column, the file's partition value repeated batchSize times (sliced per batch), else undefined. */
  constants: (arrow.Data | undefined)[];
  /** Per output column, the file's column it is read from; undefined for partition columns and for columns the file
   * lacks (written before they were added: they read as nulls). */
  sources: (arrow.Field | undefined)[];
  /** The file's columns to decode, each once. */
  columns: string[];
  /** Row groups the filter rules out, or null without a filter. */
  skippedGroups: Set<number> | null;
}

export async function planFile(snapshot: Snapshot, plan: ScanPlan, fileIndex: number): Promise<FilePlan> {
  const file = snapshot.files[fileIndex];
  const deleted = file.add.deletionVector
    ? await loadDeletionVector(plan.engine.storage(snapshot.tableRoot), snapshot.tableRoot, file.add.deletionVector)
    : NO_DELETIONS;
  const constants = partitionConstants(plan, file);
  const storage = plan.engine.storage(file.absolutePath);
  checkCancelled(plan.signal);
  const handle = await openParquet(storage, file.absolutePath, 'data file', { size: file.add.size });
  try {
    checkCancelled(plan.signal);
    const skippedGroups = plan.rowGroupFilter
      ? skippedRowGroups(await handle.footer(), file, plan.rowGroupFilter, {
          fields: snapshot.schema.fields,
          partitionColumns: plan.partitions,
          mode: plan.mode,
        })
      : null;
    const sources = plan.fields.map((f) => (plan.partitions.has(f.name) ? undefined : findFileField(handle.schema.fields, f, plan.mode)));
    const columns = [...new Set(sources.filter((s) => s !== undefined).map((s) => s.name))];
    return { fileIndex, file, handle, deleted, constants, sources, columns, skippedGroups };
  } catch (err) {
    handle.close();
    throw err;
  }
}

function partitionConstants(plan: ScanPlan, file: LiveFile): (arrow.Data | undefined)[] {
  return plan.fields.map((f) => {
    if (!plan.partitions.has(f.name)) return undefined;
    const raw = file.add.partitionValues[physicalName(f, plan.mode)];
    return constantData(toArrowType(f.type), parsePartitionValue(raw, f.type, f.name), plan.batchSize);
  });
}

/** A row group's rows [from, to) still to come, in physical row numbers; `skipped` when the filter rules it out. */
export interface GroupRows {
  group: number;
  /** The group's first row. */
  start: number;
  from: number;
  to: number;
  skipped: boolean;
}

/** The file's row groups from physical row `from` on (a resumed scan starts inside the file). */
export function* groupsFrom(plan: FilePlan, from: number): Generator<GroupRows> {
  let groupStart = 0;
  for (const [group, rows] of plan.handle.rowGroupRows.entries()) {
    const groupEnd = groupStart + rows;
    if (groupEnd > from) {
      yield { group, start: groupStart, from: Math.max(from, groupStart), to: groupEnd, skipped: plan.skippedGroups?.has(group) ?? false };
    }
    groupStart = groupEnd;
  }
}
