// Who may call the API and with what. Pure checks shared by the Electron IPC handlers and the HTTP host: every
// payload is rebuilt from its known fields (unknown keys refused, sizes bounded, paths absolute) before any handler
// sees it, so nothing reaches the disk or a database unchecked.
import os from 'node:os';
import path from 'node:path';
import type { ApiMethod, ChangeRowsRequest, DeltaportApi, DiffRequest, ExportRequest, PreviewRequest, TableRef } from '../../shared/api.js';
import type { StorageConnectionInput } from '../../shared/api.js';
import { API_METHODS, PREVIEW_MAX_ROWS } from '../../shared/api.js';
import { DeltaportError } from '../../shared/errors.js';
import type { ExecutionOptions, PostgresConnection, SinkSpec, SqlTargetOptions, WriteMode } from '../../shared/sink-spec.js';
import { DEFAULT_EXECUTION, EXECUTION_MAX, validateSinkSpec } from '../../shared/sink-spec.js';
import type { SortKey } from '../../shared/sort-spec.js';
import type { DeltaSourceSpec, OptionValue } from '../../shared/source-spec.js';
import { validateSourceSpec } from '../../shared/source-spec.js';
import { isStoreUrl, parseStoreLocation } from '../../shared/store-location.js';
import { isAppUrl } from './security.js';
import { connectionOptionProblems, connectionPrefix } from './storage-connection-rules.js';
import { resolveTableLocation } from './table-location.js';

export const LIMITS = {
  path: 4096,
  name: 200,
  text: 1000,
  sql: 100_000,
  filter: 100_000,
  columns: 10_000,
  options: 100,
  previewRows: PREVIEW_MAX_ROWS,
  historyRows: 1_000_000,
  batchSize: EXECUTION_MAX.batchSize,
  batchIntervalMs: EXECUTION_MAX.batchIntervalMs,
  maxRetries: EXECUTION_MAX.maxRetries,
  timeoutMs: 600_000,
} as const;

export interface SenderInfo {
  /** URL of the frame that sent the message, or null when it is gone. */
  frameUrl: string | null;
  isMainFrame: boolean;
  /** The frame belongs to the app's own window (not a devtools or stray webContents). */
  isOurWindow: boolean;
}

/** Only the main frame of our window, showing one of our own pages, may call the API. */
export function isTrustedSender(sender: SenderInfo): boolean {
  return sender.isOurWindow && sender.isMainFrame && sender.frameUrl !== null && isAppUrl(sender.frameUrl);
}

export function isApiMethod(name: string): name is ApiMethod {
  return (API_METHODS as readonly string[]).includes(name);
}

function invalid(at: string, problem: string): never {
  throw new DeltaportError('VALIDATION', `${at} ${problem}`);
}

type Obj = Record<string, unknown>;

function record(v: unknown, at: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) invalid(at, 'must be an object');
  return v as Obj;
}

function object(v: unknown, at: string, allowed: readonly string[]): Obj {
  record(v, at);
  for (const key of Object.keys(v as Obj)) if (!allowed.includes(key)) invalid(at, `has an unknown field "${key.slice(0, 50)}"`);
  return v as Obj;
}

function string(v: unknown, at: string, max: number = LIMITS.text): string {
  if (typeof v !== 'string') invalid(at, 'must be a string');
  if (v.length > max) invalid(at, `must be at most ${max} characters`);
  return v;
}

function nonEmptyString(v: unknown, at: string, max?: number): string {
  const s = string(v, at, max);
  if (s.trim() === '') invalid(at, 'must not be empty');
  return s;
}

function absolutePath(v: unknown, at: string): string {
  const s = nonEmptyString(v, at, LIMITS.path);
  if (s.includes('\0')) invalid(at, 'must not contain NUL');
  if (!path.isAbsolute(s)) invalid(at, `must be an absolute path (got "${s.slice(0, 200)}")`);
  return s;
}

/** Where a table or an output file is: an absolute local path or a cloud URL (s3://, gs://, az://, abfss://). */
function tableLocation(v: unknown, at: string): string {
  const s = nonEmptyString(v, at, LIMITS.path);
  if (!isStoreUrl(s)) return absolutePath(s, at);
  try {
    parseStoreLocation(s);
  } catch (err) {
    invalid(at, (err as Error).message);
  }
  return s;
}

