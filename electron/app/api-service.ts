// DeltaportApi over the engine, once, for both hosts: Electron's IPC handlers and `deltaport serve` call these
// methods after ipc-validation.ts has checked the payload. Every method answers a Result; nothing throws across.
// Reading a table's log stays here (async file reads); anything that decodes data (preview, plan, export) runs in
// a worker thread.
import type { ChangeRows, DeltaportApi, DiffResult, ExportRequest, PreviewResult, Result, TableRef } from '../../shared/api.js';
import { DeltaportError, toErrorValue } from '../../shared/errors.js';
import type { ExportPlan, SinkSpec } from '../../shared/sink-spec.js';
import { isSqlSink } from '../../shared/sink-spec.js';
import { TIMESTAMP_FORMS } from '../../shared/source-spec.js';
import type { TableProfile } from '../../shared/table-info.js';
import { parseTimestampAsOf } from '../../shared/timestamp.js';
import { partitionSummaries } from '../delta/profile/partitions.js';
import { DeltaTable } from '../delta/table.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { runSharedTask } from '../jobs/task-worker.js';
import type { AppState } from '../state/app-state.js';
import { withPassword } from '../state/secrets.js';

export interface NativeDialogs {
  chooseTableFolder(): Promise<string | null>;
  chooseSqliteFile(): Promise<string | null>;
}

export interface ApiServiceDeps {
  state: AppState;
  jobs: JobRunner;
  /** The sample table's path, written on first use. */
  sampleTable: () => Promise<string>;
  /** Absent in the browser host: there the user types paths. */
  dialogs?: NativeDialogs;
}

async function attempt<T>(work: () => T | Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    return { ok: false, error: toErrorValue(err) };
  }
}

/** Tables opened recently keep their parsed log, so moving through versions does not re-read it. */
const TABLE_CACHE_SIZE = 8;

export function createApiService(deps: ApiServiceDeps): DeltaportApi {
  const tables = new Map<string, Promise<DeltaTable>>();

  function table(tablePath: string): Promise<DeltaTable> {
    let cached = tables.get(tablePath);
    if (cached) tables.delete(tablePath);
    else {
      cached = DeltaTable.open(tablePath);
      cached.catch(() => tables.delete(tablePath));
    }
    tables.set(tablePath, cached);
    if (tables.size > TABLE_CACHE_SIZE) tables.delete(tables.keys().next().value!);
    return cached;
  }

  async function snapshotAt(ref: TableRef) {
    const t = await table(ref.path);
    const snapshot = await t.snapshot(timeTravel(ref));
    return { table: t, snapshot };
  }

  /** A password left empty in the form is taken from the saved profile it came from. */
  function withProfilePassword(sink: SinkSpec, profile: string | undefined): SinkSpec {
    return profile ? withPassword(sink, deps.state.profilePassword(profile)) : sink;
  }

  return {
    openTable: (req) =>
      attempt(async () => {
        const { table: t, snapshot } = await snapshotAt(req);
        const info = await t.tableInfo(snapshot);
        deps.state.addRecentTable(info.path);
        return info;
      }),
    history: (req) => attempt(async () => (await table(req.path)).history({ limit: req.limit })),
    resolveVersion: (req) =>
      attempt(async () => {
        const { table: t, snapshot } = await snapshotAt(req);
        return { version: snapshot.version, timestamp: await t.commitTime(snapshot.version) };
      }),
    preview: (req) => attempt(() => runSharedTask<PreviewResult>({ kind: 'preview', request: req })),
    profile: (req) => attempt(() => runSharedTask<TableProfile>({ kind: 'profile', request: req })),
    partitions: (req) =>
      attempt(async () => {
        const { table: t, snapshot } = await snapshotAt(req);
        return partitionSummaries(snapshot, await t.fileStats(snapshot));
      }),
    diff: (req) => attempt(() => runSharedTask<DiffResult>({ kind: 'diff', request: req })),
    changes: (req) => attempt(() => runSharedTask<ChangeRows>({ kind: 'changes', request: req })),
    planExport: (req) => attempt(() => runSharedTask<ExportPlan>({ kind: 'plan', request: exportRequest(req) })),
    // Loaded on first use, like the sinks: pg is not needed to look at a table.
    testConnection: (req) =>
      attempt(async () => {
        const sink = withProfilePassword(req.sink, req.profile);
        if (!isSqlSink(sink)) throw new DeltaportError('VALIDATION', `a ${sink.kind} sink has no connection to test`);
        return (await import('../sinks/connection-test.js')).testConnection(sink);
      }),
    startExport: (req) => attempt(() => deps.jobs.start(exportRequest(req))),
    cancelJob: (req) => attempt(() => deps.jobs.cancel(req.id)),
    listJobs: () => attempt(() => deps.jobs.list()),
    recentTables: () => attempt(() => deps.state.recentTables()),
    sampleTable: () => attempt(async () => ({ path: await deps.sampleTable() })),
    listProfiles: () => attempt(() => deps.state.listProfiles()),
    saveProfile: (req) => attempt(() => deps.state.saveProfile(req.name, req.sink)),
    deleteProfile: (req) =>
      attempt(() => {
        if (!deps.state.deleteProfile(req.name)) throw new DeltaportError('NOT_FOUND', `no saved profile named "${req.name}"`);
        return null;
      }),
    chooseTableFolder: () => attempt(() => deps.dialogs?.chooseTableFolder() ?? null),
    chooseSqliteFile: () => attempt(() => deps.dialogs?.chooseSqliteFile() ?? null),
  };

  function exportRequest(req: ExportRequest): ExportRequest {
    return { source: req.source, sink: withProfilePassword(req.sink, req.profile) };
  }
}

function timeTravel(ref: TableRef): { version?: number; timestampMs?: number } {
  if (ref.timestampAsOf === undefined) return { version: ref.versionAsOf };
  const timestampMs = parseTimestampAsOf(ref.timestampAsOf);
  if (timestampMs === null) {
    throw new DeltaportError('VALIDATION', `"${ref.timestampAsOf}" is not a timestamp; use one of: ${TIMESTAMP_FORMS}`);
  }
  return { version: ref.versionAsOf, timestampMs };
}
