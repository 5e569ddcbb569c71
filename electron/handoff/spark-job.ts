// An export job rendered as a self-contained PySpark script, for snapshots too big for one machine. The SQL it runs
// is the SQL Deltaport's own sinks would run (sql-types.ts, sql-statements.ts, exactly-once.ts), written into the
// script, so the target gets the same tables, types and values. Nothing here runs Spark.
import { csvStyleOf, isDefaultCsvStyle } from '../../shared/csv-style.js';
import type { StructField } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import type { FileSinkSpec, SinkSpec, SqlSinkSpec } from '../../shared/sink-spec.js';
import { isSqlSink } from '../../shared/sink-spec.js';
import { jobKey, PROGRESS_TABLE, progressTableSql, saveProgressSql } from '../sinks/exactly-once.js';
import { quoteName } from '../../shared/sql-quote.js';
import { quoteIn, quoteList, quoteListIn } from '../sinks/sql-identifiers.js';
import { onConflict } from '../sinks/sql-statements.js';
import { createTableSql, type Dialect } from '../sinks/sql-types.js';
import { columnPlan, position, type ColumnPlan } from './spark-columns.js';
import { pyComment, pyString, pyValue, type PyValue } from './python-text.js';
import { pythonSource } from './python-sources.js';
import { csvHeader, jsonKeys } from './spark-text-columns.js';

/** delta-spark 4.0.0's jars are on Maven Central (later releases' are not), built for Spark 4.0 and Scala 2.13. */
export const SPARK_PACKAGES = {
  delta: 'io.delta:delta-spark_2.13:4.0.0',
  postgres: 'org.postgresql:postgresql:42.7.7',
  sqlite: 'org.xerial:sqlite-jdbc:3.50.3.0',
  /** MariaDB Connector/J, which serves MySQL too. */
  mysql: 'org.mariadb.jdbc:mariadb-java-client:4.0.0',
} as const;

export const PIP_INSTALL = 'pip install "pyspark==4.0.*" delta-spark==4.0.0';

/** Where a PostgreSQL sink connects, without credentials (those come from the environment when the job runs). */
export interface PgServer {
  host: string;
  port: number;
  database: string | undefined;
  /** pgjdbc's sslmode, the same choice Deltaport's own connection makes. */
  sslmode: 'disable' | 'require' | 'verify-full';
  connectTimeoutMs: number;
}

/** Where a MySQL or MariaDB sink connects, without credentials. */
export interface MysqlServer {
  host: string;
  port: number;
  database: string | undefined;
  ssl: boolean;
  connectTimeoutMs: number;
}

export interface SparkJob {
  tablePath: string;
  tableId: string;
  /** The resolved version: the job reads exactly this snapshot. */
  version: number;
  /** What was asked for, for the header. */
  requested: { versionAsOf?: number; timestampAsOf?: string };
  fields: StructField[];
  /** The filter (--where) as a Spark SQL condition (spark-filter.ts), and as the user wrote it, for the header. */
  where?: { condition: string; text: string };
  sink: SinkSpec;
  /** For a PostgreSQL sink. */
  server?: PgServer;
  /** For a MySQL sink. */
  mysqlServer?: MysqlServer;
}

export const PG_CREDENTIALS = { user: 'PGUSER', password: 'PGPASSWORD' } as const;
export const MYSQL_CREDENTIALS = { user: 'MYSQL_USER', password: 'MYSQL_PASSWORD' } as const;

