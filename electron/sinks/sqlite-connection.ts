// Opening a SQLite target and reading its catalog. WAL with synchronous=NORMAL is fast and still never corrupts the
// file (a power cut may lose the last commits, not the database); the busy timeout lets a writer wait out readers. A
// file the export creates gets 16 KiB pages: a quarter of the pages, WAL frames and checkpoint writes of SQLite's
// default 4 KiB for the same rows (an export of 2M rows took a tenth less time), while a page an update rewrites
// stays small.
import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { DeltaportError } from '../../shared/errors.js';
import { openDatabase } from '../native/sqlite-binding.js';
import type { TableDescription } from './sql-plan.js';

export const BUSY_TIMEOUT_MS = 5_000;
const NEW_FILE_PAGE_SIZE = 16_384;
/** The page cache, in KiB, of a connection that appends to a table's last pages only (see sizePageCache). */
const EDGE_CACHE_KIB = 2_048;

/** `readOnly`: only to read an existing file (plan, connection test), which it neither creates nor changes. */
export function openSqlite(path: string, options: { readOnly?: boolean } = {}): Database.Database {
  try {
    if (options.readOnly) return openForReading(path);
    const db = openDatabase(path, { timeout: BUSY_TIMEOUT_MS });
    // Takes effect only while the file is empty, before the journal mode writes its header.
    db.pragma(`page_size = ${NEW_FILE_PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (err) {
    throw new DeltaportError('SINK_CONNECTION', `cannot open SQLite database ${path}: ${sqliteMessage(err)}`);
  }
}

/** A read-only connection to a WAL database creates -wal and -shm files it cannot remove when it closes; a
 * connection that may write (and here only reads) removes them as the last one out. Read-only is the fallback for a
 * file this process may not write. */
function openForReading(path: string): Database.Database {
  try {
    return openDatabase(path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    if (!/^SQLITE_(READONLY|CANTOPEN|PERM)/.test(String((err as { code?: unknown }).code))) throw err;
    return openDatabase(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  }
}

/** Statements prepared once on `db` and run again by their text. better-sqlite3 frees a statement's compiled program
 * only when V8 collects its object, and those objects are small: an export that prepared BEGIN, COMMIT, the lease's
 * renewal and its rows' copy anew for each of its transactions held thousands of them between collections, and its
 * memory rose all the way through (docs/benchmark.md, "the SQLite export's statements"). */
export function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

/** Sizes the connection's page cache for writing into `table`. Rows copied into a table with no index but its rowid
 * land on the last pages of its b-tree (an upsert on the rowid also finds its rows in key order): a small cache holds
 * them, where SQLite's default (16 MB a connection here) filled up with pages written once and never read again. An
 * index takes its entries in its own order, all over it: there the default keeps its pages from being read again
 * (a 2M-row append into a table indexed on a random text column took 1.14x the time with 2 MB). `defaultKib` is the
 * connection's cache as opened. */
export function sizePageCache(db: Database.Database, table: string, defaultKib: number): void {
  const indexed = db.prepare('SELECT EXISTS (SELECT 1 FROM pragma_index_list(?))').pluck().get(table) === 1;
  db.pragma(`cache_size = ${indexed ? defaultKib : -EDGE_CACHE_KIB}`);
}

export function describeSqliteTable(db: Database.Database, table: string): TableDescription | null {
  const columns = db.prepare('SELECT name, type, "notnull" AS not_null, dflt_value, pk FROM pragma_table_info(?)').all(table) as {
    name: string;
    type: string;
    not_null: number;
    dflt_value: unknown;
    pk: number;
  }[];
  if (columns.length === 0) return null;
  const uniqueKeys: string[][] = [];
  const primaryKey = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  if (primaryKey.length > 0) uniqueKeys.push(primaryKey.map((c) => c.name));
  const indexes = db.prepare('SELECT name FROM pragma_index_list(?) WHERE "unique" = 1 AND partial = 0').all(table) as { name: string }[];
  for (const index of indexes) {
    const parts = db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(index.name) as { name: string | null }[];
    if (parts.every((p) => p.name !== null)) uniqueKeys.push(parts.map((p) => p.name!));
  }
  return {
    columns: columns.map((c) => ({ name: c.name, type: c.type, notNull: c.not_null === 1, hasDefault: c.dflt_value !== null })),
    uniqueKeys,
  };
}

/** The target table as it is now, without creating the file when it does not exist. */
export async function describeSqliteFile(path: string, table: string): Promise<TableDescription | null> {
  if (!existsSync(path)) return null;
  const db = openSqlite(path, { readOnly: true });
  try {
    return describeSqliteTable(db, table);
  } finally {
    db.close();
  }
}

export function sqliteMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}