function integer(v: unknown, at: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) invalid(at, 'must be an integer');
  if (v < min || v > max) invalid(at, `must be between ${min} and ${max}`);
  return v;
}

function boolean(v: unknown, at: string): boolean {
  if (typeof v !== 'boolean') invalid(at, 'must be true or false');
  return v;
}

function stringList(v: unknown, at: string): string[] {
  if (!Array.isArray(v)) invalid(at, 'must be a list of names');
  if (v.length > LIMITS.columns) invalid(at, `must have at most ${LIMITS.columns} entries`);
  return v.map((item, i) => string(item, `${at}[${i}]`, LIMITS.name * 5));
}

function oneOf<T extends string>(v: unknown, at: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) invalid(at, `must be one of ${values.join(', ')}`);
  return v as T;
}

function noArgument(v: unknown, at: string): [] {
  if (v !== null && v !== undefined) invalid(at, 'takes no argument');
  return [];
}

function optional<T>(o: Obj, key: string, check: (v: unknown) => T): T | undefined {
  return o[key] === undefined ? undefined : check(o[key]);
}

/** Copies only the keys whose value is defined, so an optional field stays absent rather than undefined. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The table a user typed: relative, ~, quoted or file:// locations are resolved here (see table-location.ts). */
function typedLocation(v: unknown, at: string): string {
  const resolved = resolveTableLocation(string(v, at, LIMITS.path), { cwd: process.cwd(), home: os.homedir() });
  if (resolved.length > LIMITS.path) invalid(at, `must be at most ${LIMITS.path} characters`);
  return resolved;
}

function tableRef(v: unknown, at: string, location: (v: unknown, at: string) => string = tableLocation): TableRef {
  const o = object(v, at, ['path', 'versionAsOf', 'timestampAsOf']);
  return defined({
    path: location(o.path, `${at}.path`),
    versionAsOf: optional(o, 'versionAsOf', (x) => integer(x, `${at}.versionAsOf`, 0, Number.MAX_SAFE_INTEGER)),
    timestampAsOf: optional(o, 'timestampAsOf', (x) => nonEmptyString(x, `${at}.timestampAsOf`, 64)),
  });
}

function sourceOptions(v: unknown, at: string): Record<string, OptionValue> {
  const entries = Object.entries(record(v, at));
  if (entries.length > LIMITS.options) invalid(at, `must have at most ${LIMITS.options} entries`);
  const out: Record<string, OptionValue> = {};
  for (const [key, value] of entries) {
    string(key, `${at} key`, LIMITS.name);
    if (typeof value === 'string') out[key] = string(value, `${at}.${key}`);
    else if (typeof value === 'boolean') out[key] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
    else invalid(`${at}.${key}`, 'must be a string, a boolean or a finite number');
  }
  return out;
}

function sourceSpec(v: unknown, at: string): DeltaSourceSpec {
  const o = object(v, at, ['tablePath', 'columnNames', 'versionAsOf', 'timestampAsOf', 'options', 'filter']);
  return defined({
    tablePath: tableLocation(o.tablePath, `${at}.tablePath`),
    columnNames: o.columnNames === null ? null : optional(o, 'columnNames', (x) => stringList(x, `${at}.columnNames`)),
    versionAsOf: optional(o, 'versionAsOf', (x) => integer(x, `${at}.versionAsOf`, 0, Number.MAX_SAFE_INTEGER)),
    timestampAsOf: optional(o, 'timestampAsOf', (x) => nonEmptyString(x, `${at}.timestampAsOf`, 64)),
    options: optional(o, 'options', (x) => sourceOptions(x, `${at}.options`)),
    filter: optional(o, 'filter', (x) => string(x, `${at}.filter`, LIMITS.filter)),
  });
}

