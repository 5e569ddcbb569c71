// The contract between the renderer and the main process. Electron's preload bridge and the HTTP client of
// `deltaport serve` both implement DeltaportApi; the main process implements it once over the engine.
import type { ExportSource } from './change-source.js';
import type { BrowsePage } from './browse.js';
import type { CatalogKind } from './catalog-name.js';
import type { DeltaType } from './delta-schema.js';
import type { ErrorValue } from './errors.js';
import type { ConnectionReport, ExportPlan, SinkSpec } from './sink-spec.js';
import type { SortKey } from './sort-spec.js';
import type { DeltaSourceSpec } from './source-spec.js';
import type { StoreKind } from './store-location.js';
import type { CommitSummary, FilterSkipping, PartitionSummary, TableInfo, TableProfile, VersionDiff } from './table-info.js';

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorValue };

/** A JSON-safe cell value: long/decimal values beyond 2^53 travel as strings, binary as base64, nested as JSON. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface TableRef {
  path: string;
  versionAsOf?: number;
  timestampAsOf?: string;
}

/** The most rows one preview returns (the grid holds them all in memory). */
export const PREVIEW_MAX_ROWS = 100_000;
/** The most rows a grid loads page by page: each page reads and drops the rows before it. */
export const PREVIEW_MAX_OFFSET = 1_000_000;

/** A read the window may cancel: the caller names it, and a newer read under the same name cancels it (the newest
 * request wins), as cancelRead does. Its progress, where its scan has any, is readProgress's. */
export interface CancellableRead {
  readId?: string;
}

/** How far a running read has come: data files read, and their bytes, of those it reads in all. */
export interface ReadProgress {
  files: number;
  filesTotal: number;
  bytes: number;
  bytesTotal: number;
}

export interface PreviewRequest extends CancellableRead {
  source: DeltaSourceSpec;
  limit: number;
  /** Rows of the same read to pass over first: the next page starts where the rows loaded end. */
  offset?: number;
  /** The first rows in this order over the whole snapshot (after the filter); absent = file order. */
  orderBy?: SortKey[];
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
  /** With a filter (source.filter): the files it let the read skip. */
  skipping?: FilterSkipping | null;
  /** With orderBy: the order, and how many rows it was taken over (every row of the snapshot the filter kept). */
  order?: { keys: SortKey[]; rowsSorted: number } | null;
}

/** A column profile: from the log's statistics, or with exact an exact scan. */
export interface ProfileRequest extends CancellableRead {
  table: TableRef;
  exact?: boolean;
}

/** Rows that changed between versions `from` and `to` (default: the latest). */
export interface ChangeRowsRequest extends CancellableRead {
  path: string;
  from: number;
  to?: number;
  limit: number;
}

export interface ChangeRows {
  from: number;
  to: number;
  /** The table's columns, then the change columns (_change; or _change_type, _commit_version, _commit_timestamp). */
  columns: PreviewColumn[];
  rows: JsonValue[][];
  truncated: boolean;
}

/** A diff's rows; with pairBy, a removed and an added row with the same values in those columns become
 * 'updated_from' and 'updated_to' side by side (and vanish when nothing else changed). */
export interface DiffRequest extends ChangeRowsRequest {
  pairBy?: string[];
}

export interface DiffResult extends ChangeRows, VersionDiff {}

/** A SQL query over snapshots (electron/sql/): the tables by the names the query uses (the app names the current
 * snapshot `t`); a name followed by @ and a version or a quoted timestamp in the query is that table then. */
export interface SqlRequest {
  sql: string;
  tables: Record<string, TableRef>;
  limit: number;
  /** The caller's name for this run, for cancelSql; a new run under the same id cancels the one before. */
  queryId?: string;
}

export interface SqlRows {
  columns: PreviewColumn[];
  rows: JsonValue[][];
  truncated: boolean;
  /** The snapshots the query read, with the rows of each read into the query. */
  snapshots: { name: string; path: string; version: number; rows: number }[];
  seconds: number;
}

