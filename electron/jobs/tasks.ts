// What a worker thread actually does: an export through the engine, a preview turned into JSON-safe rows, or the
// plan of an export (which needs the snapshot's schema, so it replays the log like the others).
import { existsSync } from 'node:fs';
import type { ExportRequest, JsonValue, PreviewRequest, PreviewResult } from '../../shared/api.js';
import type { ExportPlan, SinkSpec } from '../../shared/sink-spec.js';
import { isSqlSink } from '../../shared/sink-spec.js';
import { openSource } from '../delta/source.js';
import { previewRows } from '../delta/preview-rows.js';
import { runExport } from '../export/run-export.js';
import { planSqlExport } from '../sinks/sql-plan.js';
import { jsonReader } from '../values/json-value.js';
import type { RawProgress } from './progress.js';

export interface ExportOutcome {
  rows: number;
  seconds: number;
  rowsPerSec: number;
}

export async function exportTask(
  request: ExportRequest,
  signal: AbortSignal,
  onProgress: (progress: RawProgress) => void,
): Promise<ExportOutcome> {
  const { rows, seconds, rowsPerSec } = await runExport({ source: request.source, sink: request.sink, signal, onProgress });
  return { rows, seconds, rowsPerSec };
}

/** Reads one row more than asked, only to tell whether the snapshot has more. */
export async function previewTask(request: PreviewRequest, signal: AbortSignal): Promise<PreviewResult> {
  const { source, columns, batches, order } = await previewRows(request.source, { limit: request.limit, orderBy: request.orderBy, signal });
  const rows: JsonValue[][] = [];
  for await (const batch of batches) {
    const readers = columns.map((name) => jsonReader(batch.getChild(name)!));
    for (let i = 0; i < batch.numRows; i++) rows.push(readers.map((read) => read(i)));
  }
  const fields = columns.map((name) => source.fields.find((f) => f.name === name)!);
  return {
    version: source.snapshot.version,
    columns: fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable })),
    rows: rows.slice(0, request.limit),
    truncated: rows.length > request.limit,
    skipping: source.filter?.skipping ?? null,
    order,
  };
}

export async function planTask(request: ExportRequest): Promise<ExportPlan> {
  const source = await openSource(request.source);
  return isSqlSink(request.sink) ? planSqlExport(source.fields, request.sink) : filePlan(request.sink);
}

/** File sinks have no DDL: the plan names the file, which is written aside and renamed into place at the end. */
function filePlan(sink: Extract<SinkSpec, { path: string }>): ExportPlan {
  return {
    sink: sink.kind,
    target: sink.path,
    ddl: [],
    statement: `write ${sink.kind} file ${sink.path}`,
    targetExists: existsSync(sink.path),
    incompatibility: null,
  };
}
