// The sink form as the user edits it (text fields stay text) and its translation into a SinkSpec, checked with the
// spec's own schema (shared/sink-spec.ts), one message per problem so the form can say what to fix before anything
// is sent.
import { csvStyleOf, DEFAULT_CSV_STYLE, type CsvStyle, type LineEnding } from '../../shared/csv-style.js';
import { parseWith } from '../../shared/schema.js';
import { DEFAULT_EXECUTION, DEFAULT_PG_CONNECTIONS, sinkSpecSchema } from '../../shared/sink-spec.js';
import { isSqlKind, type PostgresConnection, type SinkKind, type SinkSpec, type WriteMode } from '../../shared/sink-spec.js';

const HOST_SINK_SPEC = sinkSpecSchema('absolute');

export interface SinkForm {
  kind: SinkKind;
  sqlitePath: string;
  duckdbPath: string;
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
  /** PostgreSQL: connections the transactions are spread over. */
  connections: string;
  /** The CSV style; a tab delimiter is typed as \t (a tab key moves to the next field). */
  csvDelimiter: string;
  csvQuote: string;
  csvHeader: boolean;
  csvNullText: string;
  csvLineEnding: LineEnding;
}

export const SINK_KINDS: { kind: SinkKind; label: string }[] = [
  { kind: 'sqlite', label: 'SQLite' },
  { kind: 'postgres', label: 'PostgreSQL' },
  { kind: 'mysql', label: 'MySQL / MariaDB' },
  { kind: 'duckdb', label: 'DuckDB' },
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
    duckdbPath: '',
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
    connections: String(DEFAULT_PG_CONNECTIONS),
    csvDelimiter: DEFAULT_CSV_STYLE.delimiter,
    csvQuote: DEFAULT_CSV_STYLE.quote,
    csvHeader: DEFAULT_CSV_STYLE.header,
    csvNullText: DEFAULT_CSV_STYLE.nullText,
    csvLineEnding: DEFAULT_CSV_STYLE.lineEnding,
  };
}

const TAB_AS_TYPED = '\\t';

/** The CSV style the form describes, with \\t read as a tab. */
export function csvStyleOfForm(form: SinkForm): CsvStyle {
  return {
    delimiter: form.csvDelimiter === TAB_AS_TYPED ? '\t' : form.csvDelimiter,
    quote: form.csvQuote,
    header: form.csvHeader,
    nullText: form.csvNullText,
    lineEnding: form.csvLineEnding,
  };
}

/** Only the options that differ from the defaults, so that a spec left at them is the same as before they existed. */
function csvStyleChanges(style: CsvStyle): Partial<CsvStyle> {
  return Object.fromEntries(Object.entries(style).filter(([key, value]) => DEFAULT_CSV_STYLE[key as keyof CsvStyle] !== value));
}

// The form's numbers as typed: blank is no number at all, so the spec's rule names the field.
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

function connectionOf(form: SinkForm): PostgresConnection {
  const connection: PostgresConnection = {};
  if (form.url.trim()) connection.url = form.url.trim();
  if (form.host.trim()) connection.host = form.host.trim();
  if (form.port.trim()) connection.port = numberOf(form.port);
  if (form.database.trim()) connection.database = form.database.trim();
  if (form.user.trim()) connection.user = form.user.trim();
  if (form.password) connection.password = form.password;
  if (form.ssl) connection.ssl = true;
  return connection;
}

export function keyColumnList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The spec the form describes, before it is checked. */
function draftOf(form: SinkForm): SinkSpec {
  const path = form.filePath.trim();
  if (form.kind === 'csv') return { kind: 'csv', path, ...csvStyleChanges(csvStyleOfForm(form)) };
  if (!isSqlKind(form.kind)) return { kind: form.kind, path };
  const target = {
    table: form.table.trim(),
    mode: form.mode,
    ...(form.mode === 'upsert' ? { keyColumns: keyColumnList(form.keyColumns) } : {}),
    ...(form.mode === 'sql' ? { sql: form.sql } : {}),
    execution: {
      batchSize: numberOf(form.batchSize),
      batchIntervalMs: numberOf(form.batchIntervalMs),
      maxRetries: numberOf(form.maxRetries),
    },
    exactlyOnce: form.exactlyOnce,
  };
  if (form.kind === 'sqlite') return { kind: 'sqlite', path: form.sqlitePath.trim(), ...target };
  if (form.kind === 'duckdb') return { kind: 'duckdb', path: form.duckdbPath.trim(), ...target };
  if (form.kind === 'mysql') return { kind: 'mysql', connection: connectionOf(form), ...target };
  // Left out at the default, so that a spec saved before the option existed is the same spec.
  const connections = numberOf(form.connections);
  return {
    kind: 'postgres',
    connection: connectionOf(form),
    ...target,
    ...(connections === DEFAULT_PG_CONNECTIONS ? {} : { connections }),
  };
}

/** The spec, checked by the same schema as the host checks it with, as the user types; one sentence per problem. */
export function toSinkSpec(form: SinkForm): { spec: SinkSpec | null; problems: string[] } {
  const parsed = parseWith(HOST_SINK_SPEC, draftOf(form));
  return parsed.ok ? { spec: parsed.value, problems: [] } : { spec: null, problems: parsed.problems.map(sentence) };
}

function sentence(problem: string): string {
  return `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`;
}

/** A saved profile back into the form, keeping the table-specific target name the form already has. */
export function fromSinkSpec(spec: SinkSpec, current: SinkForm): SinkForm {
  const form: SinkForm = { ...emptyForm(current.table), kind: spec.kind };
  if (spec.kind === 'csv') {
    const style = csvStyleOf(spec);
    return {
      ...form,
      filePath: spec.path,
      csvDelimiter: style.delimiter === '\t' ? TAB_AS_TYPED : style.delimiter,
      csvQuote: style.quote,
      csvHeader: style.header,
      csvNullText: style.nullText,
      csvLineEnding: style.lineEnding,
    };
  }
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
  if (spec.kind === 'duckdb') return { ...common, duckdbPath: spec.path };
  const c = spec.connection;
  return {
    ...common,
    connections: String((spec.kind === 'postgres' ? spec.connections : undefined) ?? DEFAULT_PG_CONNECTIONS),
    url: c.url ?? '',
    host: c.host ?? '',
    port: c.port === undefined ? '' : String(c.port),
    database: c.database ?? '',
    user: c.user ?? '',
    password: c.password ?? '',
    ssl: c.ssl ?? false,
  };
}
