// The benchmark's tables (made by the writer) read back through the project's own reader (openSource / DeltaTable),
// with expectations taken from what the tests wrote, not from the reader.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource } from '../../../electron/delta/source.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { writeLongLog, writeWideTable } from '../../bench/bench-tables.js';
import { duck, sqlText } from '../duckdb.js';
import { localReads, openLocal } from '../task-tables.js';

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'writer-read-back-'));
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function readColumn(tablePath: string, column: string, at: { versionAsOf?: number } = {}): Promise<unknown[]> {
  const source = await openSource({ tablePath, columnNames: [column], ...at }, openLocal);
  const values: unknown[] = [];
  for await (const { batch } of source.batches()) values.push(...batch.getChildAt(0)!.toArray());
  return values;
}

describe('the benchmark tables through our reader', () => {
  it('reads the wide table without the rows its deletion vector removes', async () => {
    const wide = await writeWideTable(path.join(dir, 'bench'), 3_000, 3);
    const ids = (await readColumn(wide.root, 'id')).map(Number).sort((a, b) => a - b);
    // Every 10th row of the first file (ids 0..999) is deleted.
    const expected = Array.from({ length: 3_000 }, (_, i) => i).filter((i) => i >= 1_000 || i % 10 !== 0);
    expect(ids).toEqual(expected);
    const files = (await fs.readdir(wide.root)).filter((n) => n.endsWith('.parquet')).map((n) => path.join(wide.root, n));
    const [{ n }] = await duck(`SELECT count(*) AS n FROM read_parquet([${files.map(sqlText).join(',')}])`);
    expect(n).toBe(3_000n);
  });

  it('opens the latest version of a checkpointed long log and travels back by timestamp', async () => {
    const longLog = await writeLongLog(path.join(dir, 'bench'), 230, 100);
    const names = await fs.readdir(path.join(longLog.root, '_delta_log'));
    expect(names.filter((n) => n.endsWith('.checkpoint.parquet')).sort()).toEqual([
      '00000000000000000100.checkpoint.parquet',
      '00000000000000000200.checkpoint.parquet',
    ]);
    const table = await DeltaTable.open(longLog.root, localReads);
    const latest = await table.snapshot();
    expect(latest.version).toBe(229);
    // 229 commits after the create, each adding one file; every 25th replaces a file instead (9 of them).
    expect(latest.files).toHaveLength(229 - 9);
    const past = await table.snapshot({ timestampMs: Date.parse('2024-01-01T02:00:30Z') });
    expect(past.version).toBe(120);
    expect(past.files).toHaveLength(120 - 4);
  });
});
