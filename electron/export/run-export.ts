// One export: any row source (export/row-source.ts: a snapshot, a diff, a change feed, a query's result) streams its
// batches into a sink. The sink spec is checked here, once, against the source's columns, and everything that can be
// checked is checked before the sink is created (bad input writes nothing); any failure or a cancel aborts the sink,
// which removes what it has not committed. What it reports is what landed: the rows committed (for a SQL sink, not
// the rows read ahead of the last commit), and where an exactly-once job resumed.
import { exportOutcome, type ExportOutcome } from '../../shared/api.js';
import { cancelledError, DeltaportError } from '../../shared/errors.js';
import { isExactlyOnce, isSqlSink, type SinkSpec } from '../../shared/sink-spec.js';
import type { FilterSkipping } from '../../shared/table-info.js';
import { checkSink } from '../sinks/checked-sink.js';
import { createSink } from '../sinks/create-sink.js';
import type { BatchSink, WrittenRows } from '../sinks/sink.js';
import type { ScanBatch } from '../delta/scan/scan-types.js';
import type { StorageResolver } from '../storage/storage.js';
import type { RowSource } from './row-source.js';

export interface ExportProgress {
  rows: number;
  /** SQL sinks: rows committed to the target so far, earlier runs of an exactly-once job included. */
  committedRows?: number;
  /** SQL sinks: rows an exactly-once rerun found committed already and resumed after. */
  resumedFromRow?: number;
  files: number;
  filesTotal: number;
  bytes: number;
  bytesTotal: number;
  /** With a filter: the files it let the export skip (files and filesTotal count only the others). */
  skipping?: FilterSkipping;
}

export interface ExportOptions {
  /** Where a file target is looked for and written: the storage of the engine the export reads through. */
  storage: StorageResolver;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
}

/** Streams the rows into the sink the spec names; the outcome counts the rows committed (all rows written, for a
 * file) and, for an exactly-once job that went on from an earlier run, the rows that run had committed. */
export async function runExport(source: RowSource, sinkSpec: SinkSpec, options: ExportOptions): Promise<ExportOutcome> {
  const started = performance.now();
  const signal = options.signal ?? new AbortController().signal;
  const { onProgress } = options;
  throwIfCancelled(signal);
  // Checked before the rows' own refusals, which can take a whole scan (a snapshot's upsert keys read for NULLs).
  const spec = await checkSink(
    sinkSpec,
    source.fields.map((f) => f.name),
    options.storage,
  );
  const refusal = (await source.sinkProblem?.(spec, signal)) ?? null;
  if (refusal) throw new DeltaportError('VALIDATION', refusal);
  throwIfCancelled(signal);

  const progress: ExportProgress = {
    rows: 0,
    files: 0,
    filesTotal: source.filesTotal,
    bytes: 0,
    bytesTotal: source.bytesTotal,
    ...(source.skipping ? { skipping: source.skipping } : {}),
  };
  const sink = await createSink(spec, options.storage);
  try {
    const ownFiles = source.ownFiles?.bind(source);
    const resumeFrom = await sink.open({
      fields: source.fields,
      schema: source.schema,
      snapshot: source.snapshot,
      signal,
      ...(ownFiles ? { ownFiles } : {}),
    });
    const before = sink.counts?.().before ?? 0;
    if (before > 0) progress.resumedFromRow = before;
    // A sink that took the source's own files reads them itself; any other takes the batches.
    const steps =
      sink.readsOwnFiles?.() ?? writeBatches(sink, source.batches(resumeFrom ?? undefined, signal, sink.takesReusedBuffers), signal);
    for await (const step of steps) {
      throwIfCancelled(signal);
      progress.rows += step.rows;
      progress.files = step.filesDone;
      progress.bytes = step.bytesDone;
      progress.committedRows = committedRows(sink);
      onProgress?.({ ...progress });
    }
    throwIfCancelled(signal);
    await sink.close();
    progress.committedRows = committedRows(sink);
  } catch (err) {
    await sink.abort().catch(() => undefined);
    // What a stopped export leaves is known once the open transactions are rolled back: the last word on the rows
    // is what stayed, committed batches, nothing of a file export.
    const committed = sink.counts?.().committed;
    onProgress?.({ ...progress, rows: committed ?? 0, committedRows: committedRows(sink) });
    // Whatever a cancel interrupted (a read, a write, a retry wait) reports itself as the cancel it is.
    if (signal.aborted) throw cancelled(committed, spec);
    throw err;
  }
  const counts = sink.counts?.();
  const rows = counts?.committed ?? progress.rows;
  // A resumed export has nothing left to read for files it had finished; report them as done.
  progress.files = progress.filesTotal;
  progress.bytes = progress.bytesTotal;
  onProgress?.({ ...progress, rows });
  const seconds = (performance.now() - started) / 1000;
  const resumedAfterRows = counts && counts.before > 0 ? counts.before : undefined;
  return { ...exportOutcome(rows, seconds, resumedAfterRows), ...(source.skipping ? { skipping: source.skipping } : {}) };
}

/** The batches into the sink, a step each; each written before the next is asked for. */
async function* writeBatches(sink: BatchSink, batches: AsyncIterable<ScanBatch>, signal: AbortSignal): AsyncGenerator<WrittenRows> {
  for await (const batch of batches) {
    throwIfCancelled(signal);
    await sink.write(batch);
    yield { rows: batch.batch.numRows, filesDone: batch.filesDone, bytesDone: batch.bytesDone };
  }
}

/** A SQL sink's rows in the target from this job, earlier runs of an exactly-once job included. */
function committedRows(sink: { counts?(): { committed: number; before: number } }): number | undefined {
  const counts = sink.counts?.();
  return counts && counts.committed + counts.before;
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancelled();
}

function cancelled(committed?: number, sink?: SinkSpec): DeltaportError {
  if (committed === undefined) return cancelledError('export');
  // The app's job resumes on its Retry (its ledger row is its own), the CLI's export when it is run again.
  const resume =
    !sink || !isExactlyOnce(sink) ? '' : isSqlSink(sink) && sink.jobId ? '; Retry resumes after them' : '; run it again to resume';
  return cancelledError('export', `after ${committed} rows were committed${resume}`);
}
