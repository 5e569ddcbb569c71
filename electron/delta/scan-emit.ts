// Emitting a file's kept rows: the runs its deletion vector leaves (kept-rows.ts) in batches of at most batchSize
// rows that never straddle a row group, each with the position after it and the progress so far. Without deletions
// a batch is a zero-copy slice of the decoded rows; where deletions cut them into many short runs, the runs are
// copied together into full batches (slice-joiner.ts: a file with every tenth row deleted would otherwise yield
// batches of nine rows).
import * as arrow from 'apache-arrow';
import { keptRuns } from './kept-rows.js';
import type { DecodedRows } from './scan-decode.js';
import type { FilePlan, ScanPlan } from './scan-plan.js';
import { SliceJoiner } from './slice-joiner.js';
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
  // Batches end with the decoded rows: a batch never straddles a row group.
  const joiner = new SliceJoiner(plan.batchSize);
  for (const [from, to] of keptRuns(file.deleted, rows.start, rows.start + rows.length)) {
    for (let at = from; at < to && progress.remaining > 0;) {
      checkCancelled(plan.signal);
      const length = Math.min(joiner.room, to - at, progress.remaining);
      const data = arrow.makeData({ type: plan.structType, length, nullCount: 0, children: rows.slice(at, length) });
      cursor.emitted += length;
      progress.remaining -= length;
      at += length;
      yield* joiner.add({
        batch: new arrow.RecordBatch(plan.schema, data),
        end: { fileIndex: file.fileIndex, rowsInFile: cursor.emitted },
        // The current file counts in proportion to its rows read: an export of a few big files would otherwise show
        // no progress for a long time.
        bytesDone: progress.bytesDone + Math.floor((file.file.add.size * at) / file.handle.numRows),
        filesDone: progress.filesDone,
      });
    }
    if (progress.remaining <= 0) break;
  }
  yield* joiner.flush();
}
