// The sink spec: where an export goes and how it is written. Shaped after Flink's JdbcSink (execution options with
// its names and defaults, connection options, exactly-once).

import * as v from 'valibot';
import { absolutePath, flag, LIMITS, location, nameList, nonBlank, parseWith, text, wholeNumber, withRules } from './schema.js';
import { csvStyleOf, csvStyleProblems, LINE_ENDINGS } from './csv-style.js';
import { parseNamedParams } from './sql-params.js';

export const WRITE_MODES = ['append', 'overwrite', 'upsert', 'sql'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];

export const DEFAULT_EXECUTION = { batchSize: 5000, batchIntervalMs: 0, maxRetries: 3 } as const;

/** PostgreSQL exports spread their transactions over this many connections unless told otherwise: each is one
 * server process, which loads COPY on one core (docs/exporting.md says why 2). */
export const DEFAULT_PG_CONNECTIONS = 2;
/** More connections than this only queue for the server's cores and its connection slots. */
export const MAX_PG_CONNECTIONS = 16;

/** The largest value each execution option takes (the smallest is 1 for the batch size, else 0). */
const EXECUTION_MAX = { batchSize: 10_000_000, batchIntervalMs: 86_400_000, maxRetries: 100 } as const;

const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];
/** PostgreSQL silently truncates longer identifiers, which would write into a different table. */
const PG_MAX_IDENTIFIER_BYTES = 63;
/** MySQL and MariaDB refuse table and column names longer than this many characters. */
const MYSQL_MAX_IDENTIFIER_CHARS = 64;

/** The SQL sinks that connect to a server, and the URL schemes and product named in their messages. */
type ServerKind = 'postgres' | 'mysql';
const SERVERS: Record<ServerKind, { schemes: RegExp; example: string; product: string }> = {
  postgres: { schemes: /^postgres(ql)?:$/, example: 'postgres://user:password@host:port/database', product: 'PostgreSQL' },
  mysql: { schemes: /^(mysql|mariadb):$/, example: 'mysql://user:password@host:port/database', product: 'MySQL' },
};

const executionSchema = v.strictObject({
  /** Rows per batch (= per transaction). */
  batchSize: v.optional(wholeNumber('batch size', 1, EXECUTION_MAX.batchSize), DEFAULT_EXECUTION.batchSize),
  /** Flush a partial batch after this long; 0 = off. */
  batchIntervalMs: v.optional(wholeNumber('batch interval', 0, EXECUTION_MAX.batchIntervalMs), DEFAULT_EXECUTION.batchIntervalMs),
  /** Retries of a batch after a transient error. */
  maxRetries: v.optional(wholeNumber('max retries', 0, EXECUTION_MAX.maxRetries), DEFAULT_EXECUTION.maxRetries),
});

function connectionSchema(server: ServerKind) {
  return withRules(
    v.strictObject({
      /** postgres://user:password@host:port/db?sslmode=... or mysql://user:password@host:port/db; when given, the
       * fields below override its parts. */
      url: v.optional(
        v.pipe(
          text('the connection URL', LIMITS.path),
          v.rawCheck(({ dataset, addIssue }) => {
            const problem = dataset.typed ? urlProblem(dataset.value, server) : null;
            if (problem) addIssue({ message: problem });
          }),
        ),
      ),
      host: v.optional(text('the host', 255)),
      port: v.optional(wholeNumber('port', 1, 65_535)),
      database: v.optional(text('the database name', LIMITS.name)),
      user: v.optional(text('the user name', LIMITS.name)),
      password: v.optional(text('the password')),
      ssl: v.optional(flag('ssl')),
      connectTimeoutMs: v.optional(wholeNumber('the connect timeout (ms)', 0, LIMITS.timeoutMs)),
      /** How long a statement or COPY may go unanswered before the connection is dropped and the batch retried. */
      statementTimeoutMs: v.optional(wholeNumber('the statement timeout (ms)', 1, LIMITS.timeoutMs)),
      /** Check a connection with a round trip before reusing it (skipped when it answered in the last second). */
      checkBeforeReuse: v.optional(flag('checkBeforeReuse')),
    }),
    (c) => (c.url === undefined && isBlank(c.host) ? [`give a connection URL or a host for ${SERVERS[server].product}`] : []),
  );
}

