// The statements a SQL sink runs, per dialect. Every name is quoted (sql-identifiers.ts); values only ever travel as
// parameters or COPY data.
import type { StructField } from '../../shared/delta-schema.js';
import { quoteName } from '../../shared/sql-quote.js';
import { quoteIn, quoteList } from './sql-identifiers.js';
import type { SqlStatement } from './exactly-once.js';
import { IMAGE_TABLE, imageColumn } from './sqlite-image.js';
import { sqlType, type Dialect, type ExistingColumn } from './sql-types.js';

/** The schema a SQLite transaction's rows are attached as (sqlite-image.ts). */
export const SQLITE_IMAGE_SCHEMA = 'deltaport_batch';

/** SQLite: a transaction's rows copied from their attached image. Into every column of the target in its order the
 * SELECT is `*`, which lets SQLite copy the records as they are (its transfer optimization needs exactly that form);
 * SQLite's upsert after a SELECT needs a WHERE clause. */
export function sqliteInsertSql(table: string, fields: StructField[], keys: string[] | null, allColumns: boolean): string {
  const into = `INSERT INTO main.${quoteName(table)}`;
  const source = `${quoteName(SQLITE_IMAGE_SCHEMA)}.${quoteName(IMAGE_TABLE)}`;
  if (allColumns && !keys) return `${into} SELECT * FROM ${source}`;
  const columns = fields.map((_, c) => quoteName(imageColumn(c))).join(', ');
  return `${into} (${columnList(fields)}) SELECT ${columns} FROM ${source}${keys ? ` WHERE true${onConflict(fields, keys)}` : ''}`;
}

/** An overwrite's swap: the old table dropped and the staging table renamed into its place, in one transaction.
 * PostgreSQL's first takes a lock of the target's name until it commits: two swaps at once would each drop the old
 * table, and the later rename would then collide with the table the earlier one put in place. With the lock the
 * later swap drops what the earlier one left (the last to swap wins). SQLite runs one writer at a time anyway, and a
 * DuckDB file has one process writing into it. */
export function swapSql(dialect: Dialect, table: string, staging: string): SqlStatement[] {
  if (dialect === 'mysql') return mysqlSwapSql(table, staging);
  const swap = [`DROP TABLE IF EXISTS ${quoteName(table)}`, `ALTER TABLE ${quoteName(staging)} RENAME TO ${quoteName(table)}`].map(
    (text) => ({ text, values: [] }),
  );
  if (dialect !== 'postgres') return swap;
  return [{ text: `SELECT pg_advisory_xact_lock(hashtext('deltaport swap'), hashtext($1))`, values: [table] }, ...swap];
}

/** MySQL's DDL commits by itself, so the swap is one RENAME TABLE of both names, which is atomic: readers see the old
 * table or the new one, never neither. RENAME needs a table to move aside, so an empty one is made where there is
 * none yet. Concurrent swaps take turns through a named lock of the target (GET_LOCK is the server's, whatever the
 * transaction does): each renames what the one before it put in place and drops it. A retry of a swap whose answer
 * was lost finds the staging table gone: its DDL then runs as DO 0 (a prepared statement chosen by the server). */
function mysqlSwapSql(table: string, staging: string): SqlStatement[] {
  const [target, stage, old] = [table, staging, `${staging}_old`].map((name) => quoteIn('mysql', name));
  const lock = `concat('deltaport swap ', left(sha2(concat(database(), '.', ?), 256), 32))`;
  const ifStaged = (ddl: string): SqlStatement[] => [
    { text: `SET @deltaport_swap = IF(@deltaport_staged = 1, ?, 'DO 0')`, values: [ddl] },
    { text: 'PREPARE deltaport_swap FROM @deltaport_swap', values: [] },
    { text: 'EXECUTE deltaport_swap', values: [] },
  ];
  return [
    { text: `SELECT GET_LOCK(${lock}, 86400)`, values: [table] },
    {
      text: 'SET @deltaport_staged = (SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?)',
      values: [staging],
    },
    { text: `DROP TABLE IF EXISTS ${old}`, values: [] },
    ...ifStaged(`CREATE TABLE IF NOT EXISTS ${target} LIKE ${stage}`),
    ...ifStaged(`RENAME TABLE ${target} TO ${old}, ${stage} TO ${target}`),
    { text: `DROP TABLE IF EXISTS ${old}`, values: [] },
    { text: 'DEALLOCATE PREPARE deltaport_swap', values: [] },
    { text: `SELECT RELEASE_LOCK(${lock})`, values: [table] },
  ];
}

/** The statements around a look into a table the run created and a drop of it if it is still empty: they keep every
 * other writer out in between, so that no other job's rows commit into it after it was seen empty and before it is
 * dropped, and they do not wait for a writer that holds the table (the table is then left as it is). MySQL's DDL
 * commits by itself, so there a table lock (which DROP TABLE may run under) holds instead of a transaction; SQLite's
 * IMMEDIATE transaction takes the write lock at once; a DuckDB file has one process writing. */
