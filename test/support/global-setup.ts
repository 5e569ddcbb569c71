// Starts what the suites share (a real PostgreSQL) once per run; see test/support/postgres.ts. Test files read its
// URL with inject('pgUrl') and make their own database with createDatabase().
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide('pgUrl', server.url);
  return () => server.stop();
}