function tableName(kind: SqlKind) {
  return v.optional(
    v.pipe(
      text('the target table name', LIMITS.name),
      v.check((t) => !isBlank(t), 'name the target table'),
      v.check((t) => !t.includes('\0'), 'the target table name contains a NUL character'),
      v.check(
        (t) => kind !== 'postgres' || utf8Length(t) <= PG_MAX_IDENTIFIER_BYTES,
        `the target table name is longer than PostgreSQL's ${PG_MAX_IDENTIFIER_BYTES} bytes`,
      ),
      v.check(
        (t) => kind !== 'mysql' || [...t].length <= MYSQL_MAX_IDENTIFIER_CHARS,
        `the target table name is longer than MySQL's ${MYSQL_MAX_IDENTIFIER_CHARS} characters`,
      ),
    ),
    '',
  );
}

/** How rows go into a SQL table; `table` defaults to the Delta table folder's name where the spec is made. */
function sqlTargetEntries(kind: SqlKind) {
  return {
    table: tableName(kind),
    mode: v.optional(
      v.picklist(WRITE_MODES, (issue) => `unknown mode ${JSON.stringify(issue.input)} (use ${WRITE_MODES.join(', ')})`),
      'append',
    ),
    /** Key columns for upsert. */
    keyColumns: v.optional(nameList('the key columns')),
    /** The user's own DML with :column parameters, for mode 'sql'. */
    sql: v.optional(text('the statement', LIMITS.sql)),
    execution: v.optional(executionSchema, {}),
    exactlyOnce: v.optional(flag('exactlyOnce'), false),
    /** The app's own: the job whose ledger row an exactly-once export keeps, so that only a Retry of that job resumes
     * it and every new export starts afresh. The CLI leaves it out: its ledger is keyed by what it exports alone. */
    jobId: v.optional(nonBlank('the job id', 100)),
    /** PostgreSQL: connections the transactions are spread over (append, overwrite and upsert; sql uses one). */
    connections: v.optional(
      kind === 'postgres'
        ? wholeNumber('the number of connections', 1, MAX_PG_CONNECTIONS)
        : v.never(`the number of connections is for PostgreSQL only (${kind} writes over one)`),
    ),
  };
}

function targetRules(spec: { mode: WriteMode; keyColumns?: string[]; sql?: string }): string[] {
  const problems: string[] = [];
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
  return problems;
}

/** The SQL sinks' kinds, as the spec's entries are made for each. */
type SqlKind = 'sqlite' | 'postgres' | 'mysql' | 'duckdb';

/** DuckDB takes append, overwrite and upsert; a statement of the user's own per row is not offered there. */
function duckdbRules(spec: { mode: WriteMode }): string[] {
  return spec.mode === 'sql' ? ['mode sql is not offered for DuckDB (use append, overwrite or upsert)'] : [];
}

/** Where a sink's file goes: any path where the spec is made from a command line (relative to its folder), a full
 * path where it crosses to the host (which has no folder of the sender's to resolve it against). */
export type PathRule = 'any' | 'absolute';

/** `cloud`: the file may also be in a bucket (an export file; a SQLite database is always local). */
function filePath(paths: PathRule, blank: string, what: string, cloud = false) {
  const words = {
    blank,
    relative: `give the full path of the ${what}, starting with /${cloud ? ', or its s3://, gs:// or Azure URL' : ''}`,
  };
  if (paths !== 'absolute') return nonBlank(`the ${what} path`, LIMITS.path, blank);
  return cloud ? location(`the ${what} path`, words) : absolutePath(`the ${what} path`, words);
}