export function emptyDropLocks(dialect: Dialect, table: string): { lock: string[]; unlock: string; undo: string } {
  const name = quoteIn(dialect, table);
  if (dialect === 'mysql')
    return { lock: ['SET SESSION lock_wait_timeout = 1', `LOCK TABLES ${name} WRITE`], unlock: 'UNLOCK TABLES', undo: 'UNLOCK TABLES' };
  if (dialect === 'postgres')
    return { lock: ['BEGIN', `LOCK TABLE ${name} IN ACCESS EXCLUSIVE MODE NOWAIT`], unlock: 'COMMIT', undo: 'ROLLBACK' };
  return { lock: [dialect === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN TRANSACTION'], unlock: 'COMMIT', undo: 'ROLLBACK' };
}

/** Whether a SQLite table's columns are the exported ones, in their order. */
export function sameColumns(columns: ExistingColumn[], fields: StructField[]): boolean {
  return columns.length === fields.length && columns.every((c, i) => c.name === fields[i].name);
}

/** The upsert clause, the same in both dialects; rows whose every column is a key have nothing to update. */
export function onConflict(fields: StructField[], keys: string[]): string {
  const keySet = new Set(keys);
  const updates = fields.filter((f) => !keySet.has(f.name)).map((f) => `${quoteName(f.name)} = excluded.${quoteName(f.name)}`);
  return ` ON CONFLICT (${quoteList(keys)}) DO ${updates.length > 0 ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`;
}

export function copySql(table: string, fields: StructField[], binary = false): string {
  return `COPY ${quoteName(table)} (${columnList(fields)}) FROM STDIN${binary ? ' (FORMAT binary)' : ''}`;
}

/** A session's landing table for upserts; a serial column remembers arrival order so the last row of a key wins. */
export const UPSERT_TEMP = '_deltaport_upsert';
const ARRIVAL = '_deltaport_arrival';

export function upsertTempSql(fields: StructField[]): string {
  const columns = fields.map((f) => `${quoteName(f.name)} ${sqlType(f, 'postgres')}`);
  return `CREATE TEMP TABLE IF NOT EXISTS ${quoteName(UPSERT_TEMP)} (${columns.join(', ')}, ${quoteName(ARRIVAL)} bigserial) ON COMMIT DELETE ROWS`;
}

/** Merges the landed rows; PostgreSQL refuses to update one row twice in a statement, so duplicates collapse first. */
export function upsertMergeSql(table: string, fields: StructField[], keys: string[]): string {
  return mergeFrom(table, fields, keys, quoteName(UPSERT_TEMP));
}

function mergeFrom(table: string, fields: StructField[], keys: string[], source: string): string {
  return (
    `INSERT INTO ${quoteName(table)} (${columnList(fields)}) ` +
    `SELECT DISTINCT ON (${quoteList(keys)}) ${columnList(fields)} FROM ${source} ` +
    `ORDER BY ${quoteList(keys)}, ${quoteName(ARRIVAL)} DESC${onConflict(fields, keys)}`
  );
}

/** An upsert over several connections: each connection's staging table, kept until the final merge (an exactly-once
 * job's across its runs). Its arrival column numbers the rows in the export's order across every connection: each
 * transaction starts it at its first row's number (upsertArrivalSql). */
export function upsertStageSql(stage: string, fields: StructField[]): string {
  const columns = fields.map((f) => `${quoteName(f.name)} ${sqlType(f, 'postgres')}`);
  return `CREATE TABLE IF NOT EXISTS ${quoteName(stage)} (${columns.join(', ')}, ${quoteName(ARRIVAL)} bigserial)`;
}

/** Before a transaction's COPY into a staging table: its rows arrive numbered from $2 (sequences start at 1). */
export function upsertArrivalSql(stage: string, firstRow: number): { text: string; values: string[] } {
  return { text: `SELECT setval(pg_get_serial_sequence($1, '${ARRIVAL}'), $2, false)`, values: [quoteName(stage), String(firstRow + 1)] };
}

/** The final merge of every staging table, the later row of a key winning wherever it landed. */
export function upsertStagesMergeSql(table: string, fields: StructField[], keys: string[], stages: string[]): string {
  const columns = `${columnList(fields)}, ${quoteName(ARRIVAL)}`;
  const staged = stages.map((stage) => `SELECT ${columns} FROM ${quoteName(stage)}`).join(' UNION ALL ');
  return mergeFrom(table, fields, keys, `(${staged}) AS staged`);
}

export function columnList(fields: StructField[]): string {
  return quoteList(fields.map((f) => f.name));
}
