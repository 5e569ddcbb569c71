// The contract between the renderer and the main process. Electron's preload bridge and the HTTP client of
// `deltaport serve` both implement DeltaportApi; the main process implements it once over the engine.
import type { DeltaType } from './delta-schema.js';
import type { ErrorValue } from './errors.js';
import type { ConnectionReport, ExportPlan, SinkSpec } from './sink-spec.js';
import type { DeltaSourceSpec } from './source-spec.js';
import type { CommitSummary, TableInfo } from './table-info.js';

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorValue };

/** A JSON-safe cell value: long/decimal values beyond 2^53 travel as strings, binary as base64, nested as JSON. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface TableRef {
  path: string;
  versionAsOf?: number;
  timestampAsOf?: string;
}

export interface PreviewRequest {
  source: DeltaSourceSpec;
  limit: number;
}

export interface PreviewColumn {
  name: string;
  type: DeltaType;
  nullable: boolean;
}

export interface PreviewResult {
  version: number;
  columns: PreviewColumn[];
  rows: JsonValue[][];
  /** True when the snapshot has more rows than were returned. */
  truncated: boolean;
}

export interface ExportRequest {
  source: DeltaSourceSpec;
  sink: SinkSpec;
  /** A saved profile whose stored password fills in a PostgreSQL sink given without one. */
  profile?: string;
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobProgress {
  rows: number;
  files: number;
  filesTotal: number;
  bytes: number;
  bytesTotal: number;
  rowsPerSec: number;
  etaSeconds: number | null;
  /** 0..100, never decreasing. */
  percent: number;
}

export interface JobInfo {
  id: string;
  kind: 'export';
  /** e.g. "people v3 -> sqlite:/tmp/out.db (people)". */
  title: string;
  request: ExportRequest;
  state: JobState;
  progress: JobProgress;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  error: ErrorValue | null;
  /** Rows committed; resumedAfterRows when an exactly-once job went on from an earlier run's last commit. */
  result: { rows: number; seconds: number; rowsPerSec: number; resumedAfterRows?: number } | null;
}

export type JobEvent = { type: 'job'; job: JobInfo };

export interface RecentTable {
  path: string;
  openedAt: number;
}

export interface SinkProfile {
  name: string;
  /** Saved PostgreSQL passwords are stored encrypted and come back as "" with hasPassword true. */
  sink: SinkSpec;
  hasPassword: boolean;
  /** A password was given but not kept, because no OS encryption is available (e.g. in `deltaport serve`). */
  passwordNotSaved: boolean;
}

export interface DeltaportApi {
  openTable(req: TableRef): Promise<Result<TableInfo>>;
  history(req: { path: string; limit?: number }): Promise<Result<CommitSummary[]>>;
  /** Which version a version or timestamp resolves to, for the time-travel fields as the user types. */
  resolveVersion(req: TableRef): Promise<Result<{ version: number; timestamp: number }>>;
  preview(req: PreviewRequest): Promise<Result<PreviewResult>>;
  planExport(req: ExportRequest): Promise<Result<ExportPlan>>;
  testConnection(req: { sink: SinkSpec; profile?: string }): Promise<Result<ConnectionReport>>;
  startExport(req: ExportRequest): Promise<Result<JobInfo>>;
  cancelJob(req: { id: string }): Promise<Result<JobInfo>>;
  listJobs(): Promise<Result<JobInfo[]>>;
  recentTables(): Promise<Result<RecentTable[]>>;
  sampleTable(): Promise<Result<{ path: string }>>;
  listProfiles(): Promise<Result<SinkProfile[]>>;
  saveProfile(req: { name: string; sink: SinkSpec }): Promise<Result<SinkProfile>>;
  deleteProfile(req: { name: string }): Promise<Result<null>>;
  /** Native folder/file pickers; in a browser these answer ok with null (the user types a path instead). */
  chooseTableFolder(): Promise<Result<string | null>>;
  chooseSqliteFile(): Promise<Result<string | null>>;
}

export type ApiMethod = keyof DeltaportApi;

export const API_METHODS = [
  'openTable',
  'history',
  'resolveVersion',
  'preview',
  'planExport',
  'testConnection',
  'startExport',
  'cancelJob',
  'listJobs',
  'recentTables',
  'sampleTable',
  'listProfiles',
  'saveProfile',
  'deleteProfile',
  'chooseTableFolder',
  'chooseSqliteFile',
] as const satisfies readonly ApiMethod[];

/** Job events reach the renderer through a subscription (IPC event or server-sent events), not a call. */
export interface DeltaportEvents {
  onJobEvent(listener: (event: JobEvent) => void): () => void;
}
