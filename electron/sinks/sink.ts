// Every sink (SQLite, PostgreSQL, Parquet, CSV, JSON Lines) takes the scan's Arrow batches through this interface;
// electron/export/run-export.ts drives it.
import type { Schema } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import type { ScanBatch, ScanPosition } from '../delta/scan/scan-types.js';
import type { OwnFiles } from '../duckdb/own-files.js';

export interface SinkOpenContext {
  /** Delta fields of the exported columns, in batch column order: the source of truth for target types. */
  fields: StructField[];
  /** The Arrow schema of every batch that will follow. */
  schema: Schema;
  /** The snapshot being exported; an exactly-once job key is made of these, the columns and the target. */
  snapshot: { tableId: string; tableRoot: string; version: number };
  signal: AbortSignal;
  /** The snapshot's own data files, where the row source offers them (export/row-source.ts): a sink that reads them
   * itself asks for them as it opens. */
  ownFiles?: () => Promise<OwnFiles | null>;
}

/** How far an export has come: rows written since the last step, and the source's files and bytes done. */
export interface WrittenRows {
  rows: number;
  filesDone: number;
  bytesDone: number;
}

export interface BatchSink {
  /** Prepares the target. Returns where an exactly-once job resumes, or null to start from the first row. */
  open(ctx: SinkOpenContext): Promise<ScanPosition | null>;
  /** Takes one batch. A SQL sink queues its rows into transactions (each committed with its position, when
   * exactly-once) and resolves once few enough are uncommitted; a failure of a queued transaction rejects a later
   * write or close, and abort rolls back whatever is queued or in flight. */
  write(batch: ScanBatch): Promise<void>;
  /** Whether the sink keeps views of a batch's buffers only as far as ScanOptions.reuseBuffers allows: once the write
   * of a batch marked ScanBatch.lastInBuffers resolves, it has copied whatever rows it still holds. The export then
   * lets the scan decode each piece into the buffers of the piece before. Absent or false where a sink may keep a
   * batch, until a commit say. */
  readonly takesReusedBuffers?: boolean;
  /** Completes the export (the queued transactions, final commit, rename into place). */
  close(): Promise<void>;
  /** Undoes what is not committed and removes partial output; safe to call after any failure. */
  abort(): Promise<void>;
  /** A SQL sink's count of what landed: rows this run committed, and rows an earlier run of the same exactly-once
   * job had committed before this one went on from there. */
  counts?(): { committed: number; before: number };
  /** Where the sink took the offered files when it opened (SinkOpenContext.ownFiles): writes them, a step per
   * transaction, and takes no batches. Null where it takes the batches. */
  readsOwnFiles?(): AsyncIterable<WrittenRows> | null;
}
