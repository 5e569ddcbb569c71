// Exactly-once bookkeeping in the target database, and the names of a job's tables. Each transaction also writes
// how far the job has come, so its rows and its progress row commit together or not at all: a rerun after a crash,
// kill, cancel or lost connection resumes after the last committed transaction, and a finished job run again finds
// itself done. An export over several connections (PostgreSQL) keeps a row per connection ("lane"): each says how far
// every row is committed (a prefix of the stream, with its scan position) and, where its lane's last transaction
// committed ahead of that prefix, which rows that transaction held, so that a resume skips them.
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

/** The start of the names of an upsert's staging tables (one per connection, where an upsert has several). */
export function upsertStagePrefix(job: string): string {
  return `${stagingPrefix(job)}_u`;
}

/** The staging table of an upsert's lane `lane` (its ledger key's number): an exactly-once job's is kept across its
 * runs, any other run's is its own (`run`). */
export function upsertStage(job: string, lane: number, run: string | null): string {
  return `${upsertStagePrefix(job)}${lane}${run === null ? '' : `_${run.replaceAll('-', '').slice(0, 12)}`}`;
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
  /** Rows committed beyond `rowsWritten` by an export over several connections, in order; empty for one. */
  ahead: RowRange[];
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

const PROGRESS_TYPES: Record<Dialect, [key: string, int: string, bool: string, time: string]> = {
  postgres: ['text', 'bigint', 'boolean', 'timestamptz'],
  // MySQL indexes only text of a declared length: a job key is 32 hex digits.
  mysql: ['varchar(64)', 'bigint', 'boolean', 'datetime(6)'],
  sqlite: ['text', 'INTEGER', 'INTEGER', 'TEXT'],
  duckdb: ['text', 'bigint', 'boolean', 'timestamptz'],
};

/** PostgreSQL's ledger also says which rows a lane's transaction committed ahead of the prefix (ahead_from to
 * ahead_to, in the export's row numbers); only an export over several connections fills them. */
const AHEAD_COLUMNS = ['ahead_from', 'ahead_to'];

export function progressTableSql(dialect: Dialect): string {
  const [key, int, bool, time] = PROGRESS_TYPES[dialect];
  const ahead = dialect === 'postgres' ? AHEAD_COLUMNS.map((c) => `, ${c} ${int}`).join('') : '';
  return `CREATE TABLE IF NOT EXISTS ${quoteIn(dialect, PROGRESS_TABLE)} (job_key ${key} PRIMARY KEY, target_table text NOT NULL, file_index ${int}, rows_in_file ${int}, rows_after ${int} NOT NULL, rows_written ${int} NOT NULL, done ${bool} NOT NULL, updated_at ${time} NOT NULL${ahead})`;
}

/** Creates the ledger where there is none. A PostgreSQL ledger made before it had the lanes' columns gets them. */
export async function prepareLedger(query: Query, dialect: Dialect): Promise<void> {
  await query(progressTableSql(dialect));
  if (dialect === 'postgres') await addAheadColumns(query);
}

/** Asked first, as ALTER TABLE would lock the ledger of every export even when it has them. */
async function addAheadColumns(query: Query): Promise<void> {
  const [found] = await query('SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = ANY($2)', [
    quoteIn('postgres', PROGRESS_TABLE),
    AHEAD_COLUMNS,
  ]);
  if (Number(found.n) < AHEAD_COLUMNS.length)
    await query(
      `ALTER TABLE ${quoteIn('postgres', PROGRESS_TABLE)} ${AHEAD_COLUMNS.map((c) => `ADD COLUMN IF NOT EXISTS ${c} bigint`).join(', ')}`,
    );
}

/** The ledger key of lane `lane` of a job: the job's own for the first, so that an export over one connection keeps
 * the one row it always had. */
export function laneKey(job: string, lane: number): string {
  return lane === 0 ? job : `${job}.${lane}`;
}

/** Export rows `from` (inclusive) to `to` (exclusive), numbered from 0 in the stream's order. */
export interface RowRange {
  from: number;
  to: number;
}

/** One lane's row: every row before `rowsWritten` is committed (the stream resumes at `position` plus `rowsAfter`),
 * and so are the rows of `ahead`. */
export interface LaneProgress extends StreamProgress {
  key: string;
  rowsWritten: number;
  ahead: RowRange | null;
  done: boolean;
}

export async function readProgress(query: Query, dialect: Dialect, key: string): Promise<StoredProgress | null> {
  const lanes = await readLanes(query, dialect, key);
  return lanes.length === 0 ? null : mergeLanes(lanes);
}

/** Every lane row of the job (several where it was exported over several connections). */
export async function readLanes(query: Query, dialect: Dialect, key: string): Promise<LaneProgress[]> {
  const rows = await query(
    `SELECT * FROM ${quoteIn(dialect, PROGRESS_TABLE)} WHERE job_key = ${placeholder(dialect, 1)} OR job_key LIKE ${placeholder(dialect, 2)}`,
    [key, `${key}.%`],
  );
  return rows.map((r) => ({
    key: String(r.job_key),
    position: r.file_index === null ? null : { fileIndex: Number(r.file_index), rowsInFile: Number(r.rows_in_file) },
    rowsAfter: Number(r.rows_after),
    rowsWritten: Number(r.rows_written),
    ahead: r.ahead_to === undefined || r.ahead_to === null ? null : { from: Number(r.ahead_from), to: Number(r.ahead_to) },
    done: r.done === true || Number(r.done) === 1,
  }));
}

/** What the lanes say together: the longest committed prefix, and the rows committed beyond it. */
export function mergeLanes(lanes: LaneProgress[]): StoredProgress {
  const prefix = lanes.reduce((a, b) => (b.rowsWritten > a.rowsWritten ? b : a));
  const ahead = lanes
    .map((l) => l.ahead)
    .filter((r): r is RowRange => r !== null && r.to > prefix.rowsWritten)
    .sort((a, b) => a.from - b.from);
  return {
    position: prefix.position,
    rowsAfter: prefix.rowsAfter,
    rowsWritten: prefix.rowsWritten,
    done: lanes.some((l) => l.done),
    ahead,
  };
}

export async function saveProgress(query: Query, dialect: Dialect, key: string, target: string, p: LaneRow): Promise<void> {
  const { text, values } = progressStatement(dialect, key, target, p);
  await query(text, values);
}

/** A statement and its parameters. */
export interface SqlStatement {
  text: string;
  values: (string | number | boolean | null)[];
}

/** What one lane's row records. */
export type LaneRow = Omit<LaneProgress, 'key'>;

/** The statement that records a lane's progress, with its parameters: run inside the transaction of the rows it
 * counts. */
export function progressStatement(dialect: Dialect, key: string, target: string, p: LaneRow): SqlStatement {
  const done = dialect === 'sqlite' ? (p.done ? 1 : 0) : p.done;
  const ahead = dialect === 'postgres' ? [p.ahead?.from ?? null, p.ahead?.to ?? null] : [];
  return {
    text: saveProgressSql(dialect, (n) => placeholder(dialect, n), dialect === 'postgres'),
    values: [key, target, p.position?.fileIndex ?? null, p.position?.rowsInFile ?? null, p.rowsAfter, p.rowsWritten, done, ...ahead],
  };
}

const PROGRESS_UPDATED = ['file_index', 'rows_in_file', 'rows_after', 'rows_written', 'done', 'updated_at'];

/** The progress row's upsert; its 7 parameters are key, target, file index, rows in file, rows after, rows written
 * and done, and with `ahead` (PostgreSQL's lanes) the 8th and 9th the rows committed ahead. `$` spells parameter n
 * (the Spark hand-off binds through JDBC's `?`). MySQL's VALUES() in ON DUPLICATE KEY UPDATE is the one spelling
 * MariaDB and MySQL 8 both read. */
export function saveProgressSql(dialect: Dialect, $: (n: number) => string, ahead = false): string {
  const now = { postgres: 'now()', mysql: 'CURRENT_TIMESTAMP(6)', sqlite: 'CURRENT_TIMESTAMP', duckdb: 'CURRENT_TIMESTAMP' }[dialect];
  const extra = ahead ? AHEAD_COLUMNS : [];
  const updated = [...PROGRESS_UPDATED, ...extra];
  const update =
    dialect === 'mysql'
      ? `ON DUPLICATE KEY UPDATE ${updated.map((c) => `${c} = VALUES(${c})`).join(', ')}`
      : `ON CONFLICT (job_key) DO UPDATE SET ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  const columns = ['job_key', 'target_table', 'file_index', 'rows_in_file', 'rows_after', 'rows_written', 'done', 'updated_at', ...extra];
  const values = [1, 2, 3, 4, 5, 6, 7].map($).concat(
    now,
    extra.map((_, i) => $(8 + i)),
  );
  return `INSERT INTO ${quoteIn(dialect, PROGRESS_TABLE)} (${columns.join(', ')}) VALUES (${values.join(', ')}) ${update}`;
}

export async function forgetProgress(query: Query, dialect: Dialect, key: string): Promise<void> {
  await query(`DELETE FROM ${quoteIn(dialect, PROGRESS_TABLE)} WHERE job_key = ${placeholder(dialect, 1)}`, [key]);
  const { text, values } = forgetLanesStatement(dialect, key);
  await query(text, values);
}

/** Removes the rows of a job's lanes but its first (whose row then says the job is done, or is removed as well). */
export function forgetLanesStatement(dialect: Dialect, key: string): SqlStatement {
  return { text: `DELETE FROM ${quoteIn(dialect, PROGRESS_TABLE)} WHERE job_key LIKE ${placeholder(dialect, 1)}`, values: [`${key}.%`] };
}

function placeholder(dialect: Dialect, n: number): string {
  return dialect === 'postgres' ? `$${n}` : '?';
}
