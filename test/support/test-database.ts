// A test file's own PostgreSQL database with a connected client: created before the file's tests, dropped (with
// any sessions left on it) after them. Kept apart from postgres.ts, which the benchmark also runs outside vitest.
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase, dropDatabase } from './postgres.js';

export interface TestDatabase {
  /** Set once the file's tests run. */
  readonly url: string;
  readonly client: pg.Client;
}

export function useTestDatabase(prefix: string): TestDatabase {
  const db = { url: '', client: null as unknown as pg.Client };
  beforeAll(async () => {
    db.url = await createDatabase(inject('pgUrl'), prefix);
    db.client = new pg.Client({ connectionString: db.url });
    await db.client.connect();
  });
  afterAll(async () => {
    await db.client.end();
    await dropDatabase(db.url);
  });
  return db;
}
