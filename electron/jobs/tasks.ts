// What a worker thread actually does: an export through the engine, a preview turned into JSON-safe rows, or the
// plan of an export (which needs the snapshot's schema, so it replays the log like the others).
import { existsSync } from 'node:fs';
import type { RecordBatch, Schema } from 'apache-arrow';
import type { ChangeRows, ChangeRowsRequest, DiffResult, ExportRequest, JsonValue, PreviewRequest, PreviewResult, ProfileRequest } from '../../shared/api.js';
import type { StructField } from '../../shared/delta-schema.js';
import type { TableProfile } from '../../shared/table-info.js';
import { DeltaTable } from '../delta/table.js';
import type { WorkerTask } from './worker-protocol.js';
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

/** A worker's task by kind. */
export function runTask(task: WorkerTask, signal: AbortSignal, onProgress: (progress: RawProgress) => void): Promise<unknown> {
  switch (task.kind) {
    case 'export':
      return exportTask(task.request, signal, onProgress);
    case 'plan':
      return planTask(task.request);
    case 'preview':
      return previewTask(task.request, signal);
    case 'profile':
      return profileTask(task.request, signal);
    case 'diff':
      return diffTask(task.request, signal);
    case 'changes':
      return changesTask(task.request, signal);
  }
}

export async function profileTask(request: ProfileRequest, signal: AbortSignal): Promise<TableProfile> {
  const source = await openSource({ tablePath: request.table.path, versionAsOf: request.table.versionAsOf, timestampAsOf: request.table.timestampAsOf });
  const { scanProfile, statisticsProfile } = await import('../delta/profile/column-profile.js');
  if (request.exact) return scanProfile(source.snapshot.tableRoot, source.snapshot.version, signal);
  return statisticsProfile(source.snapshot, await source.table.fileStats(source.snapshot));
}

export async function diffTask(request: ChangeRowsRequest, signal: AbortSignal): Promise<DiffResult> {
  const table = await DeltaTable.open(request.path);
  const to = request.to ?? (await table.versionRange()).latest;
  const { diffSnapshots } = await import('../delta/change/snapshot-diff.js');
  const d = await diffSnapshots(table, request.from, to);
  return {
    from: d.from,
    to: d.to,
    schema: d.schema,
    properties: d.properties,
    protocol: d.protocol,
    filesAdded: d.filesAdded,
    filesRemoved: d.filesRemoved,
    filesWithNewDeletions: d.filesWithNewDeletions,
    ...(await jsonRows(d.fields, d.rowSchema, d.rows(signal), request.limit)),
  };
}

export async function changesTask(request: ChangeRowsRequest, signal: AbortSignal): Promise<ChangeRows> {
  const table = await DeltaTable.open(request.path);
  const to = request.to ?? (await table.versionRange()).latest;
  const { changeFeed } = await import('../delta/change/change-feed.js');
  const feed = await changeFeed(table, request.from, to);
  return { from: request.from, to, ...(await jsonRows(feed.fields, feed.schema, feed.rows(signal), request.limit)) };
}

/** The first `limit` rows as JSON-safe values, and whether there were more. */
async function jsonRows(fields: StructField[], schema: Schema, batches: AsyncIterable<RecordBatch>, limit: number): Promise<Pick<ChangeRows, 'columns' | 'rows' | 'truncated'>> {
  const rows: JsonValue[][] = [];
  for await (const batch of batches) {
    const readers = schema.fields.map((f) => jsonReader(batch.getChild(f.name)!));
    for (let i = 0; i < batch.numRows && rows.length <= limit; i++) rows.push(readers.map((read) => read(i)));
    if (rows.length > limit) break;
  }
  return { columns: fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable })), rows: rows.slice(0, limit), truncated: rows.length > limit };
}
