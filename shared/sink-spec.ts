// The sink spec: where an export goes and how it is written. Shaped after Flink's JdbcSink (execution options with
// its names and defaults, connection options, exactly-once).

import { parseNamedParams } from './sql-params.js';

export type WriteMode = 'append' | 'overwrite' | 'upsert' | 'sql';

export interface ExecutionOptions {
  /** Rows per batch (= per transaction). Default 5000. */
  batchSize: number;
  /** Flush a partial batch after this long; 0 = off. Default 0. */
  batchIntervalMs: number;
  /** Retries of a batch after a transient error. Default 3. */
  maxRetries: number;
}

export interface PostgresConnection {
  /** postgres://user:password@host:port/db?sslmode=... ; when given, the fields below override its parts. */
  url?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  ssl?: boolean;
  connectTimeoutMs?: number;
  /** How long a statement or COPY may go unanswered before the connection is dropped and the batch retried. */
  statementTimeoutMs?: number;
  /** Check a connection with a round trip before reusing it (skipped when it answered in the last second). */
  checkBeforeReuse?: boolean;
}

export interface SqlTargetOptions {
  /** Target table name; defaults to the Delta table folder's name. */
  table: string;
  mode: WriteMode;
  /** Key columns for upsert. */
  keyColumns?: string[];
  /** The user's own DML with :column parameters, for mode 'sql'. */
  sql?: string;
  execution: ExecutionOptions;
  exactlyOnce: boolean;
}

export type SinkSpec =
  | ({ kind: 'sqlite'; path: string } & SqlTargetOptions)
  | ({ kind: 'postgres'; connection: PostgresConnection } & SqlTargetOptions)
  | { kind: 'parquet' | 'csv' | 'jsonl'; path: string };

export type SinkKind = SinkSpec['kind'];

export const DEFAULT_EXECUTION: ExecutionOptions = { batchSize: 5000, batchIntervalMs: 0, maxRetries: 3 };

/** What a dry run reports before anything is written. */
export interface ExportPlan {
  sink: SinkKind;
  target: string;
  /** DDL that will run (empty when the target exists and is compatible). */
  ddl: string[];
  /** The statement each batch uses (INSERT/COPY/upsert/user SQL), or the file that will be written. */
  statement: string;
  targetExists: boolean;
  /** Null when compatible or not applicable; otherwise why the existing target cannot take this export. */
  incompatibility: string | null;
}

export interface ConnectionReport {
  serverVersion: string;
  targetExists: boolean;
}

/** The sinks that write into a SQL database. */
export type SqlSinkSpec = Extract<SinkSpec, { kind: 'sqlite' | 'postgres' }>;

export function isSqlSink(spec: SinkSpec): spec is SqlSinkSpec {
  return spec.kind === 'sqlite' || spec.kind === 'postgres';
}

const WRITE_MODES: readonly WriteMode[] = ['append', 'overwrite', 'upsert', 'sql'];
/** PostgreSQL silently truncates longer identifiers, which would write into a different table. */
const PG_MAX_IDENTIFIER_BYTES = 63;

/** Every problem of a sink spec that can be seen without the table or the database; empty when it is valid. */
export function validateSinkSpec(spec: SinkSpec): string[] {
  switch (spec.kind) {
    case 'parquet':
    case 'csv':
    case 'jsonl':
      return isBlank(spec.path) ? [`a ${spec.kind} sink needs a file path`] : [];
    case 'sqlite':
      return [...(isBlank(spec.path) ? ['a sqlite sink needs a database file path'] : []), ...targetProblems(spec)];
    case 'postgres':
      return [...connectionProblems(spec.connection), ...targetProblems(spec)];
    default:
      return [`unknown sink kind "${(spec as { kind: unknown }).kind}"`];
  }
}

/** Every problem of a sink spec for an export of these columns: the spec's own, and for SQL sinks its key columns
 * and :parameters against the columns. */
export function exportSinkProblems(spec: SinkSpec, columns: readonly string[]): string[] {
  return [...validateSinkSpec(spec), ...(isSqlSink(spec) ? sinkColumnProblems(spec, columns) : [])];
}