/** A CSV file's style (shared/csv-style.ts); each option left out takes its default. */
const csvStyleEntries = {
  delimiter: v.optional(text('the CSV delimiter', 10)),
  quote: v.optional(text('the CSV quote', 10)),
  header: v.optional(flag('the CSV header')),
  nullText: v.optional(text('the CSV null text', 100)),
  lineEnding: v.optional(
    v.picklist(LINE_ENDINGS, (issue) => `unknown CSV line ending ${JSON.stringify(issue.input)} (use ${LINE_ENDINGS.join(' or ')})`),
  ),
};

/** The sink spec: where an export goes and how it is written. Shaped after Flink's JdbcSink (execution options
 * with its names and defaults, connection options, exactly-once). A file sink never replaces an existing file
 * unless asked to (overwrite): a second export must not silently overwrite one. */
export function sinkSpecSchema(paths: PathRule) {
  const fileEntries = {
    path: filePath(paths, 'choose the output file to write', 'output file', true),
    overwrite: v.optional(flag('overwrite')),
  };
  const fileSink = <K extends 'parquet' | 'jsonl'>(kind: K) => v.strictObject({ kind: v.literal(kind), ...fileEntries });
  return v.variant(
    'kind',
    [
      withRules(
        v.strictObject({
          kind: v.literal('sqlite'),
          path: filePath(paths, 'choose the SQLite file to write into', 'SQLite file'),
          ...sqlTargetEntries('sqlite'),
        }),
        targetRules,
      ),
      withRules(
        v.strictObject({ kind: v.literal('postgres'), connection: connectionSchema('postgres'), ...sqlTargetEntries('postgres') }),
        targetRules,
      ),
      withRules(
        v.strictObject({ kind: v.literal('mysql'), connection: connectionSchema('mysql'), ...sqlTargetEntries('mysql') }),
        targetRules,
      ),
      withRules(
        v.strictObject({
          kind: v.literal('duckdb'),
          path: filePath(paths, 'choose the DuckDB file to write into', 'DuckDB file'),
          ...sqlTargetEntries('duckdb'),
        }),
        (spec) => [...targetRules(spec), ...duckdbRules(spec)],
      ),
      fileSink('parquet'),
      withRules(v.strictObject({ kind: v.literal('csv'), ...fileEntries, ...csvStyleEntries }), (spec) =>
        csvStyleProblems(csvStyleOf(spec)).map((p) => p.message),
      ),
      fileSink('jsonl'),
    ],
    (issue) => `the sink kind must be one of sqlite, postgres, mysql, duckdb, parquet, csv, jsonl (got ${JSON.stringify(issue.input)})`,
  );
}

const SINK_SPEC = sinkSpecSchema('any');

export type SinkSpec = v.InferOutput<typeof SINK_SPEC>;
export type ExecutionOptions = v.InferOutput<typeof executionSchema>;
export type PostgresConnection = Extract<SinkSpec, { kind: 'postgres' }>['connection'];
/** The same fields as PostgreSQL's; the URL is mysql:// or mariadb://. */
export type MysqlConnection = Extract<SinkSpec, { kind: 'mysql' }>['connection'];
export type FileSinkSpec = Extract<SinkSpec, { kind: 'parquet' | 'csv' | 'jsonl' }>;
export type SqlTargetOptions = Omit<Extract<SinkSpec, { kind: 'sqlite' }>, 'kind' | 'path'>;

export type SinkKind = SinkSpec['kind'];

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
export type SqlSinkSpec = Extract<SinkSpec, { kind: SqlKind }>;

export function isSqlSink(spec: SinkSpec): spec is SqlSinkSpec {
  return isSqlKind(spec.kind);
}

/** The kinds of sink that write into a database table (and take SQL options), as opposed to a file. */
export function isSqlKind(kind: SinkKind): kind is SqlSinkSpec['kind'] {
  return kind === 'sqlite' || kind === 'postgres' || kind === 'mysql' || kind === 'duckdb';
}

