// The writer's tables read back through the project's own reader (openSource / DeltaTable), with expectations taken
// from what the tests wrote, not from the reader.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSampleTable } from '../../../electron/delta-writer/sample-table.js';
import { openSource } from '../../../electron/delta/source.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { writeLongLog, writeWideTable } from '../../bench/bench-tables.js';
import { duck, sqlString } from './log-reading.js';

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'writer-read-back-'));
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function readColumn(tablePath: string, column: string, at: { versionAsOf?: number } = {}): Promise<unknown[]> {
  const source = await openSource({ tablePath, columnNames: [column], ...at });
  const values: unknown[] = [];
  for await (const { batch } of source.batches()) values.push(...batch.getChildAt(0)!.toArray());
  return values;
}

describe('the sample table through our reader', () => {
  it('reads 33 orders at the latest version and 36 before the deletes', async () => {
    const root = await writeSampleTable(dir);
    const all = Array.from({ length: 36 }, (_, i) => i + 1);
    const latest = (await readColumn(root, 'order_id')).map(Number).sort((a, b) => a - b);
    expect(latest).toEqual(all.filter((id) => ![3, 6, 20].includes(id)));
    const beforeDeletes = (await readColumn(root, 'order_id', { versionAsOf: 3 })).map(Number).sort((a, b) => a - b);
    expect(beforeDeletes).toEqual(all);
  });

  it('resolves a timestamp between two commits to the earlier one (commits are a day apart from 2024-03-01 09:00)', async () => {
    const table = await DeltaTable.open(await writeSampleTable(dir));
    expect(await table.resolveTimestamp(Date.parse('2024-03-04T08:59:59Z'))).toBe(2);
    expect(await table.resolveTimestamp(Date.parse('2024-03-04T09:00:00Z'))).toBe(3);
  });

  it('fills the region partition column from the folders', async () => {
    const regions = await readColumn(await writeSampleTable(dir), 'region');
    const counts = Object.fromEntries(['APAC', 'EU', 'NA'].map((r) => [r, regions.filter((v) => v === r).length]));
    // APAC: 8 written, 1 deleted; EU: 8 + 6 written, 2 deleted; NA: 8 + 6.
    expect(counts).toEqual({ APAC: 7, EU: 12, NA: 14 });
  });
});

describe('the benchmark tables through our reader', () => {
  it('reads the wide table without the rows its deletion vector removes', async () => {
    const wide = await writeWideTable(path.join(dir, 'bench'), 3_000, 3);
    const ids = (await readColumn(wide.root, 'id')).map(Number).sort((a, b) => a - b);
    // Every 10th row of the first file (ids 0..999) is deleted.
    const expected = Array.from({ length: 3_000 }, (_, i) => i).filter((i) => i >= 1_000 || i % 10 !== 0);
    expect(ids).toEqual(expected);
    const files = (await fs.readdir(wide.root)).filter((n) => n.endsWith('.parquet')).map((n) => path.join(wide.root, n));
    const [{ n }] = await duck(`SELECT count(*) AS n FROM read_parquet([${files.map(sqlString).join(',')}])`);
    expect(n).toBe(3_000n);
  });

  it('opens the latest version of a checkpointed long log and travels back by timestamp', async () => {
    const longLog = await writeLongLog(path.join(dir, 'bench'), 230, 100);
    const names = await fs.readdir(path.join(longLog.root, '_delta_log'));
    expect(names.filter((n) => n.endsWith('.checkpoint.parquet')).sort()).toEqual([
      '00000000000000000100.checkpoint.parquet',
      '00000000000000000200.checkpoint.parquet',
    ]);
    const table = await DeltaTable.open(longLog.root);
    const latest = await table.snapshot();
    expect(latest.version).toBe(229);
    // 229 commits after the create, each adding one file; every 25th replaces a file instead (9 of them).
    expect(latest.files).toHaveLength(229 - 9);
    const past = await table.snapshot({ timestampMs: Date.parse('2024-01-01T02:00:30Z') });
    expect(past.version).toBe(120);
    expect(past.files).toHaveLength(120 - 4);
  });
});
