// What a worker thread actually does: an export through the engine, a preview turned into JSON-safe rows, the plan
// of an export, profiles, diffs and change feeds, and the table reads behind the window (open, history, time travel). Everything that reads a log
// runs here, off the main thread, and the tables this thread opened keep their parsed log: on the shared worker a
// preview or a plan after an open replays nothing again.
import { existsSync } from 'node:fs';
import type {
  ChangeRows,
  ChangeRowsRequest,
  DiffRequest,
  DiffResult,
  ExportOutcome,
  ExportRequest,
  JsonValue,
  PreviewRequest,
  PreviewResult,
  ProfileRequest,
  ReadProgress,
  TableRef,
} from '../../shared/api.js';
import { isChangeSource, isSqlSource, type RowsSourceSpec, type SqlSourceSpec } from '../../shared/change-source.js';
import { isCatalogName } from '../../shared/catalog-name.js';
import type { StructField } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import type { ExportPlan, SinkSpec } from '../../shared/sink-spec.js';
import { isSqlSink } from '../../shared/sink-spec.js';
import { TIMESTAMP_FORMS } from '../../shared/source-spec.js';
import type { CommitSummary, PartitionSummary, TableInfo, TableProfile } from '../../shared/table-info.js';
import { parseTimestampAsOf } from '../../shared/timestamp.js';
import { openSource } from '../delta/source.js';
import { previewRows } from '../delta/preview-rows.js';
import { partitionSummaries } from '../delta/profile/partitions.js';
import { TableCache } from '../delta/table-cache.js';
import { openRows } from '../export/open-rows.js';
import { scanForSink } from '../export/scan-batch-size.js';
import { runExport } from '../export/run-export.js';
import { sinkSnapshot } from '../export/snapshot-rows.js';
import { openChangeSource } from '../export/change-source.js';
import { jobKey, type StoredProgress } from '../sinks/exactly-once.js';
import { requireOutputFile } from '../sinks/output-folder.js';
import { isCloudLocation } from '../storage/storage.js';
import { planSqlExport } from '../sinks/sql-plan.js';
import { withSqlSource } from '../sql/sql-export.js';
import { jsonReader, jsonRows } from '../values/json-value.js';
import type { RawProgress } from './progress.js';
import type { WorkerTask } from './worker-protocol.js';

/** Runs one task of any kind, reading through the tables' engine; its value is what the main thread's caller
 * receives. */
export function runTask(
  tables: TableCache,
  task: WorkerTask,
  signal: AbortSignal,
  onProgress: (progress: RawProgress) => void,
): Promise<unknown> {
  switch (task.kind) {
    case 'export':
      return exportTask(tables, task.request, signal, onProgress);
    case 'preview':
      return previewTask(tables, task.request, signal);
    case 'plan':
      return planTask(tables, task.request);
    case 'open':
      return openTableTask(tables, task.request);
    case 'history':
      return historyTask(tables, task.request, signal);
    case 'resolve':
      return resolveVersionTask(tables, task.request);
    case 'latest':
      return latestVersionTask(tables, task.request);
    case 'profile':
      return profileTask(tables, task.request, signal, readProgress(onProgress));
    case 'partitions':
      return partitionsTask(tables, task.request);
    case 'diff':
      return diffTask(tables, task.request, signal, readProgress(onProgress));
    case 'changes':
      return changesTask(tables, task.request, signal, readProgress(onProgress));
    case 'checkChanges':
      return checkChangesTask(tables, task.request);
    case 'ledger':
      return ledgerTask(tables, task.request);
  }
}

export async function exportTask(
  tables: TableCache,
  request: ExportRequest,
  signal: AbortSignal,
  onProgress: (progress: RawProgress) => void,
): Promise<ExportOutcome> {
  // A query's result lives as long as its engine: the export runs inside it (sql/sql-export.ts).
  if (isSqlSource(request.source))
    return withSqlSource(request.source, tables.open, signal, (rows) =>
      runExport(rows, request.sink, { storage: tables.engine.storage, signal, onProgress }),
    );
  const rows = await openRows(scanForSink(request.source, request.sink), { measure: true, openTable: tables.open });
  return runExport(rows, request.sink, { storage: tables.engine.storage, signal, onProgress });
}