export function renderSparkJob(job: SparkJob): string {
  const { sink } = job;
  if (isSqlSink(sink) && sink.mode === 'sql') {
    throw new DeltaportError('VALIDATION', 'a Spark job cannot run mode sql (your own statement per row); use append, overwrite or upsert');
  }
  if (sink.kind === 'duckdb') throw new DeltaportError('VALIDATION', 'a Spark job cannot write into a DuckDB file: export with Deltaport');
  // The job's CSV helper writes RFC 4180 only; a file in another style would silently differ from the app's export.
  if (sink.kind === 'csv' && !isDefaultCsvStyle(csvStyleOf(sink))) {
    throw new DeltaportError(
      'VALIDATION',
      'a Spark job writes CSV only in the default style (comma, double quote, header, empty null, LF)',
    );
  }
  if (sink.kind === 'postgres' && !job.server) throw new DeltaportError('VALIDATION', 'a PostgreSQL Spark job needs the server');
  if (sink.kind === 'mysql') {
    if (!job.mysqlServer) throw new DeltaportError('VALIDATION', 'a MySQL Spark job needs the server');
    // MySQL's DDL commits by itself, so the job's last steps cannot share one transaction with a ledger row, and
    // Spark's JDBC writer has no ON DUPLICATE KEY UPDATE: those stay with Deltaport's own export.
    if (sink.mode === 'upsert')
      throw new DeltaportError('VALIDATION', 'a Spark job into MySQL appends or overwrites; upsert with Deltaport itself');
    if (sink.exactlyOnce)
      throw new DeltaportError('VALIDATION', 'a Spark job into MySQL has no exactly-once; export with Deltaport itself for that');
  }
  const plans = job.fields.map((f, i) => columnPlan(f, i, sink.kind));
  const constants: Record<string, PyValue> = {
    APP_NAME: `deltaport export ${job.tablePath}`,
    PACKAGES: packagesFor(sink),
    TABLE_PATH: hadoopLocation(job.tablePath),
    VERSION: job.version,
    COLUMNS: job.fields.map((f) => f.name),
    POSITIONS: job.fields.map((_, i) => position(i)),
    WHERE: job.where?.condition ?? null,
    ...(isSqlSink(sink) ? sqlConstants(job, sink, plans) : fileConstants(job, sink)),
  };
  return [
    '#!/usr/bin/env python3',
    pyComment(header(job)),
    '',
    ...Object.entries(constants).map(([name, value]) => `${name} = ${pyValue(value)}`),
    '',
    '',
    'def staged_columns():',
    '    """The columns as they are written, in the forms Deltaport writes them."""',
    '    return [',
    ...plans.flatMap((p) => p.staged.map((s) => `        ${s.expression},`)),
    '    ]',
    '',
    '',
    pythonSource('spark_job.py'),
    ...(sink.kind === 'csv' || sink.kind === 'jsonl' ? ['', '', pythonSource('spark_text_helpers.py')] : []),
    '',
    '',
    'if __name__ == "__main__":',
    '    main()',
    '',
  ].join('\n');
}

function packagesFor(sink: SinkSpec): string[] {
  if (sink.kind === 'postgres') return [SPARK_PACKAGES.delta, SPARK_PACKAGES.postgres];
  if (sink.kind === 'sqlite') return [SPARK_PACKAGES.delta, SPARK_PACKAGES.sqlite];
  if (sink.kind === 'mysql') return [SPARK_PACKAGES.delta, SPARK_PACKAGES.mysql];
  return [SPARK_PACKAGES.delta];
}

/** The statements that end a JDBC job: FINISH in one transaction with the ledger row; BEFORE_FINISH and
 * AFTER_FINISH outside it; DROP_STAGING after a failure. */
interface FinishSteps {
  before: string[];
  finish: string[];
  after: string[];
  drop: string;
}

function sqlConstants(job: SparkJob, sink: SqlSinkSpec, plans: ColumnPlan[]): Record<string, PyValue> {
  const dialect: Dialect = sink.kind;
  const key = jobKey({ tableId: job.tableId, version: job.version, fields: job.fields, spec: sink });
  const stagingName = `_deltaport_spark_${key.slice(0, 16)}`;
  const staging = quoteIn(dialect, stagingName);
  const stagingFields = plans.flatMap((p) => p.staged.map((s) => s.field));
  const steps =
    dialect === 'mysql' ? mysqlSteps(sink, stagingName, job.fields, plans) : transactionalSteps(sink, staging, job.fields, plans);
  const writeOptions: Record<string, string> = { batchsize: String(sink.execution.batchSize) };
  // SQLite takes one writer at a time, and has no lower isolation level to ask for.
  if (dialect === 'sqlite') Object.assign(writeOptions, { numPartitions: '1', isolationLevel: 'SERIALIZABLE' });
  return {
    SINK: 'jdbc',
    TARGET: describeTarget(job),
    TARGET_TABLE: sink.table,
    JDBC_URL:
      sink.kind === 'sqlite' ? `jdbc:sqlite:${sink.path}` : sink.kind === 'mysql' ? mysqlJdbcUrl(job.mysqlServer!) : pgJdbcUrl(job.server!),
    JDBC_DRIVER: sink.kind === 'sqlite' ? 'org.sqlite.JDBC' : sink.kind === 'mysql' ? 'org.mariadb.jdbc.Driver' : 'org.postgresql.Driver',
    CREDENTIALS: sink.kind === 'postgres' ? { ...PG_CREDENTIALS } : sink.kind === 'mysql' ? { ...MYSQL_CREDENTIALS } : {},
    STAGING: staging,
    WRITE_OPTIONS: writeOptions,
    DROP_STAGING: steps.drop,
    PREPARE: [`DROP TABLE IF EXISTS ${staging}`, createTableSql(dialect, stagingName, stagingFields)],
    COUNT_STAGED: `SELECT count(*) FROM ${staging}`,
    BEFORE_FINISH: steps.before,
    FINISH: steps.finish,
    AFTER_FINISH: steps.after,
    JOB_KEY: key,
    LEDGER_PREPARE: sink.exactlyOnce ? [progressTableSql(dialect)] : [],
    LEDGER_READ: sink.exactlyOnce ? `SELECT done FROM ${quoteIn(dialect, PROGRESS_TABLE)} WHERE job_key = ?` : null,
    LEDGER_WRITE: sink.exactlyOnce ? saveProgressSql(dialect, () => '?') : null,
  };
}

