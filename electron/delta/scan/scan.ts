// Snapshot -> stream of canonical Arrow record batches, in three steps per file, as delta-kernel-rs splits a scan:
// plan the file (scan-plan.ts: its deleted rows, partition constants, the row groups the filter rules out, the
// columns to read), decode it (scan-decode.ts: a row group at a time, only the chosen columns, normalized), and emit
// the rows it keeps (scan-emit.ts: batches of at most batchSize rows, with positions and progress). Files are read
// one at a time, row group by row group, a decoded piece at a time.
import { DeltaportError } from '../../../shared/errors.js';
import { keptCount, physicalRowOfKept } from './kept-rows.js';
import { decodeGroup } from './scan-decode.js';
import { emitKept, type FileCursor, type ScanProgress } from './scan-emit.js';
import { groupsFrom, planFile, planScan, type ScanPlan } from './scan-plan.js';
import { checkCancelled, type ScanBatch, type ScanOptions, type ScanPosition } from './scan-types.js';
import type { Snapshot } from '../snapshot.js';

const DEFAULT_BATCH_SIZE = 2048;

export async function* scan(snapshot: Snapshot, options: ScanOptions): AsyncGenerator<ScanBatch> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw invalid(`batch size must be a positive integer, got ${batchSize}`);
  const limit = options.limit ?? Infinity;
  if (limit !== Infinity && (!Number.isInteger(limit) || limit < 0)) throw invalid(`limit must be a non-negative integer, got ${limit}`);
  const start: ScanPosition = options.resumeFrom ?? { fileIndex: 0, rowsInFile: 0 };
  if (
    !Number.isInteger(start.fileIndex) ||
    start.fileIndex < 0 ||
    start.fileIndex > snapshot.files.length ||
    !Number.isInteger(start.rowsInFile) ||
    start.rowsInFile < 0
  ) {
    throw invalid(`cannot resume at file ${start.fileIndex}, row ${start.rowsInFile}: the snapshot has ${snapshot.files.length} files`);
  }
  const plan = planScan(snapshot, options, batchSize);
  const progress: ScanProgress = {
    remaining: limit,
    bytesDone: snapshot.files.slice(0, start.fileIndex).reduce((n, f) => n + f.add.size, 0),
    filesDone: start.fileIndex,
  };
  for (let i = start.fileIndex; i < snapshot.files.length && progress.remaining > 0; i++) {
    checkCancelled(plan.signal);
    yield* scanFile(snapshot, plan, progress, i, i === start.fileIndex ? start.rowsInFile : 0);
    progress.bytesDone += snapshot.files[i].add.size;
    progress.filesDone++;
  }
}

/** One file from its `skipRows`-th kept row on. */
async function* scanFile(
  snapshot: Snapshot,
  plan: ScanPlan,
  progress: ScanProgress,
  fileIndex: number,
  skipRows: number,
): AsyncGenerator<ScanBatch> {
  const file = await planFile(snapshot, plan, fileIndex);
  try {
    const cursor: FileCursor = { emitted: skipRows };
    for (const group of groupsFrom(file, physicalRowOfKept(skipRows, file.deleted))) {
      // A group the filter rules out is not decoded, yet its kept rows count in positions: they stay those of the
      // unfiltered scan, which the consumer filters (scan-types.ts).
      if (group.skipped) {
        cursor.emitted += keptCount(file.deleted, group.from, group.to);
        continue;
      }
      checkCancelled(plan.signal);
      for await (const rows of decodeGroup(plan, file, group, progress.remaining)) {
        yield* emitKept(plan, file, rows, progress, cursor);
        if (progress.remaining <= 0) return;
      }
    }
  } finally {
    file.handle.close();
  }
}

function invalid(message: string): DeltaportError {
  return new DeltaportError('VALIDATION', message);
}
