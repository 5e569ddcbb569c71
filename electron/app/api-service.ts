// DeltaportApi over the engine, once, for both hosts: Electron's IPC handlers and `deltaport serve` call these
// methods after ipc-validation.ts has checked the payload. Every method answers a Result; nothing throws across.
// Nothing that reads a table runs on this thread: opening one, its history, time travel, previews and plans go to the
// shared worker thread (which keeps the tables it read, parsed), exports to a thread each. A 10,000-commit log
// replayed here would stall the window or the HTTP host for as long.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ChangeRows, DeltaportApi, DiffResult, ExportRequest, PreviewResult, Result } from '../../shared/api.js';
import { isChangeSource } from '../../shared/change-source.js';
import { DeltaportError, toErrorValue } from '../../shared/errors.js';
import type { ExportPlan, SinkSpec } from '../../shared/sink-spec.js';
import { isSqlSink, scrubUrl, type PostgresConnection } from '../../shared/sink-spec.js';
import type { CommitSummary, PartitionSummary, TableInfo, TableProfile } from '../../shared/table-info.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { DEFAULT_MEMORY_LIMIT } from '../sql/limits.js';
import type { SqlSession } from '../sql/sql-session.js';
import { runSharedTask, type SharedTaskControl } from '../jobs/task-worker.js';
import type { WorkerTask } from '../jobs/worker-protocol.js';
import type { AppState } from '../state/app-state.js';
import { canonicalLocation, isCloudLocation } from '../storage/storage.js';
import { withPassword } from '../state/secrets.js';
import { browseFolder } from './folder-browse.js';
import { browseSavedCatalog, CATALOG_OPTION_INFO } from './catalog-connections.js';
import { STORAGE_OPTION_INFO } from './storage-connection-rules.js';
import { RunningReads } from './running-reads.js';
import type { StorageConnections } from './storage-connections.js';

export interface NativeDialogs {
  chooseTableFolder(): Promise<string | null>;
  chooseSqliteFile(): Promise<string | null>;
  chooseDuckdbFile(): Promise<string | null>;
  /** Opens the file manager at this file, selected. */
  showInFolder?(file: string): void;
}

export interface ApiServiceDeps {
  state: AppState;
  jobs: JobRunner;
  /** The saved storage connections, which every read goes through; the job runner's too. */
  connections: StorageConnections;
  /** The sample table's path, written on first use. */
  sampleTable: () => Promise<string>;
  /** Absent in the browser host: there the user types paths. */
  dialogs?: NativeDialogs;
  /** Told after a table opened and was added to the recent tables (the desktop app's Open Recent menu). */
  onTableOpened?: (tablePath: string) => void;
  /** Where SQL queries spill what does not fit in memory: a folder of the host's data folder, which outlives the
   * process (a folder of the system's temporary one would be left behind by every process that ran a query). */
  sqlTempDirectory: string;
}

async function attempt<T>(work: () => T | Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    return { ok: false, error: toErrorValue(err) };
  }
}

