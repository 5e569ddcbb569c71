// One export: a validated source streams its batches into a sink. Everything that can be checked is checked before
// the sink is created (bad input writes nothing); any failure or a cancel aborts the sink, which removes what it has
// not committed.
import { DeltaportError } from '../../shared/errors.js';
import { exportSinkProblems, type SinkSpec } from '../../shared/sink-spec.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import type { FilterSkipping } from '../../shared/table-info.js';
import { openSource } from '../delta/source.js';
import type { Schema } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import type { ScanBatch, ScanPosition } from '../delta/scan-types.js';
import { createSink } from '../sinks/create-sink.js';
import type { SinkOpenContext } from '../sinks/sink.js';

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
  rows: number;
  seconds: number;
  rowsPerSec: number;
  /** With a filter: the files it let the export skip. */
  skipping: FilterSkipping | null;
}

export async function runExport(req: ExportRequest): Promise<ExportResult> {
  const started = performance.now();
  const signal = req.signal ?? new AbortController().signal;
  throwIfCancelled(signal);
  const source = await openSource(req.source);
  // Progress counts the files read: with a filter, those it could not skip.
  const snapshot = source.filter?.snapshot ?? source.snapshot;
  const rows = await writeToSink(
    {
      fields: source.fields,
      schema: source.schema,
      snapshot: { tableId: snapshot.metadata.id, tableRoot: snapshot.tableRoot, version: snapshot.version },
      filesTotal: snapshot.files.length,
      bytesTotal: snapshot.files.reduce((sum, f) => sum + f.add.size, 0),
      batches: (resumeFrom) => source.batches({ signal, resumeFrom }),
    },
    { ...req, signal },
  );
  const seconds = (performance.now() - started) / 1000;
  const rowsPerSec = seconds > 0 ? rows / seconds : rows;
  return { rows, seconds, rowsPerSec, skipping: source.filter?.skipping ?? null };
}

/** Rows to export that are not a snapshot's (a diff, a change feed): what the sink needs to know of them. */
export interface ExportInput {
  fields: StructField[];
  schema: Schema;
  snapshot: SinkOpenContext['snapshot'];
  filesTotal: number;
  bytesTotal: number;
  batches(resumeFrom: ScanPosition | undefined): AsyncIterable<ScanBatch>;
}

/** Streams the input into the sink the request names; returns the rows written. */
export async function writeToSink(input: ExportInput, req: Omit<ExportRequest, 'source'> & { signal: AbortSignal }): Promise<number> {
  const { signal } = req;
  const problems = exportSinkProblems(req.sink, input.fields.map((f) => f.name));
  if (problems.length > 0) throw new DeltaportError('VALIDATION', problems.join('\n'));
  throwIfCancelled(signal);
  const progress: ExportProgress = { rows: 0, files: 0, filesTotal: input.filesTotal, bytes: 0, bytesTotal: input.bytesTotal };
  const sink = await createSink(req.sink);
  try {
    const resumeFrom = await sink.open({ fields: input.fields, schema: input.schema, snapshot: input.snapshot, signal });
    for await (const batch of input.batches(resumeFrom ?? undefined)) {
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
    // Whatever a cancel interrupted (a read, a write, a retry wait) reports itself as the cancel it is.
    if (signal.aborted) throw cancelled();
    throw err;
  }
  // A resumed export has nothing left to read for files it had finished; report them as done.
  progress.files = progress.filesTotal;
  progress.bytes = progress.bytesTotal;
  req.onProgress?.({ ...progress });
  return progress.rows;
}

function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancelled();
}

function cancelled(): DeltaportError {
  return new DeltaportError('CANCELLED', 'export cancelled');
}