/** What a change source needs of the table, checked before its export is queued: nothing is read but the log. A
 * query is run, so that a query that fails says so before it becomes a job. */
export async function checkChangesTask(tables: TableCache, source: RowsSourceSpec): Promise<null> {
  if (isSqlSource(source)) await withSqlSource(source, tables.open, undefined, async () => null);
  else await openChangeSource(source, { openTable: tables.open });
  return null;
}

/** A query's result has its columns only once the query ran. */
async function sqlSourceFields(tables: TableCache, source: SqlSourceSpec): Promise<StructField[]> {
  return withSqlSource(source, tables.open, undefined, async (input) => input.fields);
}

/** An exactly-once snapshot export's ledger row in its target (null when there is none): what its Retry resumes
 * after. */
export async function ledgerTask(tables: TableCache, request: ExportRequest): Promise<StoredProgress | null> {
  if (isChangeSource(request.source) || !isSqlSink(request.sink)) return null;
  const source = await openSource(request.source, tables.open);
  const { tableId, version } = sinkSnapshot(source);
  const key = jobKey({ tableId, version, fields: source.fields, spec: request.sink });
  return (await import('../sinks/ledger-read.js')).readLedger(request.sink, key);
}

/** Reads one row more than asked, only to tell whether the snapshot has more. */
export async function previewTask(tables: TableCache, request: PreviewRequest, signal: AbortSignal): Promise<PreviewResult> {
  const { source, columns, batches, order } = await previewRows(request.source, {
    limit: request.limit,
    offset: request.offset,
    orderBy: request.orderBy,
    signal,
    openTable: tables.open,
  });
  const rows: JsonValue[][] = [];
  for await (const batch of batches) {
    const readers = columns.map((name) =>
      jsonReader(
        batch.getChild(name)!,
        batch.schema.fields.find((f) => f.name === name),
      ),
    );
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

export async function planTask(tables: TableCache, request: ExportRequest): Promise<ExportPlan> {
  if (isSqlSource(request.source)) {
    if (!isSqlSink(request.sink)) return filePlan(request.sink);
    return planSqlExport(await sqlSourceFields(tables, request.source), request.sink);
  }
  const rows = await openRows(request.source, { openTable: tables.open });
  if (!isSqlSink(request.sink)) return filePlan(request.sink);
  if (request.sink.kind === 'sqlite' || request.sink.kind === 'duckdb') requireOutputFile(request.sink.path);
  const ownFiles = rows.ownFiles?.bind(rows);
  const plan = await planSqlExport(rows.fields, request.sink, ownFiles ? { ownFiles } : {});
  return { ...plan, incompatibility: (await rows.sinkProblem?.(request.sink)) ?? plan.incompatibility };
}

export async function openTableTask(tables: TableCache, ref: TableRef): Promise<TableInfo> {
  const { table, snapshot } = await snapshotAt(tables, ref);
  const info = await table.tableInfo(snapshot);
  // A table opened by its catalog name keeps it: every later read goes through the catalog and its credentials, and
  // the recent tables remember the name.
  return isCatalogName(ref.path) ? { ...info, path: ref.path } : info;
}

export async function historyTask(
  tables: TableCache,
  request: { path: string; limit?: number },
  signal?: AbortSignal,
): Promise<CommitSummary[]> {
  return (await tables.open(request.path)).history({ limit: request.limit, signal });
}

export async function resolveVersionTask(tables: TableCache, ref: TableRef): Promise<{ version: number; timestamp: number }> {
  const { table, snapshot } = await snapshotAt(tables, ref);
  return { version: snapshot.version, timestamp: await table.commitTime(snapshot.version) };
}

/** The newest version now in the log: a listing only, so polling it for new commits costs no replay. */
export async function latestVersionTask(tables: TableCache, request: { path: string }): Promise<{ latest: number }> {
  return { latest: (await (await tables.open(request.path)).versionRange()).latest };
}

async function snapshotAt(tables: TableCache, ref: TableRef) {
  const table = await tables.open(ref.path);
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
/** A file export's plan, checked as the export checks it (output-folder.ts) where the file is local. */
function filePlan(sink: Extract<SinkSpec, { path: string }>): ExportPlan {
  if (!isCloudLocation(sink.path)) requireOutputFile(sink.path);
  return {
    sink: sink.kind,
    target: sink.path,
    ddl: [],
    statement: `write ${sink.kind} file ${sink.path}`,
    targetExists: existsSync(sink.path),
    incompatibility: null,
  };
}

/** A read's progress as the worker posts it: a read's rows are its answer's, so only its files and bytes count. */
function readProgress(onProgress: (progress: RawProgress) => void): (progress: ReadProgress) => void {
  return (progress) => onProgress({ rows: 0, ...progress });
}

/** Counts the data files a diff or a change feed reads, of the `toRead` it will, as its progress. */
function filesRead(toRead: { files: number; bytes: number }, onProgress?: (progress: ReadProgress) => void): (bytes: number) => void {
  const done = { files: 0, bytes: 0 };
  const report = () => onProgress?.({ files: done.files, filesTotal: toRead.files, bytes: done.bytes, bytesTotal: toRead.bytes });
  report();
  return (bytes) => {
    done.files += 1;
    done.bytes += bytes;
    report();
  };
}

export async function profileTask(
  tables: TableCache,
  request: ProfileRequest,
  signal: AbortSignal,
  onProgress?: (progress: ReadProgress) => void,
): Promise<TableProfile> {
  const source = await openSource(
    { tablePath: request.table.path, versionAsOf: request.table.versionAsOf, timestampAsOf: request.table.timestampAsOf },
    tables.open,
  );
  const { scanProfile, statisticsProfile } = await import('../delta/profile/column-profile.js');
  if (request.exact) return scanProfile(source.table, source.snapshot.version, signal, onProgress);
  return statisticsProfile(source.snapshot, await source.table.fileStats(source.snapshot));
}

export async function partitionsTask(tables: TableCache, ref: TableRef): Promise<PartitionSummary[]> {
  const { table, snapshot } = await snapshotAt(tables, ref);
  return partitionSummaries(snapshot, await table.fileStats(snapshot));
}

export async function diffTask(
  tables: TableCache,
  request: DiffRequest,
  signal: AbortSignal,
  onProgress?: (progress: ReadProgress) => void,
): Promise<DiffResult> {
  const table = await tables.open(request.path);
  const to = request.to ?? (await table.versionRange()).latest;
  const { checkPairKeys, diffSnapshots, pairedRows } = await import('../delta/change/snapshot-diff.js');
  const d = await diffSnapshots(table, request.from, to);
  checkPairKeys(d, request.pairBy ?? [], 'pairBy');
  const onFileRead = filesRead(d.toRead, onProgress);
  const rows = request.pairBy?.length ? pairedRows(d, request.pairBy, signal, onFileRead) : d.rows(signal, onFileRead);
  return {
    from: d.from,
    to: d.to,
    schema: d.schema,
    properties: d.properties,
    protocol: d.protocol,
    filesAdded: d.filesAdded,
    filesRemoved: d.filesRemoved,
    filesWithNewDeletions: d.filesWithNewDeletions,
    ...(await jsonRows(d.fields, d.rowSchema, rows, request.limit)),
    rowsFrom: d.rowsFrom, // after the rows: a feed too large to net falls back to files as they are read
  };
}

export async function changesTask(
  tables: TableCache,
  request: ChangeRowsRequest,
  signal: AbortSignal,
  onProgress?: (progress: ReadProgress) => void,
): Promise<ChangeRows> {
  const table = await tables.open(request.path);
  const to = request.to ?? (await table.versionRange()).latest;
  const { changeFeed } = await import('../delta/change/change-feed.js');
  const feed = await changeFeed(table, request.from, to);
  const onFileRead = filesRead(await feed.toRead(), onProgress);
  return { from: request.from, to, ...(await jsonRows(feed.fields, feed.schema, feed.rows(signal, onFileRead), request.limit)) };
}
