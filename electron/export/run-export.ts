// One export: a validated source streams its batches into a sink. Everything that can be checked is checked before
// the sink is created (bad input writes nothing); any failure or a cancel aborts the sink, which removes what it has
// not committed. What it reports is what landed: the rows committed (for a SQL sink, not the rows read ahead of the
// last commit), and where an exactly-once job resumed.
import { DeltaportError } from '../../shared/errors.js';
import { exportSinkProblems, type SinkSpec } from '../../shared/sink-spec.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import { openSource } from '../delta/source.js';
import { createSink } from '../sinks/create-sink.js';
import { nullKeyProblem } from './null-keys.js';

export interface ExportProgress {
  rows: number;
  files: number;
  filesTotal: number;
  bytes: number;
  bytesTotal: number;
}

export interface ExportRequest {
  source: DeltaSourceSpec;
  sink: SinkSpec;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
}

export interface ExportResult {
  /** Rows this run committed. */
  rows: number;
  seconds: number;
  rowsPerSec: number;
  /** Set when an exactly-once job went on from an earlier run: the rows that run had committed. */
  resumedAfterRows?: number;
}

export async function runExport(req: ExportRequest): Promise<ExportResult> {
  const started = performance.now();
  const signal = req.signal ?? new AbortController().signal;
  throwIfCancelled(signal);

  const source = await openSource(req.source);
  const problems = exportSinkProblems(req.sink, source.columns);
  if (problems.length > 0) throw new DeltaportError('VALIDATION', problems.join('\n'));
  const nullKeys = await nullKeyProblem(source, req.sink, signal);
  if (nullKeys) throw new DeltaportError('VALIDATION', nullKeys);
  throwIfCancelled(signal);

  const { snapshot } = source;
  const progress: ExportProgress = {
    rows: 0,
    files: 0,
    filesTotal: snapshot.files.length,
    bytes: 0,
    bytesTotal: snapshot.files.reduce((sum, f) => sum + f.add.size, 0),
  };
  const sink = await createSink(req.sink);
  try {
    const resumeFrom = await sink.open({
      fields: source.fields,
      schema: source.schema,
      snapshot: { tableId: snapshot.metadata.id, tableRoot: snapshot.tableRoot, version: snapshot.version },
      signal,
    });
    for await (const batch of source.batches({ signal, resumeFrom: resumeFrom ?? undefined })) {
      throwIfCancelled(signal);
      await sink.write(batch);
      progress.rows += batch.batch.numRows;
      progress.files = batch.filesDone;
      progress.bytes = batch.bytesDone;
      req.onProgress?.({ ...progress });
    }
    throwIfCancelled(signal);
    await sink.close();
  } catch (err) {
    await sink.abort().catch(() => undefined);
    const committed = sink.counts?.().committed;
    // The last word on the rows is what stayed: committed batches, nothing of a file export.
    req.onProgress?.({ ...progress, rows: committed ?? 0 });
    // Whatever a cancel interrupted (a read, a write, a retry wait) reports itself as the cancel it is.
    if (signal.aborted) throw cancelled(committed, req.sink);
    throw err;
  }
  const counts = sink.counts?.();
  const rows = counts?.committed ?? progress.rows;
  // A resumed export has nothing left to read for files it had finished; report them as done.
  progress.files = progress.filesTotal;
  progress.bytes = progress.bytesTotal;
  req.onProgress?.({ ...progress, rows });
  const seconds = (performance.now() - started) / 1000;
  const result: ExportResult = { rows, seconds, rowsPerSec: seconds > 0 ? rows / seconds : rows };
  if (counts && counts.before > 0) result.resumedAfterRows = counts.before;
  return result;
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancelled();
}

function cancelled(committed?: number, sink?: SinkSpec): DeltaportError {
  if (committed === undefined) return new DeltaportError('CANCELLED', 'export cancelled');
  const resume = sink && 'exactlyOnce' in sink && sink.exactlyOnce ? '; run it again to resume' : '';
  return new DeltaportError('CANCELLED', `export cancelled after ${committed} rows were committed${resume}`);
}