/** Problems of the exported column names (PostgreSQL's length limit), key columns and :column parameters. */
export function sinkColumnProblems(spec: SqlSinkSpec, columns: readonly string[]): string[] {
  const known = new Set(columns);
  const problems: string[] = [];
  if (spec.kind === 'postgres') {
    for (const column of columns) {
      if (utf8Length(column) > PG_MAX_IDENTIFIER_BYTES) problems.push(`column name "${column}" is longer than PostgreSQL's ${PG_MAX_IDENTIFIER_BYTES} bytes`);
    }
  }
  if (spec.mode === 'upsert') {
    for (const key of spec.keyColumns ?? []) {
      if (!known.has(key)) problems.push(`key column "${key}" is not among the exported columns`);
    }
  }
  if (spec.mode === 'sql' && spec.sql) {
    for (const name of parseNamedParams(spec.sql).names) {
      if (!known.has(name)) problems.push(`parameter :${name} is not an exported column`);
    }
  }
  return problems;
}

function targetProblems(spec: SqlSinkSpec): string[] {
  const problems: string[] = [];
  if (isBlank(spec.table)) problems.push('a target table name is required');
  else if (spec.table.includes('\0')) problems.push('the target table name contains a NUL character');
  else if (spec.kind === 'postgres' && utf8Length(spec.table) > PG_MAX_IDENTIFIER_BYTES) {
    problems.push(`the target table name is longer than PostgreSQL's ${PG_MAX_IDENTIFIER_BYTES} bytes`);
  }
  if (!WRITE_MODES.includes(spec.mode)) problems.push(`unknown mode "${spec.mode}" (use ${WRITE_MODES.join(', ')})`);
  if (spec.mode === 'upsert') {
    const keys = spec.keyColumns ?? [];
    if (keys.length === 0) problems.push('upsert needs at least one key column');
    if (keys.some(isBlank)) problems.push('a key column name is empty');
    if (new Set(keys).size !== keys.length) problems.push('a key column is named twice');
  }
  if (spec.mode === 'sql') {
    if (isBlank(spec.sql)) problems.push('mode sql needs a statement');
    else problems.push(...parseNamedParams(spec.sql!).problems);
  }
  const { batchSize, batchIntervalMs, maxRetries } = spec.execution ?? {};
  if (!isIntIn(batchSize, 1, 10_000_000)) problems.push('batch size must be a whole number from 1 to 10,000,000');
  if (!isIntIn(batchIntervalMs, 0, 86_400_000)) problems.push('batch interval must be a whole number of ms, 0 or more');
  if (!isIntIn(maxRetries, 0, 100)) problems.push('max retries must be a whole number from 0 to 100');
  return problems;
}

function connectionProblems(c: PostgresConnection | undefined): string[] {
  if (!c) return ['a postgres sink needs a connection'];
  const problems: string[] = [];
  if (c.url !== undefined) {
    const url = parseUrl(c.url);
    if (!url || !/^postgres(ql)?:$/.test(url.protocol)) {
      problems.push('the connection URL must look like postgres://user:password@host:port/database');
    } else if (url.searchParams.has('sslmode') && !SSL_MODES.includes(url.searchParams.get('sslmode')!)) {
      problems.push(`unknown sslmode "${url.searchParams.get('sslmode')}" (use ${SSL_MODES.join(', ')})`);
    }
  } else if (isBlank(c.host)) {
    problems.push('a postgres connection needs a URL or a host');
  }
  if (c.port !== undefined && !isIntIn(c.port, 1, 65_535)) problems.push('the port must be a number from 1 to 65535');
  if (c.connectTimeoutMs !== undefined && !isIntIn(c.connectTimeoutMs, 0, 600_000)) {
    problems.push('the connect timeout must be a whole number of ms from 0 to 600,000');
  }
  if (c.statementTimeoutMs !== undefined && !isIntIn(c.statementTimeoutMs, 1, 600_000)) {
    problems.push('the statement timeout must be a whole number of ms from 1 to 600,000');
  }
  return problems;
}

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** A connection URL with its password replaced, safe for messages and logs. */
export function scrubUrl(text: string): string {
  return text.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*):[^@\s]*@/g, '$1:***@');
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function isBlank(text: string | undefined): boolean {
  return text === undefined || text.trim() === '';
}

function isIntIn(n: unknown, min: number, max: number): boolean {
  return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