function sortKeys(v: unknown, at: string): SortKey[] {
  if (!Array.isArray(v)) invalid(at, 'must be a list');
  if (v.length > LIMITS.columns) invalid(at, `must have at most ${LIMITS.columns} entries`);
  return v.map((item, i) => {
    const o = object(item, `${at}[${i}]`, ['column', 'descending']);
    return { column: string(o.column, `${at}[${i}].column`, LIMITS.name), descending: boolean(o.descending, `${at}[${i}].descending`) };
  });
}

function changeRowsRequest(v: unknown, at: string): ChangeRowsRequest {
  return changeRowsFields(object(v, at, ['path', 'from', 'to', 'limit']), at);
}

function diffRequest(v: unknown, at: string): DiffRequest {
  const o = object(v, at, ['path', 'from', 'to', 'limit', 'pairBy']);
  return defined({ ...changeRowsFields(o, at), pairBy: optional(o, 'pairBy', (x) => stringList(x, `${at}.pairBy`)) });
}

function changeRowsFields(o: Obj, at: string): ChangeRowsRequest {
  return defined({
    path: tableLocation(o.path, `${at}.path`),
    from: integer(o.from, `${at}.from`, 0, Number.MAX_SAFE_INTEGER),
    to: optional(o, 'to', (x) => integer(x, `${at}.to`, 0, Number.MAX_SAFE_INTEGER)),
    limit: integer(o.limit, `${at}.limit`, 1, LIMITS.previewRows),
  });
}

function execution(v: unknown, at: string): ExecutionOptions {
  const o = object(v, at, ['batchSize', 'batchIntervalMs', 'maxRetries']);
  return {
    batchSize: optional(o, 'batchSize', (x) => integer(x, `${at}.batchSize`, 1, LIMITS.batchSize)) ?? DEFAULT_EXECUTION.batchSize,
    batchIntervalMs:
      optional(o, 'batchIntervalMs', (x) => integer(x, `${at}.batchIntervalMs`, 0, LIMITS.batchIntervalMs)) ??
      DEFAULT_EXECUTION.batchIntervalMs,
    maxRetries: optional(o, 'maxRetries', (x) => integer(x, `${at}.maxRetries`, 0, LIMITS.maxRetries)) ?? DEFAULT_EXECUTION.maxRetries,
  };
}

