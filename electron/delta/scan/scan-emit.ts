// Emitting a file's kept rows: the runs its deletion vector leaves (kept-rows.ts) in batches of at most batchSize
// rows that never straddle a row group, each with the position after it and the progress so far. Without deletions
// a batch is a zero-copy slice of the decoded rows; where deletions cut them into many short runs, the runs are
// copied together into full batches straight from the decoded columns (concat-batches.ts: a file with every tenth
// row deleted would otherwise yield batches of nine rows, and a batch made per run to be joined later cost more than
// all the rest of its file's scan).
import * as arrow from 'apache-arrow';
import { keptRuns } from './kept-rows.js';
import type { DecodedRows } from './scan-decode.js';
import type { FilePlan, ScanPlan } from './scan-plan.js';
import { canConcat } from '../engine/concat-batches.js';
import { checkCancelled, type ScanBatch } from './scan-types.js';

/** How far the scan has come: kept rows still wanted (Infinity for all), and what the files before this one hold. */
export interface ScanProgress {
  remaining: number;
  bytesDone: number;
  filesDone: number;
}

/** Where the walk of one file is: its kept rows emitted or passed over so far, the next position's rowsInFile. */
export interface FileCursor {
  emitted: number;
}

export function* emitKept(
  plan: ScanPlan,
  file: FilePlan,
  rows: DecodedRows,
  progress: ScanProgress,
  cursor: FileCursor,
): Generator<ScanBatch> {
  // Runs are gathered into a batch where the columns can be copied together; nested ones go one run a batch.
  const joinable = canConcat(plan.schema);
  let runs: [number, number][] = [];
  let length = 0;
  const batch = (): ScanBatch => {
    const children = runs.length === 1 ? rows.slice(runs[0][0], length) : rows.gather(runs, length);
    const data = arrow.makeData({ type: plan.structType, length, nullCount: 0, children });
    const end = runs[runs.length - 1][1];
    cursor.emitted += length;
    runs = [];
    length = 0;
    return {
      batch: new arrow.RecordBatch(plan.schema, data),
      end: { fileIndex: file.fileIndex, rowsInFile: cursor.emitted },
      // The current file counts in proportion to its rows read: an export of a few big files would otherwise show
      // no progress for a long time.
      bytesDone: progress.bytesDone + Math.floor((file.file.add.size * end) / file.handle.numRows),
      filesDone: progress.filesDone,
    };
  };
  // Batches end with the decoded rows: a batch never straddles a row group.
  for (const [from, to] of keptRuns(file.deleted, rows.start, rows.start + rows.length)) {
    for (let at = from; at < to && progress.remaining > 0;) {
      checkCancelled(plan.signal);
      const taken = Math.min(plan.batchSize - length, to - at, progress.remaining);
      runs.push([at, at + taken]);
      length += taken;
      progress.remaining -= taken;
      at += taken;
      if (length === plan.batchSize || !joinable) yield batch();
    }
    if (progress.remaining <= 0) break;
  }
  if (length > 0) yield batch();
}
