// "Test connection": reach the database, report its version and whether the target table is there. Nothing is
// created: a SQLite or DuckDB file that does not exist yet stays that way.
import { existsSync } from 'node:fs';
import { validationError } from '../../shared/errors.js';
import { validateSinkSpec, type ConnectionReport, type SqlSinkSpec } from '../../shared/sink-spec.js';

export async function testConnection(spec: SqlSinkSpec): Promise<ConnectionReport> {
  const problems = validateSinkSpec(spec);
  if (problems.length > 0) throw validationError(problems);
  if (spec.kind === 'sqlite') {
    const { openSqlite, describeSqliteTable } = await import('./sqlite-connection.js');
    const exists = existsSync(spec.path);
    const db = openSqlite(exists ? spec.path : ':memory:', { readOnly: exists });
    try {
      const version = db.prepare('SELECT sqlite_version() AS v').get() as { v: string };
      return { serverVersion: `SQLite ${version.v}`, targetExists: exists && describeSqliteTable(db, spec.table) !== null };
    } finally {
      db.close();
    }
  }
  if (spec.kind === 'duckdb') {
    const { describeDuckdbFile } = await import('./duckdb/duckdb-connection.js');
    const { version } = await import('@duckdb/node-api');
    return { serverVersion: `DuckDB ${version()}`, targetExists: (await describeDuckdbFile(spec.path, spec.table)) !== null };
  }
  if (spec.kind === 'mysql') {
    const { connectMysql, describeMysqlTable, linkQuery } = await import('./mysql/mysql-connection.js');
    const link = await connectMysql(spec.connection);
    try {
      const query = linkQuery(link);
      const [version] = await query('SELECT VERSION() AS v');
      const v = String(version.v);
      return {
        serverVersion: `${/mariadb/i.test(v) ? 'MariaDB' : 'MySQL'} ${v.replace(/-MariaDB.*$/i, '')}`,
        targetExists: (await describeMysqlTable(query, spec.table)) !== null,
      };
    } finally {
      await link.connection.end().catch(() => undefined);
    }
  }
  const { connectPg, describePgTable } = await import('./pg-connection.js');
  const { client } = await connectPg(spec.connection);
  try {
    const version = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return { serverVersion: `PostgreSQL ${version.rows[0].v}`, targetExists: (await describePgTable(client, spec.table)) !== null };
  } finally {
    await client.end().catch(() => undefined);
  }
}