export interface ExportRequest {
  /** A snapshot, or a table's changes (a diff's rows, a change feed's: shared/change-source.ts). */
  source: ExportSource;
  sink: SinkSpec;
  /** A saved profile whose stored password fills in a PostgreSQL sink given without one. */
  profile?: string;
}

/** Spark reads snapshots: a hand-off takes no change source. */
export interface SparkJobRequest extends Omit<ExportRequest, 'source'> {
  source: DeltaSourceSpec;
  /** Where to save the script (absolute); absent = only return it. */
  savePath?: string;
}

export interface SparkJobResult {
  /** The PySpark script (credentials are never in it). */
  script: string;
  savedTo: string | null;
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobProgress {
  /** Rows read and handed to the sink in this run. */
  rows: number;
  /** SQL sinks: rows committed to the target, earlier runs of an exactly-once job included. */
  committedRows?: number;
  /** SQL sinks: an exactly-once rerun found this many rows committed by earlier runs and resumed after them. */
  resumedFromRow?: number;
  files: number;
  filesTotal: number;
  bytes: number;
  bytesTotal: number;
  rowsPerSec: number;
  etaSeconds: number | null;
  /** 0..100, never decreasing. */
  percent: number;
  /** With a filter (source.filter): the files it let the export skip; files/filesTotal count the others. */
  skipping?: FilterSkipping;
}

export interface JobInfo {
  id: string;
  kind: 'export';
  /** e.g. "people v3 -> sqlite:/tmp/out.db (people)", "people v3→v5 diff -> sqlite:/tmp/out.db (people_diff)". */
  title: string;
  request: ExportRequest;
  state: JobState;
  progress: JobProgress;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  error: ErrorValue | null;
  result: ExportOutcome | null;
}

/** What an export run did, as the CLI's summary line and the jobs list report it. */
export interface ExportOutcome {
  /** Rows this run committed. */
  rows: number;
  seconds: number;
  rowsPerSec: number;
  /** Set when an exactly-once job went on from an earlier run: the rows that run had committed. */
  resumedAfterRows?: number;
  /** With a filter: the files it let the export skip. */
  skipping?: FilterSkipping;
}

/** The outcome of a run that committed these rows in these seconds (a run too quick to time counts as one second). */
export function exportOutcome(rows: number, seconds: number, resumedAfterRows?: number): ExportOutcome {
  const outcome = { rows, seconds, rowsPerSec: seconds > 0 ? rows / seconds : rows };
  return resumedAfterRows === undefined ? outcome : { ...outcome, resumedAfterRows };
}

/** What Retry does when its job cannot resume after the rows it committed: write them all again, or replace. */
export type RetryChoice = 'append' | 'replace';

/** Retry's answer: the job started again (resuming where it can), or a question to put to the user first. */
export type RetryAnswer =
  | { started: JobInfo }
  | {
      ask: {
        /** Why the job cannot resume, in a user's words. */
        reason: string;
        /** Rows the target holds from the job, null when the record cannot say (the app quit during the job). */
        rowsInTarget: number | null;
      };
    };

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

/** Client settings for the tables under a cloud URL prefix, saved in the app (see the CLI's --storage-option). */
export interface StorageConnection {
  name: string;
  /** A bucket or container (s3://bucket, gs://bucket, az://container, abfss://container@account.dfs.core.windows.net)
   * or a whole store (s3://, gs://, az://). */
  prefix: string;
  /** The options that are not secret, by name. */
  options: Record<string, string>;
  /** The secret options that are set; their values never leave the host. */
  secretsSet: string[];
  /** Secrets were given but not written to disk, as no OS encryption is available (e.g. in `deltaport serve`):
   * they hold until the host stops. */
  secretsNotSaved: boolean;
}

export interface StorageConnectionInput {
  name: string;
  prefix: string;
  /** Option values by name; a secret left out keeps the value saved before, a secret given as '' is forgotten. */
  options: Record<string, string>;
}

/** One option a connection may set: which stores it applies to and whether it is secret. */
export interface StorageOptionInfo {
  name: string;
  kinds: StoreKind[];
  secret: boolean;
  about: string;
}

export interface StorageConnections {
  connections: StorageConnection[];
  options: StorageOptionInfo[];
  /** False where secrets cannot be encrypted: they are then kept for this session only. */
  secretsSaved: boolean;
}

/** One level of a local folder or a cloud prefix for the navigator (shared/browse.ts). */
export interface BrowseRequest {
  /** An absolute folder path or a cloud URL (s3://bucket/prefix, gs://, az://, abfss://). */
  location: string;
  /** The nextPage of the page before. */
  page?: string;
  /** Only names that start with this. */
  filter?: string;
}

/** A catalog saved in the app (see the CLI's --catalog-option): its tables are named
 * uc://<name>/catalog.schema.table or glue://<name>/database/table. */
export interface CatalogConnection {
  name: string;
  kind: CatalogKind;
  /** The options that are not secret, by name (endpoint, region, profile). */
  options: Record<string, string>;
  /** The secret options that are set (token); their values never leave the host. */
  secretsSet: string[];
  /** Secrets were given but not written to disk, as no OS encryption is available: they hold until the host stops. */
  secretsNotSaved: boolean;
}

export interface CatalogConnectionInput {
  name: string;
  kind: CatalogKind;
  /** Option values by name; a secret left out keeps the value saved before, a secret given as '' is forgotten. */
  options: Record<string, string>;
}

/** One option a catalog connection may set: which catalogs it applies to and whether it is secret. */
export interface CatalogOptionInfo {
  name: string;
  kinds: CatalogKind[];
  secret: boolean;
  about: string;
}

export interface CatalogConnections {
  connections: CatalogConnection[];
  options: CatalogOptionInfo[];
  /** False where secrets cannot be encrypted: they are then kept for this session only. */
  secretsSaved: boolean;
}

/** A place in a saved catalog: uc://<connection>, uc://<connection>/main, uc://<connection>/main.sales,
 * glue://<connection>, glue://<connection>/sales. */
export interface BrowseCatalogRequest {
  location: string;
  /** Where the page starts: a previous page's nextPage. */
  page?: string;
  /** Only entries whose name holds this text, in any case. */
  filter?: string;
}

export interface DeltaportApi {
  openTable(req: TableRef): Promise<Result<TableInfo>>;
  history(req: { path: string; limit?: number } & CancellableRead): Promise<Result<CommitSummary[]>>;
  /** Which version a version or timestamp resolves to, for the time-travel fields as the user types. */
  resolveVersion(req: TableRef): Promise<Result<{ version: number; timestamp: number }>>;
  /** The table's newest version, from a listing of its log only: cheap enough to poll while the table is open. */
  latestVersion(req: { path: string }): Promise<Result<{ latest: number }>>;
  preview(req: PreviewRequest): Promise<Result<PreviewResult>>;
  profile(req: ProfileRequest): Promise<Result<TableProfile>>;
  partitions(req: TableRef): Promise<Result<PartitionSummary[]>>;
  diff(req: DiffRequest): Promise<Result<DiffResult>>;
  changes(req: ChangeRowsRequest): Promise<Result<ChangeRows>>;
  sql(req: SqlRequest): Promise<Result<SqlRows>>;
  /** Interrupts the query running under this id; answers whether one was. */
  cancelSql(req: { queryId: string }): Promise<Result<{ cancelled: boolean }>>;
  /** Cancels the read running under this id (its work in the worker stops); answers whether one was. */
  cancelRead(req: { readId: string }): Promise<Result<{ cancelled: boolean }>>;
  /** How far the read running under this id has come; null when none is running or it reports no progress. */
  readProgress(req: { readId: string }): Promise<Result<ReadProgress | null>>;
  planExport(req: ExportRequest): Promise<Result<ExportPlan>>;
  testConnection(req: { sink: SinkSpec; profile?: string }): Promise<Result<ConnectionReport>>;
  /** The same export as a PySpark script for Spark with Delta Lake; nothing is exported. */
  exportSparkJob(req: SparkJobRequest): Promise<Result<SparkJobResult>>;
  startExport(req: ExportRequest): Promise<Result<JobInfo>>;
  cancelJob(req: { id: string }): Promise<Result<JobInfo>>;
  /** Runs a failed or cancelled export again: after the rows it committed where it can resume, else only once the
   * user chose (append them all again, or replace what the target holds). */
  retryJob(req: { id: string; choice?: RetryChoice }): Promise<Result<RetryAnswer>>;
  listJobs(): Promise<Result<JobInfo[]>>;
  /** Shows a job's target file in the system's file manager where there is one (the desktop app); always answers
   * where the target is, for a browser to show or copy. */
  revealTarget(req: { id: string }): Promise<Result<{ shown: boolean; location: string }>>;
  recentTables(): Promise<Result<RecentTable[]>>;
  sampleTable(): Promise<Result<{ path: string }>>;
  listProfiles(): Promise<Result<SinkProfile[]>>;
  saveProfile(req: { name: string; sink: SinkSpec }): Promise<Result<SinkProfile>>;
  deleteProfile(req: { name: string }): Promise<Result<null>>;
  listStorageConnections(): Promise<Result<StorageConnections>>;
  saveStorageConnection(req: StorageConnectionInput): Promise<Result<StorageConnection>>;
  deleteStorageConnection(req: { name: string }): Promise<Result<null>>;
  listCatalogConnections(): Promise<Result<CatalogConnections>>;
  saveCatalogConnection(req: CatalogConnectionInput): Promise<Result<CatalogConnection>>;
  deleteCatalogConnection(req: { name: string }): Promise<Result<null>>;
  /** One level of a saved catalog, a page at a time: catalogs and schemas as folders, Delta tables as tables named
   * through the connection, other tables with their format. */
  browseCatalog(req: BrowseCatalogRequest): Promise<Result<BrowsePage>>;
  /** Native folder/file pickers; in a browser these answer ok with null (the user types a path instead). */
  chooseTableFolder(): Promise<Result<string | null>>;
  chooseSqliteFile(): Promise<Result<string | null>>;
  chooseDuckdbFile(): Promise<Result<string | null>>;
  /** What a folder or a bucket's prefix holds, a page at a time; a folder that holds a Delta table answers the table
   * itself (one entry of kind 'table' at the location asked, its latest version as detail). */
  browse(req: BrowseRequest): Promise<Result<BrowsePage>>;
}

export type ApiMethod = keyof DeltaportApi;

export const API_METHODS = [
  'openTable',
  'history',
  'resolveVersion',
  'latestVersion',
  'preview',
  'profile',
  'partitions',
  'diff',
  'changes',
  'sql',
  'cancelSql',
  'planExport',
  'testConnection',
  'exportSparkJob',
  'startExport',
  'cancelJob',
  'retryJob',
  'listJobs',
  'revealTarget',
  'recentTables',
  'sampleTable',
  'listProfiles',
  'saveProfile',
  'deleteProfile',
  'listStorageConnections',
  'saveStorageConnection',
  'deleteStorageConnection',
  'chooseTableFolder',
  'chooseSqliteFile',
  'cancelRead',
  'readProgress',
  'chooseDuckdbFile',
  'browse',
  'listCatalogConnections',
  'saveCatalogConnection',
  'deleteCatalogConnection',
  'browseCatalog',
] as const satisfies readonly ApiMethod[];

/** Job events reach the renderer through a subscription (IPC event or server-sent events), not a call. */
export interface DeltaportEvents {
  onJobEvent(listener: (event: JobEvent) => void): () => void;
}
