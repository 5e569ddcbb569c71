// Regroups the scan's batches (~2048 rows) into batches of exactly batchSize rows, the unit a SQL sink commits in
// (one or, for PostgreSQL's COPY, several per transaction). A batch records how far the stream has come as a scan
// position plus a count of rows beyond it: a batch may end inside one of the scan's batches, and the scan can only
// resume at a batch's end, so a resumed sink skips those rows itself.
import type { RecordBatch } from 'apache-arrow';
import { heldCopy } from '../delta/engine/concat-batches.js';
import type { ScanBatch, ScanPosition } from '../delta/scan/scan-types.js';

/** How far the committed rows reach: `position` (null = the start) and `rowsAfter` rows past it. */
export interface StreamProgress {
  position: ScanPosition | null;
  rowsAfter: number;
}

export interface Batch {
  chunks: RecordBatch[];
  rows: number;
  /** Progress once this batch is committed. */
  progress: StreamProgress;
}

interface Chunk {
  batch: RecordBatch;
  /** Set when this chunk is the last part of a scan batch: the scan position after it. */
  end: ScanPosition | null;
  /** Whether its rows are in buffers of their own (copied by hold), not in the scan's. */
  copied: boolean;
}

/** How many transactions of a run start smaller (see transactionBytesAt). */
const RAMP_STEPS = 3;

/** The COPY data at which a run's transaction number `index` (from 0) ends: an eighth of `transactionBytes` for the
 * first, a quarter for the second, a half for the third, all of it from then on. The server works through one
 * transaction at a time and starts on one only once it is complete, so the first one decides when the server starts
 * (on the benchmark's 2M-row table, 0.3 s sooner than with 8 MiB). */
export function transactionBytesAt(transactionBytes: number, index: number): number {
  return transactionBytes / 2 ** Math.max(0, RAMP_STEPS - index);
}

export class Batcher {
  private pending: Chunk[] = [];
  private pendingRows = 0;
  /** Progress after everything handed out so far. */
  private progress: StreamProgress;
  /** Rows at the start of the resumed stream that an earlier run already committed. */
  private skip: number;

  /** Whether the batch added last is the last in buffers the scan decodes its next rows over (ScanBatch.lastInBuffers). */
  private buffersReused = false;

  constructor(
    private readonly batchSize: number,
    resumed: StreamProgress,
  ) {
    this.progress = { ...resumed };
    this.skip = resumed.rowsAfter;
  }

  get rowsPending(): number {
    return this.pendingRows;
  }

  add(scanBatch: ScanBatch): void {
    this.buffersReused = scanBatch.lastInBuffers === true;
    let batch = scanBatch.batch;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, batch.numRows);
      this.skip -= skipped;
      batch = batch.slice(skipped);
      if (batch.numRows === 0) {
        // Wholly committed before: the progress moves to this batch's end with the rest still to skip.
        this.progress = { position: scanBatch.end, rowsAfter: this.skip };
        return;
      }
    }
    this.pending.push({ batch, end: scanBatch.end, copied: false });
    this.pendingRows += batch.numRows;
  }

  /** The next full batch, or null while fewer than batchSize rows wait. */
  takeFull(): Batch | null {
    return this.pendingRows >= this.batchSize ? this.take(this.batchSize) : null;
  }

  /** Called once the full batches are taken, before the write that added the last batch resolves: where the scan
   * decodes its next rows over that batch's buffers (ScanBatch.lastInBuffers), the rows that wait are copied out of
   * them, which would otherwise be overwritten before they are encoded. Only then: the batches of one decoded piece
   * share its buffers, and copying every remainder cost more than new buffers for each piece (docs/benchmark.md). */
  hold(): void {
    if (!this.buffersReused) return;
    for (const chunk of this.pending) {
      if (chunk.copied) continue;
      chunk.batch = heldCopy(chunk.batch);
      chunk.copied = true;
    }
  }

  /** Whatever waits, as one batch (for the flush interval and the end of the stream), or null. */
  takeRest(): Batch | null {
    return this.pending.length > 0 ? this.take(this.pendingRows) : null;
  }

  private take(rows: number): Batch {
    const chunks: RecordBatch[] = [];
    let progress = this.progress;
    let taken = 0;
    while (this.pending.length > 0 && (taken < rows || this.pending[0].batch.numRows === 0)) {
      const chunk = this.pending[0];
      const want = rows - taken;
      if (chunk.batch.numRows > want) {
        // Split: the first part ends inside the scan batch, so its rows count past the last position.
        chunks.push(chunk.batch.slice(0, want));
        chunk.batch = chunk.batch.slice(want);
        progress = { position: progress.position, rowsAfter: progress.rowsAfter + want };
        taken += want;
        break;
      }
      this.pending.shift();
      if (chunk.batch.numRows > 0) chunks.push(chunk.batch);
      taken += chunk.batch.numRows;
      progress = chunk.end
        ? { position: chunk.end, rowsAfter: 0 }
        : { position: progress.position, rowsAfter: progress.rowsAfter + chunk.batch.numRows };
    }
    this.pendingRows -= taken;
    this.progress = progress;
    return { chunks, rows: taken, progress };
  }
}
