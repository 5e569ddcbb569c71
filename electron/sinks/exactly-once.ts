// Exactly-once bookkeeping in the target database, and the names of a job's tables. Each transaction also writes
// how far the job has come, so its rows and its progress row commit together or not at all: a rerun after a crash,
// kill, cancel or lost connection resumes after the last committed transaction, and a finished job run again finds
// itself done.
import { createHash } from 'node:crypto';
import type { StructField } from '../../shared/delta-schema.js';
import type { SqlSinkSpec } from '../../shared/sink-spec.js';
import { typeLabel } from '../../shared/delta-schema.js';
import type { StreamProgress } from './batching.js';
import { quoteIn } from './sql-identifiers.js';
import type { Dialect } from './sql-types.js';

export const PROGRESS_TABLE = '_deltaport_progress';

export interface JobIdentity {
  tableId: string;
  version: number;
  fields: StructField[];
  spec: SqlSinkSpec;
}

/** The job key: the same snapshot, columns and target (with its mode) is the same job; an app's export is moreover
 * the job it names (spec.jobId), so that only its Retry resumes it. */
export function jobKey({ tableId, version, fields, spec }: JobIdentity): string {
  const identity = JSON.stringify([
    tableId,
    version,
    fields.map((f) => [f.name, typeLabel(f.type)]),
    spec.table,
    spec.mode,
    spec.mode === 'upsert' ? spec.keyColumns : null,
    spec.mode === 'sql' ? spec.sql : null,
    // Only where set, so that the CLI's keys stay what they were (a ledger row of an older run still resumes).
    ...(spec.jobId === undefined ? [] : [spec.jobId]),
  ]);
  return createHash('sha256').update(identity).digest('hex').slice(0, 32);
}

/** The start of every staging table name of a job. */
export function stagingPrefix(job: string): string {
  return `_deltaport_stage_${job.slice(0, 16)}`;
}

/** Where an overwrite builds the new contents before the swap: an exactly-once job keeps one across its runs, any
 * other run has its own (`run`), so that overwrites running at once never fill the same table. */
export function stagingTable(job: string, run: string | null): string {
  return run === null ? stagingPrefix(job) : `${stagingPrefix(job)}_${run.replaceAll('-', '').slice(0, 12)}`;
}

/** Lists the tables whose name starts with $1 / ? (the staging tables of a job). */
export function stagingTablesSql(dialect: Dialect): string {
  switch (dialect) {
    case 'postgres':
      return 'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND starts_with(tablename, $1)';
    case 'duckdb':
      return 'SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = current_schema() AND starts_with(table_name, ?)';
    case 'mysql':
      return 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND instr(table_name, ?) = 1';
    case 'sqlite':
      return "SELECT name FROM sqlite_master WHERE type = 'table' AND instr(name, ?) = 1";
  }
}

export interface StoredProgress extends StreamProgress {
  rowsWritten: number;
  done: boolean;
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

const PROGRESS_TYPES: Record<Dialect, [key: string, int: string, bool: string, time: string]> = {
  postgres: ['text', 'bigint', 'boolean', 'timestamptz'],
  // MySQL indexes only text of a declared length: a job key is 32 hex digits.
  mysql: ['varchar(64)', 'bigint', 'boolean', 'datetime(6)'],
  sqlite: ['text', 'INTEGER', 'INTEGER', 'TEXT'],
  duckdb: ['text', 'bigint', 'boolean', 'timestamptz'],
};

export function progressTableSql(dialect: Dialect): string {
  const [key, int, bool, time] = PROGRESS_TYPES[dialect];
  return `CREATE TABLE IF NOT EXISTS ${quoteIn(dialect, PROGRESS_TABLE)} (job_key ${key} PRIMARY KEY, target_table text NOT NULL, file_index ${int}, rows_in_file ${int}, rows_after ${int} NOT NULL, rows_written ${int} NOT NULL, done ${bool} NOT NULL, updated_at ${time} NOT NULL)`;
}

export async function readProgress(query: Query, dialect: Dialect, key: string): Promise<StoredProgress | null> {
  const rows = await query(
    `SELECT file_index, rows_in_file, rows_after, rows_written, done FROM ${quoteIn(dialect, PROGRESS_TABLE)} WHERE job_key = ${placeholder(dialect, 1)}`,
    [key],
  );
  if (rows.length === 0) return null;
  const r = rows[0];
  return {
    position: r.file_index === null ? null : { fileIndex: Number(r.file_index), rowsInFile: Number(r.rows_in_file) },
    rowsAfter: Number(r.rows_after),
    rowsWritten: Number(r.rows_written),
    done: r.done === true || Number(r.done) === 1,
  };
}

export async function saveProgress(query: Query, dialect: Dialect, key: string, target: string, p: StoredProgress): Promise<void> {
  const { text, values } = progressStatement(dialect, key, target, p);
  await query(text, values);
}

/** A statement and its parameters. */
export interface SqlStatement {
  text: string;
  values: (string | number | boolean | null)[];
}

/** The statement that records a job's progress, with its parameters: run inside the transaction of the rows it counts. */
export function progressStatement(dialect: Dialect, key: string, target: string, p: StoredProgress): SqlStatement {
  const done = dialect === 'sqlite' ? (p.done ? 1 : 0) : p.done;
  return {
    text: saveProgressSql(dialect, (n) => placeholder(dialect, n)),
    values: [key, target, p.position?.fileIndex ?? null, p.position?.rowsInFile ?? null, p.rowsAfter, p.rowsWritten, done],
  };
}

const PROGRESS_UPDATED = ['file_index', 'rows_in_file', 'rows_after', 'rows_written', 'done', 'updated_at'];

/** The progress row's upsert; its 7 parameters are key, target, file index, rows in file, rows after, rows written
 * and done. `$` spells parameter n (the Spark hand-off binds through JDBC's `?`). MySQL's VALUES() in ON DUPLICATE
 * KEY UPDATE is the one spelling MariaDB and MySQL 8 both read. */
export function saveProgressSql(dialect: Dialect, $: (n: number) => string): string {
  const now = { postgres: 'now()', mysql: 'CURRENT_TIMESTAMP(6)', sqlite: 'CURRENT_TIMESTAMP', duckdb: 'CURRENT_TIMESTAMP' }[dialect];
  const update =
    dialect === 'mysql'
      ? `ON DUPLICATE KEY UPDATE ${PROGRESS_UPDATED.map((c) => `${c} = VALUES(${c})`).join(', ')}`
      : `ON CONFLICT (job_key) DO UPDATE SET ${PROGRESS_UPDATED.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  return (
    `INSERT INTO ${quoteIn(dialect, PROGRESS_TABLE)} (job_key, target_table, file_index, rows_in_file, rows_after, rows_written, done, updated_at) ` +
    `VALUES (${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)}, ${now}) ${update}`
  );
}

export async function forgetProgress(query: Query, dialect: Dialect, key: string): Promise<void> {
  await query(`DELETE FROM ${quoteIn(dialect, PROGRESS_TABLE)} WHERE job_key = ${placeholder(dialect, 1)}`, [key]);
}

function placeholder(dialect: Dialect, n: number): string {
  return dialect === 'postgres' ? `$${n}` : '?';
}