export function createApiService(deps: ApiServiceDeps): DeltaportApi {
  /** A task on the shared worker, its tables read through the storage connections as they are now. */
  const shared = <T>(task: WorkerTask, control?: SharedTaskControl): Promise<T> =>
    runSharedTask<T>(task, deps.connections.settings(), control);
  const reads = new RunningReads();
  /** A read the caller may cancel by its id: the cancel stops the task in the worker; its scan reports progress. */
  const cancellable = <T>(readId: string | undefined, task: WorkerTask): Promise<T> =>
    reads.run(readId, ({ signal, onProgress }) =>
      shared<T>(task, {
        signal,
        onProgress: (p) => onProgress({ files: p.files, filesTotal: p.filesTotal, bytes: p.bytes, bytesTotal: p.bytesTotal }),
      }),
    );

  /** A password left empty in the form is taken from the saved profile it came from. */
  function withProfilePassword(sink: SinkSpec, profile: string | undefined): SinkSpec {
    return profile ? withPassword(sink, deps.state.profilePassword(profile)) : sink;
  }

  // DuckDB is loaded with the first query: nothing else needs it.
  let sql: Promise<SqlSession> | null = null;
  const sqlSession = () =>
    (sql ??= import('../sql/sql-session.js').then(
      ({ SqlSession }) =>
        new SqlSession(
          {
            memoryLimit: DEFAULT_MEMORY_LIMIT,
            tempDirectory: deps.sqlTempDirectory,
          },
          deps.connections.openTable,
        ),
    ));

  return {
    openTable: (req) =>
      attempt(async () => {
        const info = await shared<TableInfo>({ kind: 'open', request: req });
        deps.state.addRecentTable(info.path);
        deps.onTableOpened?.(info.path);
        return info;
      }),
    history: (req) => attempt(() => cancellable<CommitSummary[]>(req.readId, { kind: 'history', request: req })),
    resolveVersion: (req) => attempt(() => shared<{ version: number; timestamp: number }>({ kind: 'resolve', request: req })),
    latestVersion: (req) => attempt(() => shared<{ latest: number }>({ kind: 'latest', request: req })),
    preview: (req) => attempt(() => cancellable<PreviewResult>(req.readId, { kind: 'preview', request: req })),
    profile: (req) => attempt(() => cancellable<TableProfile>(req.readId, { kind: 'profile', request: req })),
    partitions: (req) => attempt(() => shared<PartitionSummary[]>({ kind: 'partitions', request: req })),
    diff: (req) => attempt(() => cancellable<DiffResult>(req.readId, { kind: 'diff', request: req })),
    changes: (req) => attempt(() => cancellable<ChangeRows>(req.readId, { kind: 'changes', request: req })),
    // DuckDB works on threads of its own; the snapshots it is fed are read here, as the cancel must reach them. A
    // query is a read like the others: its id is a read id.
    sql: (req) => attempt(async () => reads.run(req.queryId, async ({ signal }) => (await sqlSession()).run(req, signal))),
    cancelSql: (req) => attempt(() => ({ cancelled: reads.cancel(req.queryId) })),
    cancelRead: (req) => attempt(() => ({ cancelled: reads.cancel(req.readId) })),
    readProgress: (req) => attempt(() => reads.progress(req.readId)),
    planExport: (req) => attempt(() => shared<ExportPlan>({ kind: 'plan', request: exportRequest(req) })),
    // Loaded on first use, like the sinks: pg is not needed to look at a table.
    testConnection: (req) =>
      attempt(async () => {
        const sink = withProfilePassword(req.sink, req.profile);
        if (!isSqlSink(sink)) throw new DeltaportError('VALIDATION', `a ${sink.kind} sink has no connection to test`);
        return (await import('../sinks/connection-test.js')).testConnection(sink);
      }),
    // The job needs no password (it reads credentials from its environment), so no profile is consulted.
    exportSparkJob: (req) =>
      attempt(async () => {
        const { sparkJobFor, saveSparkJob } = await import('../handoff/emit-spark-job.js');
        const script = await sparkJobFor(req.source, req.sink, deps.connections.openTable);
        return { script, savedTo: req.savePath === undefined ? null : await saveSparkJob(script, req.savePath, deps.connections.storage) };
      }),
    // Changes are checked against the table before they are queued: a range without a feed, or a key that is no
    // column, is refused at once rather than as a failed job.
    startExport: (req) =>
      attempt(async () => {
        if (isChangeSource(req.source)) await shared<null>({ kind: 'checkChanges', request: req.source });
        return deps.jobs.start(await pinnedVersion(exportRequest(req), shared));
      }),
    cancelJob: (req) => attempt(() => deps.jobs.cancel(req.id)),
    retryJob: (req) => attempt(() => deps.jobs.retry(req.id, req.choice, exportRequest)),
    listJobs: () => attempt(() => deps.jobs.list()),
    revealTarget: (req) =>
      attempt(async () => {
        const job = deps.jobs.list().find((j) => j.id === req.id);
        if (!job) throw new DeltaportError('NOT_FOUND', `no job ${req.id}`);
        const { sink } = job.request;
        if (sink.kind === 'postgres' || sink.kind === 'mysql')
          return { shown: false, location: `${databaseLocation(sink.kind, sink.connection)}, table ${sink.table}` };
        // A file in a bucket has no folder to show: its URL is the location.
        if (isCloudLocation(sink.path)) return { shown: false, location: canonicalLocation(sink.path) };
        const file = path.resolve(sink.path);
        const exists = (await stat(file).catch(() => null)) !== null;
        const show = deps.dialogs?.showInFolder;
        if (show && exists) show(file);
        return { shown: Boolean(show && exists), location: file };
      }),
    recentTables: () => attempt(() => deps.state.recentTables()),
    sampleTable: () => attempt(async () => ({ path: await deps.sampleTable() })),
    listProfiles: () => attempt(() => deps.state.listProfiles()),
    saveProfile: (req) => attempt(() => deps.state.saveProfile(req.name, req.sink)),
    deleteProfile: (req) =>
      attempt(() => {
        if (!deps.state.deleteProfile(req.name)) throw new DeltaportError('NOT_FOUND', `no saved profile named "${req.name}"`);
        return null;
      }),
    listStorageConnections: () =>
      attempt(() => ({
        connections: deps.state.storageConnections.list(),
        options: STORAGE_OPTION_INFO,
        secretsSaved: deps.state.savesSecrets,
      })),
    saveStorageConnection: (req) => attempt(() => deps.connections.save(req)),
    deleteStorageConnection: (req) =>
      attempt(() => {
        deps.connections.delete(req.name);
        return null;
      }),
    chooseTableFolder: () => attempt(() => deps.dialogs?.chooseTableFolder() ?? null),
    chooseSqliteFile: () => attempt(() => deps.dialogs?.chooseSqliteFile() ?? null),
    chooseDuckdbFile: () => attempt(() => deps.dialogs?.chooseDuckdbFile() ?? null),
    // Names only, from listings: cheap enough for this thread, and the saved connections give the buckets' clients.
    browse: (req) => attempt(() => browseFolder(deps.connections.storage, req)),
    listCatalogConnections: () =>
      attempt(() => ({
        connections: deps.state.catalogConnections.list(),
        options: CATALOG_OPTION_INFO,
        secretsSaved: deps.state.savesSecrets,
      })),
    saveCatalogConnection: (req) => attempt(() => deps.connections.saveCatalog(req)),
    deleteCatalogConnection: (req) =>
      attempt(() => {
        deps.connections.deleteCatalog(req.name);
        return null;
      }),
    browseCatalog: (req) => attempt(() => browseSavedCatalog(deps.state, req)),
  };

  function exportRequest(req: ExportRequest): ExportRequest {
    return { ...req, sink: withProfilePassword(req.sink, req.profile) };
  }
}

/** A snapshot export into a SQL table reads the version that is the latest now, also when it is retried after the
 * table moved on: its Retry resumes inside that snapshot. */
async function pinnedVersion(req: ExportRequest, shared: <T>(task: WorkerTask) => Promise<T>): Promise<ExportRequest> {
  const { source } = req;
  if (isChangeSource(source) || !isSqlSink(req.sink) || source.versionAsOf !== undefined || source.timestampAsOf !== undefined) return req;
  const { version } = await shared<{ version: number }>({ kind: 'resolve', request: { path: source.tablePath } });
  return { ...req, source: { ...source, versionAsOf: version } };
}

/** A PostgreSQL target as a person would name it, never with its password. */
function databaseLocation(kind: 'postgres' | 'mysql', c: PostgresConnection): string {
  if (c.url) return scrubUrl(c.url);
  return `${kind}://${c.user ? `${c.user}@` : ''}${c.host ?? 'localhost'}${c.port ? `:${c.port}` : ''}/${c.database ?? ''}`;
}
