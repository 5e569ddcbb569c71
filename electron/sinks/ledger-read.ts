// What the exactly-once ledger in a target says of one job, read without changing anything: no table or file is
// created, no claim taken. A Retry asks it whether its job can resume after the rows an earlier run committed.
import { existsSync } from 'node:fs';
import type { SqlSinkSpec } from '../../shared/sink-spec.js';
import { PROGRESS_TABLE, readProgress, type StoredProgress } from './exactly-once.js';

/** The job's ledger row in the target, or null when the target, the ledger table or the row is not there. */
export async function readLedger(spec: SqlSinkSpec, key: string): Promise<StoredProgress | null> {
  if (spec.kind === 'sqlite') {
    if (!existsSync(spec.path)) return null;
    const { openSqlite } = await import('./sqlite-connection.js');
    const db = openSqlite(spec.path, { readOnly: true });
    try {
      const query = async (sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as Record<string, unknown>[];
      const [ledger] = await query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [PROGRESS_TABLE]);
      return ledger ? await readProgress(query, 'sqlite', key) : null;
    } finally {
      db.close();
    }
  }
  if (spec.kind === 'duckdb') {
    const { duckdbRows, readDuckdbFile } = await import('./duckdb/duckdb-connection.js');
    return readDuckdbFile(spec.path, async (connection) => {
      const query = (sql: string, params: unknown[] = []) => duckdbRows(connection, sql, params);
      const [ledger] = await query('SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND table_name = ?', [
        PROGRESS_TABLE,
      ]);
      return ledger ? await readProgress(query, 'duckdb', key) : null;
    });
  }
  if (spec.kind === 'mysql') {
    const { connectMysql, linkQuery } = await import('./mysql/mysql-connection.js');
    const link = await connectMysql(spec.connection);
    try {
      const query = linkQuery(link);
      const [ledger] = await query('SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [
        PROGRESS_TABLE,
      ]);
      return ledger ? await readProgress(query, 'mysql', key) : null;
    } finally {
      await link.connection.end().catch(() => undefined);
    }
  }
  const { connectPg } = await import('./pg-connection.js');
  const { client } = await connectPg(spec.connection);
  try {
    const query = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Record<string, unknown>[];
    // The same table the sink's unqualified name finds: the first schema of the search path that has it.
    const [ledger] = await query('SELECT to_regclass($1) IS NOT NULL AS found', [`"${PROGRESS_TABLE}"`]);
    return ledger?.found === true ? await readProgress(query, 'postgres', key) : null;
  } finally {
    await client.end().catch(() => undefined);
  }
}
