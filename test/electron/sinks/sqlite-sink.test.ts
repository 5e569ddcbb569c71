import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteSink } from '../../../electron/sinks/sqlite-sink.js';
import { drive, NUMBERED_FIELDS, numberedTable, sqliteSpec, streamOf } from './sink-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshFile = (): string => path.join(dir, `db${n++}.sqlite`);

function readAll(file: string, sql: string): Record<string, unknown>[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).safeIntegers().all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('sqlite sink: modes', () => {
  it('append creates the table and lands every row once, in batches of batchSize', async () => {
    const file = freshFile();
    const stream = streamOf(numberedTable(12_345), NUMBERED_FIELDS, 2048, 5000);
    await drive(createSqliteSink(sqliteSpec(file, { batchSize: 1000 })), stream);
    const [count] = readAll(file, 'SELECT count(*) AS n, count(DISTINCT id) AS d, min(id) AS lo, max(id) AS hi FROM target');
    expect(count).toEqual({ n: 12_345n, d: 12_345n, lo: 0n, hi: 12_344n });
    expect(readAll(file, 'SELECT label FROM target WHERE id = 777')).toEqual([{ label: 'row 777' }]);
  });
});
