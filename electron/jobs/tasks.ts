// What a worker thread actually does: an export through the engine, a preview turned into JSON-safe rows, the plan
// of an export, and the table reads behind the window (open, history, time travel). Everything that reads a log
// runs here, off the main thread, and the tables this thread opened keep their parsed log: on the shared worker a
// preview or a plan after an open replays nothing again.
import { existsSync } from 'node:fs';
import type { ExportRequest, JsonValue, PreviewRequest, PreviewResult, TableRef } from '../../shared/api.js';
import { DeltaportError } from '../../shared/errors.js';
import type { ExportPlan, SinkSpec } from '../../shared/sink-spec.js';
import { isSqlSink } from '../../shared/sink-spec.js';
import { TIMESTAMP_FORMS } from '../../shared/source-spec.js';
import type { CommitSummary, TableInfo } from '../../shared/table-info.js';
import { parseTimestampAsOf } from '../../shared/timestamp.js';
import { openSource } from '../delta/source.js';
import { TableCache } from '../delta/table-cache.js';
import { nullKeyProblem } from '../export/null-keys.js';
import { runExport } from '../export/run-export.js';
import { planSqlExport } from '../sinks/sql-plan.js';
import { jsonReader } from '../values/json-value.js';
import type { RawProgress } from './progress.js';
import type { WorkerTask } from './worker-protocol.js';

const tables = new TableCache();
const openTable = (tablePath: string) => tables.open(tablePath);

/** Runs one task of any kind; its value is what the main thread's caller receives. */
export function runTask(task: WorkerTask, signal: AbortSignal, onProgress: (progress: RawProgress) => void): Promise<unknown> {
  switch (task.kind) {
    case 'export':
      return exportTask(task.request, signal, onProgress);
    case 'preview':
      return previewTask(task.request, signal);
    case 'plan':
      return planTask(task.request);
    case 'open':
      return openTableTask(task.request);
    case 'history':
      return historyTask(task.request);
    case 'resolve':
      return resolveVersionTask(task.request);
    case 'latest':
      return latestVersionTask(task.request);
  }
}

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
  const source = await openSource(request.source, openTable);
  const rows: JsonValue[][] = [];
  for await (const { batch } of source.batches({ signal, limit: request.limit + 1 })) {
    const readers = batch.schema.fields.map((f, c) => jsonReader(batch.getChildAt(c)!, f));
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
  const source = await openSource(request.source, openTable);
  if (!isSqlSink(request.sink)) return filePlan(request.sink);
  const plan = await planSqlExport(source.fields, request.sink);
  return { ...plan, incompatibility: (await nullKeyProblem(source, request.sink)) ?? plan.incompatibility };
}

export async function openTableTask(ref: TableRef): Promise<TableInfo> {
  const { table, snapshot } = await snapshotAt(ref);
  return table.tableInfo(snapshot);
}

export async function historyTask(request: { path: string; limit?: number }): Promise<CommitSummary[]> {
  return (await openTable(request.path)).history({ limit: request.limit });
}

export async function resolveVersionTask(ref: TableRef): Promise<{ version: number; timestamp: number }> {
  const { table, snapshot } = await snapshotAt(ref);
  return { version: snapshot.version, timestamp: await table.commitTime(snapshot.version) };
}

/** The newest version now in the log: a listing only, so polling it for new commits costs no replay. */
export async function latestVersionTask(request: { path: string }): Promise<{ latest: number }> {
  return { latest: (await (await openTable(request.path)).versionRange()).latest };
}

async function snapshotAt(ref: TableRef) {
  const table = await openTable(ref.path);
  return { table, snapshot: await table.snapshot(timeTravel(ref)) };
}

function timeTravel(ref: TableRef): { version?: number; timestampMs?: number } {
  if (ref.timestampAsOf === undefined) return { version: ref.versionAsOf };
  const timestampMs = parseTimestampAsOf(ref.timestampAsOf);
  if (timestampMs === null) {
    throw new DeltaportError('VALIDATION', `"${ref.timestampAsOf}" is not a timestamp; use one of: ${TIMESTAMP_FORMS}`);
  }
  return { version: ref.versionAsOf, timestampMs };
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