/** PostgreSQL and SQLite run DDL inside a transaction: the target's creation (or replacement), the staged rows and
 * the staging table's drop all commit together. */
function transactionalSteps(sink: SqlSinkSpec, staging: string, fields: StructField[], plans: ColumnPlan[]): FinishSteps {
  const dialect = sink.kind as Exclude<Dialect, 'mysql' | 'duckdb'>;
  const keys = sink.mode === 'upsert' ? sink.keyColumns! : [];
  const create = {
    append: [createTableSql(dialect, sink.table, fields, [], true)],
    upsert: [createTableSql(dialect, sink.table, fields, keys, true)],
    overwrite: [`DROP TABLE IF EXISTS ${quoteName(sink.table)}`, createTableSql(dialect, sink.table, fields)],
  }[sink.mode as 'append' | 'upsert' | 'overwrite'];
  return {
    before: [],
    finish: [...create, insertFromStaging(dialect, sink.table, staging, fields, plans, keys), `DROP TABLE ${staging}`],
    after: [],
    drop: `DROP TABLE IF EXISTS ${staging}`,
  };
}

/** MySQL's DDL commits whatever transaction is open, so the target is created before the final transaction, which
 * only copies the staged rows. An overwrite copies them into a table of its own and swaps it in afterwards with one
 * RENAME TABLE, which is atomic (as Deltaport's own MySQL overwrite does): a failure before the swap leaves the
 * target as it was. */
function mysqlSteps(sink: SqlSinkSpec, stagingName: string, fields: StructField[], plans: ColumnPlan[]): FinishSteps {
  const q = (name: string) => quoteIn('mysql', name);
  const staging = q(stagingName);
  const copyInto = (table: string) => insertFromStaging('mysql', table, staging, fields, plans, []);
  if (sink.mode !== 'overwrite') {
    return {
      before: [createTableSql('mysql', sink.table, fields, [], true)],
      finish: [copyInto(sink.table)],
      after: [`DROP TABLE ${staging}`],
      drop: `DROP TABLE IF EXISTS ${staging}`,
    };
  }
  const [fresh, old] = [`${stagingName}_new`, `${stagingName}_old`];
  return {
    before: [
      `DROP TABLE IF EXISTS ${q(fresh)}, ${q(old)}`,
      createTableSql('mysql', fresh, fields),
      // So that the swap has a table to move aside.
      createTableSql('mysql', sink.table, fields, [], true),
    ],
    finish: [copyInto(fresh)],
    after: [`RENAME TABLE ${q(sink.table)} TO ${q(old)}, ${q(fresh)} TO ${q(sink.table)}`, `DROP TABLE ${q(old)}, ${staging}`],
    drop: `DROP TABLE IF EXISTS ${staging}, ${q(fresh)}`,
  };
}

/** The one statement that moves the staged rows into the target. An upsert in PostgreSQL may not touch a row twice
 * in one statement, so rows sharing a key collapse first. */
