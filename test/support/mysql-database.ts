// A test file's own MariaDB database with a connected client: created before the file's tests, dropped after them.
// The server is the run's shared one (global-setup.ts); where MariaDB is not installed, the file's tests fail saying so.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, inject } from 'vitest';
import { createMysqlDatabase, dropMysqlDatabase } from './mariadb.js';

export interface MysqlTestDatabase {
  /** Set once the file's tests run. */
  readonly url: string;
  readonly client: mysql.Connection;
  /** The rows of a query, values as text (dates too). */
  rows(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

export function useMysqlDatabase(prefix: string): MysqlTestDatabase {
  const db = {
    url: '',
    client: null as unknown as mysql.Connection,
    async rows(sql: string, params?: unknown[]) {
      const [rows] = await db.client.query(sql, params);
      return rows as Record<string, unknown>[];
    },
  };
  beforeAll(async () => {
    const server = inject('mysqlUrl');
    if (!server) throw new Error(inject('mysqlMissing'));
    db.url = await createMysqlDatabase(server, prefix);
    db.client = await mysql.createConnection({ uri: db.url, dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
  });
  afterAll(async () => {
    await db.client?.end();
    if (db.url) await dropMysqlDatabase(db.url);
  });
  return db;
}