function postgresConnection(v: unknown, at: string): PostgresConnection {
  const o = object(v, at, ['url', 'host', 'port', 'database', 'user', 'password', 'ssl', 'connectTimeoutMs', 'statementTimeoutMs', 'checkBeforeReuse']);
  const url = optional(o, 'url', (x) => string(x, `${at}.url`, LIMITS.path));
  if (url && !/^postgres(ql)?:\/\//i.test(url)) invalid(`${at}.url`, 'must start with postgres:// or postgresql://');
  return defined({
    url,
    host: optional(o, 'host', (x) => string(x, `${at}.host`, 255)),
    port: optional(o, 'port', (x) => integer(x, `${at}.port`, 1, 65535)),
    database: optional(o, 'database', (x) => string(x, `${at}.database`, LIMITS.name)),
    user: optional(o, 'user', (x) => string(x, `${at}.user`, LIMITS.name)),
    password: optional(o, 'password', (x) => string(x, `${at}.password`)),
    ssl: optional(o, 'ssl', (x) => boolean(x, `${at}.ssl`)),
    connectTimeoutMs: optional(o, 'connectTimeoutMs', (x) => integer(x, `${at}.connectTimeoutMs`, 0, LIMITS.timeoutMs)),
    statementTimeoutMs: optional(o, 'statementTimeoutMs', (x) => integer(x, `${at}.statementTimeoutMs`, 1, LIMITS.timeoutMs)),
    checkBeforeReuse: optional(o, 'checkBeforeReuse', (x) => boolean(x, `${at}.checkBeforeReuse`)),
  });
}

const SQL_TARGET_KEYS = ['table', 'mode', 'keyColumns', 'sql', 'execution', 'exactlyOnce'] as const;
const WRITE_MODES: readonly WriteMode[] = ['append', 'overwrite', 'upsert', 'sql'];

function sqlTarget(o: Obj, at: string): SqlTargetOptions {
  return defined({
    table: string(o.table ?? '', `${at}.table`, LIMITS.name),
    mode: o.mode === undefined ? 'append' : oneOf(o.mode, `${at}.mode`, WRITE_MODES),
    keyColumns: optional(o, 'keyColumns', (x) => stringList(x, `${at}.keyColumns`)),
    sql: optional(o, 'sql', (x) => string(x, `${at}.sql`, LIMITS.sql)),
    execution: o.execution === undefined ? { ...DEFAULT_EXECUTION } : execution(o.execution, `${at}.execution`),
    exactlyOnce: o.exactlyOnce === undefined ? false : boolean(o.exactlyOnce, `${at}.exactlyOnce`),
  });
}

export function validateSinkShape(v: unknown, at = 'sink'): SinkSpec {
  const kind = oneOf(record(v, at).kind, `${at}.kind`, [
    'sqlite',
    'postgres',
    'parquet',
    'csv',
    'jsonl',
  ] as const);
  switch (kind) {
    case 'sqlite': {
      const o = object(v, at, ['kind', 'path', ...SQL_TARGET_KEYS]);
      return { kind, path: absolutePath(o.path, `${at}.path`), ...sqlTarget(o, at) };
    }
    case 'postgres': {
      const o = object(v, at, ['kind', 'connection', ...SQL_TARGET_KEYS]);
      return { kind, connection: postgresConnection(o.connection, `${at}.connection`), ...sqlTarget(o, at) };
    }
    default: {
      const o = object(v, at, ['kind', 'path', 'overwrite']);
      return defined({ kind, path: tableLocation(o.path, `${at}.path`), overwrite: optional(o, 'overwrite', (x) => boolean(x, `${at}.overwrite`)) });
    }
  }
}

/** Beyond shape: the specs' own rules (shared with the UI and the CLI), every problem in one message. */
function checkSpecs(at: string, problems: string[]): void {
  if (problems.length > 0) invalid(at, `is not valid: ${problems.join('; ')}`);
}

function exportRequest(v: unknown, at: string): ExportRequest {
  const o = object(v, at, ['source', 'sink', 'profile']);
  const request = defined({
    source: sourceSpec(o.source, `${at}.source`),
    sink: validateSinkShape(o.sink, `${at}.sink`),
    profile: optional(o, 'profile', (x) => nonEmptyString(x, `${at}.profile`, LIMITS.name)),
  });
  checkSpecs(at, [...validateSourceSpec(request.source), ...validateSinkSpec(request.sink)]);
  return request;
}

function previewRequest(v: unknown, at: string): PreviewRequest {
  const o = object(v, at, ['source', 'limit', 'orderBy']);
  const request = defined({
    source: sourceSpec(o.source, `${at}.source`),
    limit: integer(o.limit, `${at}.limit`, 1, LIMITS.previewRows),
    orderBy: optional(o, 'orderBy', (x) => sortKeys(x, `${at}.orderBy`)),
  });
  checkSpecs(at, validateSourceSpec(request.source));
  return request;
}

function named(v: unknown, at: string): { name: string } {
  const o = object(v, at, ['name']);
  return { name: nonEmptyString(o.name, `${at}.name`, LIMITS.name) };
}

/** A storage connection to save: its prefix in one spelling, its options known and right for the prefix's store.
 * Problems name options, never a value of a secret one. */
function storageConnectionInput(v: unknown, at: string): StorageConnectionInput {
  const o = object(v, at, ['name', 'prefix', 'options']);
  const name = nonEmptyString(o.name, `${at}.name`, LIMITS.name);
  const prefix = nonEmptyString(o.prefix, `${at}.prefix`, LIMITS.path);
  let place;
  try {
    place = connectionPrefix(prefix);
  } catch (err) {
    invalid(`${at}.prefix`, (err as Error).message);
  }
  const entries = Object.entries(record(o.options, `${at}.options`));
  if (entries.length > LIMITS.options) invalid(`${at}.options`, `must have at most ${LIMITS.options} entries`);
  const options: Record<string, string> = {};
  for (const [key, value] of entries) options[string(key, `${at}.options key`, LIMITS.name)] = string(value, `${at}.options.${key.slice(0, 50)}`, LIMITS.sql);
  checkSpecs(at, connectionOptionProblems(place.kind, options));
  return { name: name.trim(), prefix: place.prefix, options };
}

type Validators = { [M in ApiMethod]: (payload: unknown) => Parameters<DeltaportApi[M]> };

const VALIDATORS: Validators = {
  openTable: (p) => [tableRef(p, 'openTable', typedLocation)],
  history: (p) => {
    const o = object(p, 'history', ['path', 'limit']);
    return [
      defined({
        path: tableLocation(o.path, 'history.path'),
        limit: optional(o, 'limit', (x) => integer(x, 'history.limit', 1, LIMITS.historyRows)),
      }),
    ];
  },
  resolveVersion: (p) => [tableRef(p, 'resolveVersion')],
  latestVersion: (p) => {
    const o = object(p, 'latestVersion', ['path']);
    return [{ path: tableLocation(o.path, 'latestVersion.path') }];
  },
  preview: (p) => [previewRequest(p, 'preview')],
  profile: (p) => {
    const o = object(p, 'profile', ['table', 'exact']);
    return [defined({ table: tableRef(o.table, 'profile.table'), exact: optional(o, 'exact', (x) => boolean(x, 'profile.exact')) })];
  },
  partitions: (p) => [tableRef(p, 'partitions')],
  diff: (p) => [diffRequest(p, 'diff')],
  changes: (p) => [changeRowsRequest(p, 'changes')],
  planExport: (p) => [exportRequest(p, 'planExport')],
  testConnection: (p) => {
    const o = object(p, 'testConnection', ['sink', 'profile']);
    const request = defined({
      sink: validateSinkShape(o.sink, 'testConnection.sink'),
      profile: optional(o, 'profile', (x) => nonEmptyString(x, 'testConnection.profile', LIMITS.name)),
    });
    checkSpecs('testConnection', validateSinkSpec(request.sink));
    return [request];
  },
  exportSparkJob: (p) => {
    const o = object(p, 'exportSparkJob', ['source', 'sink', 'profile', 'savePath']);
    const { source, sink, profile } = o;
    return [
      defined({
        ...exportRequest(defined({ source, sink, profile }), 'exportSparkJob'),
        savePath: optional(o, 'savePath', (x) => absolutePath(x, 'exportSparkJob.savePath')),
      }),
    ];
  },
  startExport: (p) => [exportRequest(p, 'startExport')],
  cancelJob: (p) => {
    const o = object(p, 'cancelJob', ['id']);
    return [{ id: nonEmptyString(o.id, 'cancelJob.id', 100) }];
  },
  listJobs: (p) => noArgument(p, 'listJobs'),
  revealTarget: (p) => {
    const o = object(p, 'revealTarget', ['id']);
    return [{ id: nonEmptyString(o.id, 'revealTarget.id', 100) }];
  },
  recentTables: (p) => noArgument(p, 'recentTables'),
  sampleTable: (p) => noArgument(p, 'sampleTable'),
  listProfiles: (p) => noArgument(p, 'listProfiles'),
  saveProfile: (p) => {
    const o = object(p, 'saveProfile', ['name', 'sink']);
    return [{ name: nonEmptyString(o.name, 'saveProfile.name', LIMITS.name), sink: validateSinkShape(o.sink, 'saveProfile.sink') }];
  },
  deleteProfile: (p) => [named(p, 'deleteProfile')],
  listStorageConnections: (p) => noArgument(p, 'listStorageConnections'),
  saveStorageConnection: (p) => [storageConnectionInput(p, 'saveStorageConnection')],
  deleteStorageConnection: (p) => [named(p, 'deleteStorageConnection')],
  chooseTableFolder: (p) => noArgument(p, 'chooseTableFolder'),
  chooseSqliteFile: (p) => noArgument(p, 'chooseSqliteFile'),
};

/** The checked argument list for a call; throws a VALIDATION DeltaportError naming the first bad field. */
export function validateCall<M extends ApiMethod>(method: M, payload: unknown): Parameters<DeltaportApi[M]> {
  return VALIDATORS[method](payload) as Parameters<DeltaportApi[M]>;
}
