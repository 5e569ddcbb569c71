// One export: a validated source streams its batches into a sink. Everything that can be checked is checked before
// the sink is created (bad input writes nothing); any failure or a cancel aborts the sink, which removes what it has
// not committed.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DeltaportError } from '../../shared/errors.js';
import { exportSinkProblems, isSqlSink, type SinkSpec } from '../../shared/sink-spec.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import { openSource } from '../delta/source.js';
import { createSink } from '../sinks/create-sink.js';

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
}

export interface ExportRequest {
  source: DeltaSourceSpec;
  sink: SinkSpec;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
}

export interface ExportResult {
  rows: number;
  seconds: number;
  rowsPerSec: number;
}

export async function runExport(req: ExportRequest): Promise<ExportResult> {
  const started = performance.now();
  const signal = req.signal ?? new AbortController().signal;
  throwIfCancelled(signal);

  const source = await openSource(req.source);
  const problems = exportSinkProblems(req.sink, source.columns);
  if (problems.length > 0) throw new DeltaportError('VALIDATION', problems.join('\n'));
  throwIfCancelled(signal);

  const { snapshot } = source;
  const progress: ExportProgress = {
    rows: 0,
    files: 0,
    filesTotal: snapshot.files.length,
    bytes: 0,
    bytesTotal: snapshot.files.reduce((sum, f) => sum + f.add.size, 0),
  };
  await refuseExistingFile(req.sink);
  const sink = await createSink(req.sink);
  try {
    const resumeFrom = await sink.open({
      fields: source.fields,
      schema: source.schema,
      snapshot: { tableId: snapshot.metadata.id, tableRoot: snapshot.tableRoot, version: snapshot.version },
      signal,
    });
    const resumed = sink.resumedRows?.() ?? 0;
    if (resumed > 0) progress.resumedFromRow = resumed;
    for await (const batch of source.batches({ signal, resumeFrom: resumeFrom ?? undefined })) {
      throwIfCancelled(signal);
      await sink.write(batch);
      progress.rows += batch.batch.numRows;
      progress.files = batch.filesDone;
      progress.bytes = batch.bytesDone;
      if (sink.committedRows) progress.committedRows = sink.committedRows();
      req.onProgress?.({ ...progress });
    }
    throwIfCancelled(signal);
    await sink.close();
    if (sink.committedRows) progress.committedRows = sink.committedRows();
  } catch (err) {
    await sink.abort().catch(() => undefined);
    // What a stopped export leaves in a SQL target is known once the open transactions are rolled back.
    if (sink.committedRows) req.onProgress?.({ ...progress, committedRows: sink.committedRows() });
    // Whatever a cancel interrupted (a read, a write, a retry wait) reports itself as the cancel it is.
    if (signal.aborted) throw cancelled();
    throw err;
  }
  // A resumed export has nothing left to read for files it had finished; report them as done.
  progress.files = progress.filesTotal;
  progress.bytes = progress.bytesTotal;
  req.onProgress?.({ ...progress });
  const seconds = (performance.now() - started) / 1000;
  return { rows: progress.rows, seconds, rowsPerSec: seconds > 0 ? progress.rows / seconds : progress.rows };
}

/** A file export replaces an existing file only when asked to (the UI asks the user, the CLI wants --force). */
async function refuseExistingFile(spec: SinkSpec): Promise<void> {
  if (isSqlSink(spec) || spec.overwrite) return;
  const target = path.resolve(spec.path);
  if ((await stat(target).catch(() => null))?.isFile()) {
    throw new DeltaportError('TARGET_EXISTS', `the output file ${target} already exists`);
  }
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancelled();
}

function cancelled(): DeltaportError {
  return new DeltaportError('CANCELLED', 'export cancelled');
}