/** An exactly-once job: the only export whose sink may resume it after the rows an earlier run committed. */
export function isExactlyOnce(spec: SinkSpec): boolean {
  return isSqlSink(spec) && spec.exactlyOnce;
}

/** The spec that replaces what the target holds: a SQL table's contents (mode overwrite), or the file. */
export function replacingSpec(spec: SinkSpec): SinkSpec {
  return isSqlSink(spec) ? { ...spec, mode: 'overwrite' } : { ...spec, overwrite: true };
}

/** Every problem of a sink spec that can be seen without the table or the database; empty when it is valid. */
export function validateSinkSpec(spec: unknown, paths: PathRule = 'any'): string[] {
  const parsed = parseWith(paths === 'any' ? SINK_SPEC : sinkSpecSchema(paths), spec);
  return parsed.ok ? [] : parsed.problems;
}

/** Every problem of a sink spec for an export of these columns: the spec's own, and for SQL sinks its key columns
 * and :parameters against the columns. */
export function exportSinkProblems(spec: SinkSpec, columns: readonly string[]): string[] {
  return [...validateSinkSpec(spec), ...(isSqlSink(spec) ? sinkColumnProblems(spec, columns) : [])];
}

/** Upsert key columns that are not exported: checked at the boundary and by the form as the keys are typed. */
export function keyColumnProblems(keys: readonly string[], columns: readonly string[]): string[] {
  const known = new Set(columns);
  return keys.filter((key) => !known.has(key)).map((key) => `key column "${key}" is not among the exported columns`);
}

/** Problems of the exported column names (PostgreSQL's and MySQL's length limits), key columns and :column parameters. */
export function sinkColumnProblems(spec: SqlSinkSpec, columns: readonly string[]): string[] {
  const known = new Set(columns);
  const problems: string[] = [];
  if (spec.kind === 'postgres') {
    for (const column of columns) {
      if (utf8Length(column) > PG_MAX_IDENTIFIER_BYTES)
        problems.push(`column name "${column}" is longer than PostgreSQL's ${PG_MAX_IDENTIFIER_BYTES} bytes`);
    }
  }
  if (spec.kind === 'mysql') {
    for (const column of columns) {
      if ([...column].length > MYSQL_MAX_IDENTIFIER_CHARS)
        problems.push(`column name "${column}" is longer than MySQL's ${MYSQL_MAX_IDENTIFIER_CHARS} characters`);
    }
  }
  if (spec.mode === 'upsert') problems.push(...keyColumnProblems(spec.keyColumns ?? [], columns));
  if (spec.mode === 'sql' && spec.sql) {
    for (const name of parseNamedParams(spec.sql).names) {
      if (!known.has(name)) problems.push(`parameter :${name} is not an exported column`);
    }
  }
  return problems;
}

function urlProblem(text: string, server: ServerKind): string | null {
  const url = parseUrl(text);
  const { schemes, example } = SERVERS[server];
  if (!url || !schemes.test(url.protocol)) return `the connection URL must look like ${example}`;
  if (server === 'mysql') return null;
  const sslmode = url.searchParams.get('sslmode');
  return sslmode !== null && !SSL_MODES.includes(sslmode) ? `unknown sslmode "${sslmode}" (use ${SSL_MODES.join(', ')})` : null;
}

/** A connection URL with its password replaced, safe for messages and logs. */
export function scrubUrl(text: string): string {
  return text.replace(/((?:postgres(?:ql)?|mysql|mariadb):\/\/[^:/@\s]*):[^@\s]*@/g, '$1:***@');
}

/** A message without connection URL passwords nor the given password. */
export function scrub(text: string, password: unknown): string {
  const scrubbed = scrubUrl(text);
  return typeof password === 'string' && password.length > 0 ? scrubbed.replaceAll(password, '***') : scrubbed;
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

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
