// One export: a validated source streams its batches into a sink. Everything that can be checked is checked before
// the sink is created (bad input writes nothing); any failure or a cancel aborts the sink, which removes what it has
// not committed. What it reports is what landed: the rows committed (for a SQL sink, not the rows read ahead of the
// last commit), and where an exactly-once job resumed.
import { exportOutcome, type ExportOutcome } from '../../shared/api.js';
import { cancelledError, DeltaportError, validationError } from '../../shared/errors.js';
import { exportSinkProblems, isExactlyOnce, isSqlSink, type SinkSpec } from '../../shared/sink-spec.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import type { FilterSkipping } from '../../shared/table-info.js';
import type { Schema } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import type { ScanBatch, ScanPosition } from '../delta/scan/scan-types.js';
import { openSource, type DeltaSource } from '../delta/source.js';
import { createSink } from '../sinks/create-sink.js';
import type { SinkOpenContext } from '../sinks/sink.js';
import { canonicalLocation, isCloudLocation } from '../storage/storage.js';
import { fileExists } from '../storage/store-resolver.js';
import { nullKeyProblem } from './null-keys.js';

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

export interface ExportRequest {
  source: DeltaSourceSpec;
  sink: SinkSpec;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
}

export async function runExport(req: ExportRequest): Promise<ExportOutcome> {
  const started = performance.now();
  const signal = req.signal ?? new AbortController().signal;
  throwIfCancelled(signal);

  const source = await openSource(req.source);
  // Checked before the key columns are read for NULLs, which can take a whole scan (writeToSink checks again).
  await checkSink(req.sink, source.columns);
  const nullKeys = await nullKeyProblem(source, req.sink, signal);
  if (nullKeys) throw new DeltaportError('VALIDATION', nullKeys);
  // Progress counts the files read: with a filter, those it could not skip, and says how many it skipped.
  const snapshot = source.filter?.snapshot ?? source.snapshot;
  const skipping = source.filter?.skipping;
  const written = await writeToSink(
    {
      fields: source.fields,
      schema: source.schema,
      snapshot: sinkSnapshot(source),
      filesTotal: snapshot.files.length,
      bytesTotal: snapshot.files.reduce((sum, f) => sum + f.add.size, 0),
      ...(skipping ? { skipping } : {}),
      batches: (resumeFrom) => source.batches({ signal, resumeFrom }),
    },
    { ...req, signal },
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...exportOutcome(written.rows, seconds, written.resumedAfterRows), ...(skipping ? { skipping } : {}) };
}

/** The snapshot a sink is told it receives (what an exactly-once job's key names): the filtered one with a filter. */
export function sinkSnapshot(source: DeltaSource): SinkOpenContext['snapshot'] {
  const snapshot = source.filter?.snapshot ?? source.snapshot;
  return { tableId: snapshot.metadata.id, tableRoot: snapshot.tableRoot, version: snapshot.version };
}

/** Rows to export that are not a snapshot's (a diff, a change feed): what the sink needs to know of them. */
export interface ExportInput {
  fields: StructField[];
  schema: Schema;
  snapshot: SinkOpenContext['snapshot'];
  filesTotal: number;
  bytesTotal: number;
  skipping?: FilterSkipping;
  batches(resumeFrom: ScanPosition | undefined): AsyncIterable<ScanBatch>;
}

/** Streams the input into the sink the request names; returns the rows committed (all rows written, for a file)
 * and, for an exactly-once job that went on from an earlier run, the rows that run had committed. */
export async function writeToSink(
  input: ExportInput,
  req: Omit<ExportRequest, 'source'> & { signal: AbortSignal },
): Promise<Pick<ExportOutcome, 'rows' | 'resumedAfterRows'>> {
  const { signal } = req;
  await checkSink(
    req.sink,
    input.fields.map((f) => f.name),
  );
  throwIfCancelled(signal);

  const progress: ExportProgress = {
    rows: 0,
    files: 0,
    filesTotal: input.filesTotal,
    bytes: 0,
    bytesTotal: input.bytesTotal,
    ...(input.skipping ? { skipping: input.skipping } : {}),
  };
  const sink = await createSink(req.sink);
  try {
    const resumeFrom = await sink.open({ fields: input.fields, schema: input.schema, snapshot: input.snapshot, signal });
    const before = sink.counts?.().before ?? 0;
    if (before > 0) progress.resumedFromRow = before;
    for await (const batch of input.batches(resumeFrom ?? undefined)) {
      throwIfCancelled(signal);
      await sink.write(batch);
      progress.rows += batch.batch.numRows;
      progress.files = batch.filesDone;
      progress.bytes = batch.bytesDone;
      progress.committedRows = committedRows(sink);
      req.onProgress?.({ ...progress });
    }
    throwIfCancelled(signal);
    await sink.close();
    progress.committedRows = committedRows(sink);
  } catch (err) {
    await sink.abort().catch(() => undefined);
    // What a stopped export leaves is known once the open transactions are rolled back: the last word on the rows
    // is what stayed, committed batches, nothing of a file export.
    const committed = sink.counts?.().committed;
    req.onProgress?.({ ...progress, rows: committed ?? 0, committedRows: committedRows(sink) });
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
  if (counts && counts.before > 0) return { rows, resumedAfterRows: counts.before };
  return { rows };
}

/** What stops an export before its sink is made: a spec that does not fit the columns, and an existing file that
 * may not be replaced (the UI asks the user, the CLI wants --force). */
async function checkSink(spec: SinkSpec, columns: string[]): Promise<void> {
  const problems = exportSinkProblems(spec, columns);
  if (spec.kind === 'sqlite' && isCloudLocation(spec.path))
    problems.push(`a SQLite database is a local file, not ${spec.path}: export to a local path`);
  if (problems.length > 0) throw validationError(problems);
  if (isSqlSink(spec) || spec.overwrite) return;
  const target = canonicalLocation(spec.path);
  if (await fileExists(target)) {
    throw new DeltaportError('TARGET_EXISTS', `the output file ${target} already exists`);
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
