// An export that fails after its SQL sink created the target table (the reader meets a data file VACUUM removed, so
// the failure comes once rows are being read) leaves no table behind: the sink drops the table it created and never
// committed a row into. (A table that holds committed rows stays: job-runner's cancel tests; MariaDB:
// mysql-real-tables.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DeltaportError } from '../../../shared/errors.js';
import { exportRequest } from '../../support/export-request.js';
import { createDatabase, dropDatabase } from '../../support/postgres.js';
import { tablePath } from '../../support/tables.js';
import { pgSpec, sqliteSpec } from './sink-harness.js';

// Its latest version lists a data file that is gone: the scan fails on it, after the target was made.
const VACUUMED = tablePath('checkpoints_vacuumed');

async function failedExport(sink: Parameters<typeof exportRequest>[0]['sink']): Promise<DeltaportError> {
  const err = await exportRequest({ source: { tablePath: VACUUMED }, sink }).catch((e: unknown) => e);
  if (!(err instanceof DeltaportError)) throw new Error(`the export did not fail: ${JSON.stringify(err)}`);
  expect(err.message).toContain('data file is missing');
  return err;
}

describe('a failed export into PostgreSQL', () => {
  let url = '';
  let client: pg.Client;
  beforeAll(async () => {
    url = await createDatabase(inject('pgUrl'), 'failed_target');
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await dropDatabase(url);
  });
  const tables = async () =>
    (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows.map(
      (r) => r.name,
    );

  it.each([1, 2])('leaves no table it created, appending or upserting (%i connections)', async (connections) => {
    await failedExport(pgSpec({ url }, { table: 'appended', connections }));
    await failedExport(pgSpec({ url }, { table: 'upserted', mode: 'upsert', keyColumns: ['value'], connections }));
    await failedExport(pgSpec({ url }, { table: 'replaced', mode: 'overwrite', connections }));
    expect(await tables()).toEqual([]);
  });
});

describe('a failed export into a SQLite file that was there before', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-failed-target-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves the file as it was, without the table the export created', async () => {
    const file = path.join(dir, 'there.db');
    new Database(file).exec('CREATE TABLE mine (a INTEGER); INSERT INTO mine VALUES (7)').close();
    await failedExport(sqliteSpec(file, { table: 'appended' }));
    const db = new Database(file, { readonly: true });
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_deltaport%' ESCAPE '\\' ORDER BY 1").all(),
    ).toEqual([{ name: 'mine' }]);
    expect(db.prepare('SELECT a FROM mine').all()).toEqual([{ a: 7 }]);
    db.close();
  });
});
