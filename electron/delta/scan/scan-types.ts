// What a scan yields. A position (file ordinal, rows emitted from it) identifies how far a consumer has come, so an
// exactly-once export can resume after its last committed batch.
import type { RecordBatch } from 'apache-arrow';
import { cancelledError } from '../../../shared/errors.js';
import type { Expr } from '../../../shared/expression/index.js';
import { withRangeReads } from '../../storage/ranged-file.js';
import type { EngineContext } from '../engine/engine-context.js';

export interface ScanPosition {
  /** Index into Snapshot.files. */
  fileIndex: number;
  /** Rows already emitted from that file (after deletion vectors are applied). */
  rowsInFile: number;
}

export interface ScanBatch {
  /** Columns in the requested order, with logical names and the canonical Arrow types of arrow-types.ts. */
  batch: RecordBatch;
  /** Position after this batch: resuming from it continues with the next row. */
  end: ScanPosition;
  /** Bytes of data files read so far, the current file's in proportion to its rows read; for progress only. */
  bytesDone: number;
  /** Files fully read so far. */
  filesDone: number;
  /** With ScanOptions.reuseBuffers: the last batch of a decoded piece, whose rows (and those of the piece's batches
   * before it) the scan decodes the next piece over once the batch after it is asked for. */
  lastInBuffers?: boolean;
}

export interface ScanOptions {
  /** Logical column names in output order; absent = all columns in schema order. */
  columns?: string[];
  /** Rows per emitted batch (the source's parquetBatchSize); default 2048. */
  batchSize?: number;
  /** Stop after this many rows (previews). */
  limit?: number;
  signal?: AbortSignal;
  resumeFrom?: ScanPosition;
  /** Row groups whose Parquet statistics rule this filter out are not decoded; their rows count as emitted in
   * positions, so the rows are still to be filtered by the consumer (filter/filtered-scan.ts). */
  rowGroupFilter?: Expr;
  /** Where the files are read from (engine/engine-context.ts): the table's own engine, as a rule. */
  engine: EngineContext;
  /** The consumer keeps no view of a batch's buffers once it asks for the batch after one marked lastInBuffers, and
   * copies any rows it holds longer (the scan thread, which serializes each batch for transfer at once; an export into
   * a sink that says so, BatchSink.takesReusedBuffers): the decoded rows are then copied out of WebAssembly into the
   * same buffers for every piece (ScanPlan.scratch) instead of new ones. */
  reuseBuffers?: boolean;
}

/** A scan's cancel: scan() and parallelScan() throw the same, so a consumer cannot tell which it is reading. */
export function checkCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError('scan');
}

/** The scan's engine, whose stores refuse every call once the scan is cancelled: a read under way ends on its own
 * time, but nothing after it reaches the store (a decoder given up on mid-footer would go on asking for its next bytes,
 * a read-ahead would start its next fetch). */
export function refusingOnceCancelled(engine: EngineContext, signal: AbortSignal | undefined): EngineContext {
  if (!signal) return engine;
  const unlessAborted = <T>(call: () => Promise<T>): Promise<T> => (signal.aborted ? Promise.reject(cancelledError('scan')) : call());
  return {
    storage: (location) => {
      const store = engine.storage(location);
      const reader = withRangeReads(store, (...range) => unlessAborted(() => store.readRange(...range)));
      return { ...reader, read: (l) => unlessAborted(() => store.read(l)), stat: (l) => unlessAborted(() => store.stat(l)) };
    },
    settings: () => engine.settings(),
  };
}

/** The work's value, or the scan's cancel as soon as the signal aborts, whichever comes first: a read a stalled store
 * holds up does not hold up the cancel (the read ends on its own time, and what it read is dropped). */
export function unlessCancelled<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError('scan'));
    signal.addEventListener('abort', onAbort, { once: true });
    // The work's own end is always heard, even after a cancel: a failure nobody awaits would end the thread.
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
  });
}