function insertFromStaging(
  dialect: Dialect,
  table: string,
  staging: string,
  fields: StructField[],
  plans: ColumnPlan[],
  keys: string[],
): string {
  const selects = plans.map((p) => p.select).join(', ');
  const into = `INSERT INTO ${quoteIn(dialect, table)} (${quoteListIn(
    dialect,
    fields.map((f) => f.name),
  )}) `;
  if (keys.length === 0) return `${into}SELECT ${selects} FROM ${staging}`;
  const stagedKeys = quoteList(keys.map((k) => position(fields.findIndex((f) => f.name === k))));
  const select =
    dialect === 'postgres'
      ? `SELECT DISTINCT ON (${stagedKeys}) ${selects} FROM ${staging} ORDER BY ${stagedKeys}`
      : // SQLite needs a WHERE to tell the upsert's ON from a join's.
        `SELECT ${selects} FROM ${staging} WHERE true`;
  return `${into}${select}${onConflict(fields, keys)}`;
}

function pgJdbcUrl(server: PgServer): string {
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  const params = new URLSearchParams({
    sslmode: server.sslmode,
    connectTimeout: String(Math.ceil(server.connectTimeoutMs / 1000)),
    // Text values (times, JSON) are sent untyped so the server reads them as the column's type.
    stringtype: 'unspecified',
    // One multi-row INSERT per batch instead of one statement per row.
    reWriteBatchedInserts: 'true',
    ApplicationName: 'deltaport-spark',
  });
  return `jdbc:postgresql://${host}:${server.port}/${encodeURIComponent(server.database ?? '')}?${params}`;
}

/** MariaDB Connector/J under the jdbc:mysql: scheme (permitMysqlScheme), so that Spark picks its MySQL dialect, which
 * quotes names with backticks; the session as Deltaport's own (strict, UTC). The driver reads the URL's options as
 * they are written: nothing in it is percent-encoded. */
function mysqlJdbcUrl(server: MysqlServer): string {
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  const params = [
    'permitMysqlScheme',
    `sslMode=${server.ssl ? 'verify-full' : 'disable'}`,
    `connectTimeout=${server.connectTimeoutMs}`,
    "sessionVariables=sql_mode='STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION',time_zone='+00:00'",
  ];
  return `jdbc:mysql://${host}:${server.port}/${server.database ?? ''}?${params.join('&')}`;
}

function fileConstants(job: SparkJob, sink: FileSinkSpec): Record<string, PyValue> {
  const common = {
    TARGET: sink.path,
    OUTPUT_PATH: sink.path,
    STAGING_PATH: `${sink.path}.spark-staging`,
    REPLACE: sink.overwrite === true,
  };
  // Parquet is Spark's own folder of part files; a text file is built as lines (spark-text-columns.ts) and
  // assembled into one file.
  if (sink.kind === 'parquet') return { SINK: 'folder', ...common };
  return {
    SINK: 'file',
    ...common,
    PARTIAL_PATH: `${sink.path}.spark-partial`,
    HEADER: sink.kind === 'csv' ? csvHeader(job.fields) : '',
    LINE_PARTS: sink.kind === 'csv' ? [] : jsonKeys(job.fields),
  };
}

function describeTarget(job: SparkJob): string {
  const { sink } = job;
  switch (sink.kind) {
    case 'postgres': {
      const s = job.server!;
      return `PostgreSQL table ${quoteName(sink.table)} at ${s.host}:${s.port}/${s.database ?? ''}`;
    }
    case 'sqlite':
      return `SQLite table ${quoteName(sink.table)} in ${sink.path}`;
    case 'mysql': {
      const s = job.mysqlServer!;
      return `MySQL table ${quoteIn('mysql', sink.table)} at ${s.host}:${s.port}/${s.database ?? ''}`;
    }
    case 'parquet':
      return `Parquet folder ${sink.path}`;
    default:
      return `${sink.kind === 'csv' ? 'CSV' : 'JSON Lines'} file ${sink.path}`;
  }
}

