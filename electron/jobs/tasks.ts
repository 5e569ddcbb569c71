// What a worker thread actually does: an export through the engine, a preview turned into JSON-safe rows, or the
// plan of an export (which needs the snapshot's schema, so it replays the log like the others).
import { existsSync } from 'node:fs';
import type { ExportRequest, JsonValue, PreviewRequest, PreviewResult } from '../../shared/api.js';
import type { ExportPlan, SinkSpec } from '../../shared/sink-spec.js';
import { isSqlSink } from '../../shared/sink-spec.js';
import { openSource } from '../delta/source.js';
import { nullKeyProblem } from '../export/null-keys.js';
import { runExport } from '../export/run-export.js';
import { planSqlExport } from '../sinks/sql-plan.js';
import { jsonReader } from '../values/json-value.js';
import type { RawProgress } from './progress.js';

export interface ExportOutcome {
  rows: number;
  seconds: number;
  rowsPerSec: number;
  resumedAfterRows?: number;
}

export async function exportTask(
  request: ExportRequest,
  signal: AbortSignal,
  onProgress: (progress: RawProgress) => void,
): Promise<ExportOutcome> {
  const { rows, seconds, rowsPerSec, resumedAfterRows } = await runExport({ source: request.source, sink: request.sink, signal, onProgress });
  return resumedAfterRows === undefined ? { rows, seconds, rowsPerSec } : { rows, seconds, rowsPerSec, resumedAfterRows };
}

/** Reads one row more than asked, only to tell whether the snapshot has more. */
export async function previewTask(request: PreviewRequest, signal: AbortSignal): Promise<PreviewResult> {
  const source = await openSource(request.source);
  const rows: JsonValue[][] = [];
  for await (const { batch } of source.batches({ signal, limit: request.limit + 1 })) {
    const readers = batch.schema.fields.map((_, c) => jsonReader(batch.getChildAt(c)!));
    for (let i = 0; i < batch.numRows; i++) rows.push(readers.map((read) => read(i)));
  }
  return {
    version: source.snapshot.version,
    columns: source.fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable })),
    rows: rows.slice(0, request.limit),
    truncated: rows.length > request.limit,
  };
}

export async function planTask(request: ExportRequest): Promise<ExportPlan> {
  const source = await openSource(request.source);
  if (!isSqlSink(request.sink)) return filePlan(request.sink);
  const plan = await planSqlExport(source.fields, request.sink);
  return { ...plan, incompatibility: (await nullKeyProblem(source, request.sink)) ?? plan.incompatibility };
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
