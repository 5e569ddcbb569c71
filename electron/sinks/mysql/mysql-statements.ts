// The statements the MySQL sink runs. Names are quoted with backticks (sql-identifiers.ts); values travel only as LOAD
// DATA's stream or as parameters.
import type { StructField } from '../../../shared/delta-schema.js';
import { quoteIn, quoteListIn } from '../sql-identifiers.js';
import { sqlType, valueKind } from '../sql-types.js';

const q = (name: string) => quoteIn('mysql', name);

/** What LOAD DATA LOCAL INFILE asks the client for; the stream is the transaction's rows, whatever the name. */
export const LOAD_DATA_FILE = 'deltaport-rows';

/** Loads the stream written by copy-text.ts with MYSQL_TEXT into `table`: tab-separated, \N for null, backslash
 * escapes, UTF-8; binary values come as hex digits and are unhexed into their column. */
export function loadDataSql(table: string, fields: StructField[]): string {
  const targets = fields.map((f, c) => (valueKind(f) === 'binary' ? `@b${c}` : q(f.name)));
  const unhex = fields.flatMap((f, c) => (valueKind(f) === 'binary' ? [`${q(f.name)} = unhex(@b${c})`] : []));
  return (
    `LOAD DATA LOCAL INFILE '${LOAD_DATA_FILE}' INTO TABLE ${q(table)} CHARACTER SET utf8mb4 ` +
    `FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' (${targets.join(', ')})` +
    (unhex.length > 0 ? ` SET ${unhex.join(', ')}` : '')
  );
}

/** Rows of one multi-row INSERT where the server refuses LOAD DATA LOCAL: `rows` groups of placeholders, binary
 * values unhexed as in loadDataSql. */
export function insertValuesSql(table: string, fields: StructField[], rows: number): string {
  const row = `(${fields.map((f) => (valueKind(f) === 'binary' ? 'unhex(?)' : '?')).join(', ')})`;
  return `INSERT INTO ${q(table)} (${quoteListIn(
    'mysql',
    fields.map((f) => f.name),
  )}) VALUES ${Array(rows).fill(row).join(', ')}`;
}

/** A session's landing table for upserts; the arrival column keeps the rows' order so that the last row of a key
 * wins. */
export const UPSERT_TEMP = '_deltaport_upsert';
const ARRIVAL = '_deltaport_arrival';

export function upsertTempSql(fields: StructField[], keys: string[]): string {
  const columns = fields.map((f) => `${q(f.name)} ${sqlType(f, 'mysql', keys.includes(f.name))}`);
  return (
    `CREATE TEMPORARY TABLE IF NOT EXISTS ${q(UPSERT_TEMP)} (${columns.join(', ')}, ${q(ARRIVAL)} bigint AUTO_INCREMENT PRIMARY KEY) ` +
    'DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin'
  );
}

/** Merges the landed rows in their order: ON DUPLICATE KEY UPDATE applies them one after another, so the last row of
 * a key is what stays. A table whose every column is a key has nothing to update: the key is set to itself. */
export function upsertMergeSql(table: string, fields: StructField[], keys: string[]): string {
  const columns = quoteListIn(
    'mysql',
    fields.map((f) => f.name),
  );
  const keySet = new Set(keys);
  const updated = fields.filter((f) => !keySet.has(f.name)).map((f) => f.name);
  const updates = (updated.length > 0 ? updated : [keys[0]]).map((name) => `${q(name)} = VALUES(${q(name)})`);
  return (
    `INSERT INTO ${q(table)} (${columns}) SELECT ${columns} FROM ${q(UPSERT_TEMP)} ORDER BY ${q(ARRIVAL)} ` +
    `ON DUPLICATE KEY UPDATE ${updates.join(', ')}`
  );
}

export const CLEAR_UPSERT_TEMP = `DELETE FROM ${q(UPSERT_TEMP)}`;

/** What the plan shows as the statement of each transaction. */
export function mysqlRowsSql(table: string, fields: StructField[], keys: string[] | null, localInfile: boolean): string {
  const into = keys ? UPSERT_TEMP : table;
  const load = localInfile
    ? loadDataSql(into, fields)
    : `${insertValuesSql(into, fields, 1)}, ... (multi-row INSERTs: the server refuses LOAD DATA LOCAL INFILE, local_infile is OFF)`;
  return keys ? `${upsertTempSql(fields, keys)}; ${load}; ${upsertMergeSql(table, fields, keys)}` : load;
}

/** The tokens of committed transactions: each transaction writes its own, so that a retry after a COMMIT whose
 * answer was lost can look up whether it landed. A run removes its tokens when it ends. */
export const COMMITS_TABLE = '_deltaport_commits';
export const COMMITS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${q(COMMITS_TABLE)} (txn varchar(80) PRIMARY KEY, committed_at datetime(6) NOT NULL) ENGINE=InnoDB`;
export const COMMIT_TOKEN_SQL = `INSERT INTO ${q(COMMITS_TABLE)} (txn, committed_at) VALUES (?, CURRENT_TIMESTAMP(6))`;