function header(job: SparkJob): string[] {
  const { sink } = job;
  const packages = packagesFor(sink).join(',');
  const asked =
    job.requested.timestampAsOf !== undefined
      ? `resolved from timestampAsOf ${pyString(job.requested.timestampAsOf)}`
      : job.requested.versionAsOf !== undefined
        ? 'as asked with versionAsOf'
        : 'the latest version when this job was made';
  const mode = isSqlSink(sink) ? `, mode ${sink.mode}${sink.mode === 'upsert' ? ` on (${sink.keyColumns!.join(', ')})` : ''}` : '';
  const lines = [
    'A Deltaport export handed to Apache Spark with Delta Lake: generated by Deltaport, run as it is.',
    '',
    `Reads  ${job.tablePath}`,
    `       version ${job.version} (${asked}), ${job.fields.length} column(s): ${job.fields.map((f) => f.name).join(', ')}`,
    ...(job.where ? [`       rows where ${job.where.text}`] : []),
    `Writes ${describeTarget(job)}${mode}${!isSqlSink(sink) && sink.overwrite ? ', replacing what is there' : ''}`,
    '',
    'Run it with Spark and Delta Lake installed:',
    `    spark-submit --packages ${packages} job.py`,
    'or with plain Python (the script asks for the same packages through spark.jars.packages):',
    `    ${PIP_INSTALL}`,
    '    python job.py',
  ];
  const credentials = sink.kind === 'postgres' ? PG_CREDENTIALS : sink.kind === 'mysql' ? MYSQL_CREDENTIALS : null;
  if (credentials) {
    lines.push('', `Credentials come from the environment, never from this file: ${credentials.user} and ${credentials.password}.`);
  }
  lines.push('', "What differs from Deltaport's own export:");
  if (isSqlSink(sink)) {
    lines.push(
      "- Spark's JDBC writer has no exactly-once: each partition commits on its own and a retried task writes its",
      '  rows again. So rows land in a staging table first, and one final transaction moves them into the target',
      '  and drops the staging table. A failed run leaves the target as it was; a rerun starts the staging table',
      '  afresh, so it never duplicates rows.',
      sink.exactlyOnce
        ? `- Exactly-once: the final transaction also records the job in ${PROGRESS_TABLE}, as Deltaport does; a rerun of a finished job writes nothing.`
        : "- Without exactly-once, a rerun of a finished append appends the rows again (as Deltaport's own append does).",
      '- The target table is created with the DDL Deltaport would run (below, in FINISH); an existing target is',
      '  not checked against it first, so an incompatible one fails in the final transaction.',
    );
    if (sink.mode === 'upsert') {
      lines.push('- Upsert: when rows share a key, Spark does not define which one wins (Deltaport keeps the last in scan order).');
    }
    if (sink.kind === 'sqlite')
      lines.push('- SQLite: one writer; the file must be reachable from the driver and the executors (local mode).');
    if (sink.kind === 'mysql') {
      lines.push(
        '- MySQL commits DDL by itself: the target is created before the final transaction (BEFORE_FINISH), and an',
        '  overwrite fills a table of its own, then swaps it in with one atomic RENAME TABLE (AFTER_FINISH).',
      );
    }
  } else if (sink.kind === 'parquet') {
    lines.push(
      `- Spark writes a folder of part files at ${sink.path}, not one file; it is built beside it and renamed into`,
      '  place at the end (on object stores a rename is a copy).',
    );
  } else {
    lines.push(
      `- One file, as Deltaport writes it: the lines are built in Spark (values spelled as Deltaport spells them:`,
      "  JavaScript's number text, ISO-8601 times, exact decimals, base64 binary, nested values as Deltaport's JSON,",
      '  floating-point and nested values by Python functions), written as one part file beside PATH, then copied',
      `  after the header into ${sink.path}.spark-partial and renamed into place: nothing is at PATH until it is complete.`,
      "  Rows are in the order Spark reads them, which may differ from the order of Deltaport's own export.",
      '- One file means one task writes every line at the end (coalesce(1)); reading and filtering stay parallel.',
    );
  }
  if (isSqlSink(sink) && job.fields.some((f) => typeof f.type !== 'string')) {
    lines.push(
      "- Nested values are written by Spark's JSON writer: decimals and longs inside them become JSON numbers (Deltaport writes them as text).",
    );
  }
  lines.push('- On a cluster, point TABLE_PATH and the target at storage every executor reaches (s3a://, abfss://, hdfs://).');
  return lines;
}

/** The table's location as Spark's Hadoop file systems name it: S3 through s3a:// (hadoop-aws); gs:// and abfss://
 * are already theirs. An az:// URL names no account, which Hadoop needs: it stays as given. */
function hadoopLocation(location: string): string {
  return location.startsWith('s3://') ? `s3a://${location.slice('s3://'.length)}` : location;
}
