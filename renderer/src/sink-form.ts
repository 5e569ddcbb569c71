// The sink form as the user edits it (text fields stay text) and its translation into a SinkSpec, with one
// message per problem so the form can say what to fix before anything is sent.
import { DEFAULT_EXECUTION, EXECUTION_MAX } from '../../shared/sink-spec.js';
import { formatCount } from './format.js';
import type { PostgresConnection, SinkKind, SinkSpec, WriteMode } from '../../shared/sink-spec.js';

export interface SinkForm {
  kind: SinkKind;
  sqlitePath: string;
  filePath: string;
  url: string;
  host: string;
  port: string;
  database: string;
  user: string;
  password: string;
  ssl: boolean;
  table: string;
  mode: WriteMode;
  keyColumns: string;
  sql: string;
  batchSize: string;
  batchIntervalMs: string;
  maxRetries: string;
  exactlyOnce: boolean;
}

export const SINK_KINDS: { kind: SinkKind; label: string }[] = [
  { kind: 'sqlite', label: 'SQLite' },
  { kind: 'postgres', label: 'PostgreSQL' },
  { kind: 'parquet', label: 'Parquet' },
  { kind: 'csv', label: 'CSV' },
  { kind: 'jsonl', label: 'JSON Lines' },
];

export const WRITE_MODES: { mode: WriteMode; label: string }[] = [
  { mode: 'append', label: 'Append' },
  { mode: 'overwrite', label: 'Overwrite (replace the table)' },
  { mode: 'upsert', label: 'Upsert by key columns' },
  { mode: 'sql', label: 'Custom SQL' },
];

export function emptyForm(table: string): SinkForm {
  return {
    kind: 'sqlite',
    sqlitePath: '',
    filePath: '',
    url: '',
    host: '',
    port: '',
    database: '',
    user: '',
    password: '',
    ssl: false,
    table,
    mode: 'append',
    keyColumns: '',
    sql: '',
    batchSize: String(DEFAULT_EXECUTION.batchSize),
    batchIntervalMs: String(DEFAULT_EXECUTION.batchIntervalMs),
    maxRetries: String(DEFAULT_EXECUTION.maxRetries),
    exactlyOnce: false,
  };
}

export function isSqlKind(kind: SinkKind): kind is 'sqlite' | 'postgres' {
  return kind === 'sqlite' || kind === 'postgres';
}

function wholeNumber(text: string, label: string, min: number, problems: string[], max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max) {
    problems.push(max === Number.MAX_SAFE_INTEGER ? `${label} must be a whole number, ${min} or more.` : `${label} must be a whole number from ${min} to ${formatCount(max)}.`);
  }
  return n;
}

function connectionOf(form: SinkForm, problems: string[]): PostgresConnection {
  const connection: PostgresConnection = {};
  if (form.url.trim()) connection.url = form.url.trim();
  if (form.host.trim()) connection.host = form.host.trim();
  if (form.port.trim()) connection.port = wholeNumber(form.port, 'Port', 1, problems, 65_535);
  if (form.database.trim()) connection.database = form.database.trim();
  if (form.user.trim()) connection.user = form.user.trim();
  if (form.password) connection.password = form.password;
  if (form.ssl) connection.ssl = true;
  if (!connection.url && !connection.host) problems.push('Give a connection URL or a host for PostgreSQL.');
  return connection;
}

function keyColumnList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

// The host takes full paths only (it has no notion of the folder a page was opened from).
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

function pathProblem(text: string, missing: string, what: string): string | null {
  if (!text.trim()) return missing;
  return ABSOLUTE.test(text.trim()) ? null : `Give the full path of the ${what}, starting with /.`;
}

export function toSinkSpec(form: SinkForm): { spec: SinkSpec | null; problems: string[] } {
  const problems: string[] = [];
  if (!isSqlKind(form.kind)) {
    const problem = pathProblem(form.filePath, 'Choose the output file to write.', 'output file');
    if (problem) problems.push(problem);
    return { spec: problems.length ? null : { kind: form.kind, path: form.filePath.trim() }, problems };
  }
  const execution = {
    batchSize: wholeNumber(form.batchSize, 'Batch size', 1, problems, EXECUTION_MAX.batchSize),
    batchIntervalMs: wholeNumber(form.batchIntervalMs, 'Batch interval', 0, problems, EXECUTION_MAX.batchIntervalMs),
    maxRetries: wholeNumber(form.maxRetries, 'Max retries', 0, problems, EXECUTION_MAX.maxRetries),
  };
  if (!form.table.trim()) problems.push('Name the target table.');
  const keyColumns = keyColumnList(form.keyColumns);
  if (form.mode === 'upsert' && keyColumns.length === 0) problems.push('Upsert needs at least one key column.');
  if (form.mode === 'sql' && !form.sql.trim()) problems.push('Write the SQL statement to run for each row.');
  const target = {
    table: form.table.trim(),
    mode: form.mode,
    ...(form.mode === 'upsert' ? { keyColumns } : {}),
    ...(form.mode === 'sql' ? { sql: form.sql } : {}),
    execution,
    exactlyOnce: form.exactlyOnce,
  };
  if (form.kind === 'sqlite') {
    const problem = pathProblem(form.sqlitePath, 'Choose the SQLite file to write into.', 'SQLite file');
    if (problem) problems.push(problem);
    return { spec: problems.length ? null : { kind: 'sqlite', path: form.sqlitePath.trim(), ...target }, problems };
  }
  const connection = connectionOf(form, problems);
  return { spec: problems.length ? null : { kind: 'postgres', connection, ...target }, problems };
}

/** A saved profile back into the form, keeping the table-specific target name the form already has. */
export function fromSinkSpec(spec: SinkSpec, current: SinkForm): SinkForm {
  const form: SinkForm = { ...emptyForm(current.table), kind: spec.kind };
  if (!('table' in spec)) return { ...form, filePath: spec.path };
  const common: SinkForm = {
    ...form,
    table: spec.table || current.table,
    mode: spec.mode,
    keyColumns: (spec.keyColumns ?? []).join(', '),
    sql: spec.sql ?? '',
    batchSize: String(spec.execution.batchSize),
    batchIntervalMs: String(spec.execution.batchIntervalMs),
    maxRetries: String(spec.execution.maxRetries),
    exactlyOnce: spec.exactlyOnce,
  };
  if (spec.kind === 'sqlite') return { ...common, sqlitePath: spec.path };
  const c = spec.connection;
  return {
    ...common,
    url: c.url ?? '',
    host: c.host ?? '',
    port: c.port === undefined ? '' : String(c.port),
    database: c.database ?? '',
    user: c.user ?? '',
    password: c.password ?? '',
    ssl: c.ssl ?? false,
  };
}
