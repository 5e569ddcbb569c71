// Starts what the suites share (a real PostgreSQL and a real MariaDB) once per run; see test/support/postgres.ts and
// mariadb.ts. Test files read their URLs with inject('pgUrl') / inject('mysqlUrl') and make their own database with
// createDatabase() / createMysqlDatabase(). Where MariaDB is not installed, mysqlUrl is empty and mysqlMissing says
// why: the MySQL tests then fail saying so.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { mariadbMissing, startMariadb } from './mariadb.js';
import { startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    mysqlUrl: string;
    mysqlMissing: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = mariadbMissing();
  const [server, mariadb] = await Promise.all([startPostgres(), missing ? null : startMariadb()]);
  project.provide('pgUrl', server.url);
  project.provide('mysqlUrl', mariadb?.url ?? '');
  project.provide('mysqlMissing', missing ?? '');
  return async () => {
    await Promise.all([server.stop(), mariadb?.stop()]);
  };
}
