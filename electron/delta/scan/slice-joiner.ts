// Slices of consecutive rows gathered into batches of up to batchSize rows, for the rows a filter keeps
// (filter/filtered-scan.ts), whose runs come from batches already emitted. Every batch costs each sink a fixed
// overhead, so short runs are copied together rather than passed on one by one. (The runs a deletion vector keeps
// are copied from the decoded columns as they are found: scan-emit.ts.)
import { concatBatches } from '../engine/concat-batches.js';
import type { ScanBatch } from './scan-types.js';

export class SliceJoiner {
  private pending: ScanBatch[] = [];
  private pendingRows = 0;

  constructor(private readonly batchSize: number) {}

  /** Rows the next slice may have without making the batch too long. */
  get room(): number {
    return this.batchSize - this.pendingRows;
  }

  /** Takes a slice (of at most `room` rows), ending at its `end`; gives the batch it fills, if any. */
  add(slice: ScanBatch): ScanBatch[] {
    this.pending.push(slice);
    this.pendingRows += slice.batch.numRows;
    return this.pendingRows === this.batchSize ? this.flush() : [];
  }

  /** The slices taken so far as one batch ending where the last ends; one by one where columns cannot be joined
   * (nested types). */
  flush(): ScanBatch[] {
    const slices = this.pending;
    this.pending = [];
    this.pendingRows = 0;
    if (slices.length <= 1) return slices;
    const batch = concatBatches(slices.map((s) => s.batch));
    return batch ? [{ ...slices[slices.length - 1], batch }] : slices;
  }
}
