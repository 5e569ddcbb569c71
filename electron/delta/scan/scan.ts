// Snapshot -> stream of canonical Arrow record batches, in three steps per file, as delta-kernel-rs splits a scan:
// plan the file (scan-plan.ts: its deleted rows, partition constants, the row groups the filter rules out, the
// columns to read), decode it (scan-decode.ts: a row group at a time, only the chosen columns, normalized), and emit
// the rows it keeps (scan-emit.ts: batches of at most batchSize rows, with positions and progress). Files are read
// one at a time, row group by row group, a decoded piece at a time; from an object store, the next files are fetched
// while one is decoded (file-read-ahead.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DeltaportError } from '../../../shared/errors.js';
import { keptCount, physicalRowOfKept } from './kept-rows.js';
import { fileReadAhead, type FileReadAhead } from './file-read-ahead.js';
import { decodeGroup } from './scan-decode.js';
import { emitKept, type FileCursor, type ScanProgress } from './scan-emit.js';
import { groupsFrom, planFile, planScan, type ScanPlan } from './scan-plan.js';
import { checkCancelled, unlessCancelled, type ScanBatch, type ScanOptions, type ScanPosition } from './scan-types.js';
import type { Snapshot } from '../snapshot.js';

const DEFAULT_BATCH_SIZE = 2048;

export async function* scan(snapshot: Snapshot, options: ScanOptions): AsyncGenerator<ScanBatch> {
  const batches = scanBatches(snapshot, options);
  try {
    for (;;) {
      const step = await unlessCancelled(batches.next(), options.signal);
      if (step.done) return;
      yield step.value;
    }
  } finally {
    // Cancelled while a read was under way, the scan goes on only until that read ends: its next check of the signal
    // then stops it, and its file is closed. Its error, if any, is the cancel's.
    batches.return(undefined).catch(() => undefined);
  }
}

async function* scanBatches(snapshot: Snapshot, options: ScanOptions): AsyncGenerator<ScanBatch> {
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
  const planned = planScan(snapshot, options, batchSize);
  const ahead = fileReadAhead(snapshot, planned.engine, limit);
  const plan = ahead ? { ...planned, engine: ahead.engine } : planned;
  ahead?.starting(start.fileIndex, planned.fields.length === snapshot.schema.fields.length);
  const progress: ScanProgress = {
    remaining: limit,
    bytesDone: snapshot.files.slice(0, start.fileIndex).reduce((n, f) => n + f.add.size, 0),
    filesDone: start.fileIndex,
  };
  for (let i = start.fileIndex; i < snapshot.files.length && progress.remaining > 0; i++) {
    // A turn of the event loop per file: a local file's reads end without one (they are synchronous), and a cancel
    // waiting in the queue would wait for the whole scan.
    await nextTurn();
    checkCancelled(plan.signal);
    yield* scanFile(snapshot, plan, progress, i, i === start.fileIndex ? start.rowsInFile : 0, ahead);
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
  ahead: FileReadAhead | null,
): AsyncGenerator<ScanBatch> {
  const file = await planFile(snapshot, plan, fileIndex);
  ahead?.planned(file);
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
        const batches = emitKept(plan, file, rows, progress, cursor);
        yield* plan.scratch ? lastMarked(batches) : batches;
        if (progress.remaining <= 0) return;
      }
    }
  } finally {
    file.handle.close();
    ahead?.done(file);
  }
}

/** A piece's batches, its last one marked (ScanBatch.lastInBuffers): it is known to be the last once the piece has no
 * more, so each batch goes out once the one after it is made. */
function* lastMarked(batches: Iterable<ScanBatch>): Generator<ScanBatch> {
  let held: ScanBatch | null = null;
  for (const batch of batches) {
    if (held) yield held;
    held = batch;
  }
  if (held) yield { ...held, lastInBuffers: true };
}

function invalid(message: string): DeltaportError {
  return new DeltaportError('VALIDATION', message);
}
