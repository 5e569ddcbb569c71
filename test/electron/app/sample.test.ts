// The built-in sample as the app copies it into a data folder (from assets/sample-sales), checked against its own log
// (its data files through DuckDB, its deletion vectors through the oracle's reader) and through our reader.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleTableProvider } from '../../../electron/app/sample.js';
import { openSource } from '../../../electron/delta/source.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { liveColumnValues } from '../../support/delta-oracle-rows.js';
import { commitFile, commitInfo, commitVersions, dataFile, type Json, liveFiles, readCommit } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { localReads, openLocal } from '../../support/task-tables.js';

let dir: string;
let root: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sample-table-'));
  root = await sampleTableProvider(dir)();
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function readColumn(column: string, at: { versionAsOf?: number } = {}): Promise<unknown[]> {
  const source = await openSource({ tablePath: root, columnNames: [column], ...at }, openLocal);
  const values: unknown[] = [];
  for await (const { batch } of source.batches()) values.push(...batch.getChildAt(0)!.toArray());
  return values;
}

/** Live order ids of the table as the test computes them: every live file through DuckDB, minus its deleted rows. */
async function liveOrderIds(version?: number): Promise<number[]> {
  return (await liveColumnValues(root, 'order_id', version)).map(Number).sort((a, b) => a - b);
}

describe('the built-in sample', () => {
  it('is copied into the data folder, and its path returned', async () => {
    expect(root).toBe(path.join(dir, 'sample-sales'));
    expect(commitVersions(root)).toEqual([0, 1, 2, 3, 4, 5]);
    const leftovers = (await fs.readdir(dir)).filter((n) => n !== 'sample-sales');
    expect(leftovers).toEqual([]);
  });

  it('records create, two appends, an update and two deletes, in that order', async () => {
    const operations: string[] = [];
    for (let v = 0; v <= 5; v++) {
      const info = commitInfo(root, v) as Json;
      operations.push(info.operation);
    }
    expect(operations).toEqual(['CREATE TABLE', 'WRITE', 'WRITE', 'UPDATE', 'DELETE', 'DELETE']);
  });

  it('declares reader version 3 with deletion vectors, and partitions by region', async () => {
    const first = readCommit(root, 0);
    const protocol = first.find((a) => a.protocol)?.protocol;
    expect(protocol).toEqual({
      minReaderVersion: 3,
      minWriterVersion: 7,
      readerFeatures: ['deletionVectors'],
      writerFeatures: ['deletionVectors'],
    });
    const metaData = first.find((a) => a.metaData)?.metaData;
    expect(metaData.partitionColumns).toEqual(['region']);
    expect(JSON.parse(metaData.schemaString).fields.map((f: Json) => f.name)).toEqual([
      'order_id',
      'region',
      'product',
      'quantity',
      'unit_price',
      'ordered_at',
      'paid',
      'note',
    ]);
  });

  it('has 36 orders after the appends and 33 after the deletes', async () => {
    const all = Array.from({ length: 36 }, (_, i) => i + 1);
    expect(await liveOrderIds(2)).toEqual(all);
    expect(await liveOrderIds()).toEqual(all.filter((id) => ![3, 6, 20].includes(id)));
  });

  it('uses a deletion vector file and an inline deletion vector', async () => {
    const dvs = (await liveFiles(root)).filter((a) => a.deletionVector).map((a) => a.deletionVector);
    expect(dvs.map((d) => [d.storageType, d.cardinality]).sort()).toEqual([
      ['i', 1],
      ['u', 2],
    ]);
    const binFiles = (await fs.readdir(root)).filter((n) => n.startsWith('deletion_vector_') && n.endsWith('.bin'));
    expect(binFiles).toHaveLength(1);
  });

  it('stores the region in folders and not in the data files, and the update in a rewritten file', async () => {
    const adds = await liveFiles(root);
    expect(adds.map((a) => a.path.split('/')[0]).sort()).toEqual(['region=APAC', 'region=EU', 'region=EU', 'region=NA', 'region=NA']);
    const naFiles = adds.filter((a) => a.partitionValues.region === 'NA').map((a) => dataFile(root, a));
    const rows = await duck(
      `SELECT order_id, unit_price FROM read_parquet([${naFiles.map(sqlText).join(',')}]) WHERE order_id <= 16 ORDER BY order_id`,
    );
    expect(rows.map((r) => [Number(r.order_id), r.unit_price])).toEqual([
      [9, 35],
      [10, 35],
      [11, 35],
      [12, 35],
      [13, 4.75],
      [14, 8.25],
      [15, 39.9],
      [16, 59],
    ]);
    const columns = await duck(`DESCRIBE SELECT * FROM read_parquet(${sqlText(naFiles[0])}, hive_partitioning = false)`);
    expect(columns.map((c) => c.column_name)).not.toContain('region');
  });

  it('gives each commit file the modification time of its commit, a day apart', async () => {
    const times: number[] = [];
    for (let v = 0; v <= 5; v++) {
      const info = commitInfo(root, v) as Json;
      const stat = await fs.stat(commitFile(root, v));
      expect(Math.floor(stat.mtimeMs)).toBe(info.timestamp);
      times.push(info.timestamp);
    }
    expect(times[0]).toBe(Date.parse('2024-03-01T09:00:00Z'));
    expect(times.slice(1).map((t, i) => t - times[i])).toEqual([1, 1, 1, 1, 1].map(() => 86_400_000));
  });

  it('keeps an existing sample instead of copying it again', async () => {
    const before = await fs.stat(path.join(root, '_delta_log', '00000000000000000000.json'));
    expect(await sampleTableProvider(dir)()).toBe(root);
    const after = await fs.stat(path.join(root, '_delta_log', '00000000000000000000.json'));
    expect(after.ino).toBe(before.ino);
    expect(commitVersions(root)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('the built-in sample through our reader', () => {
  it('reads 33 orders at the latest version and 36 before the deletes', async () => {
    const all = Array.from({ length: 36 }, (_, i) => i + 1);
    const latest = (await readColumn('order_id')).map(Number).sort((a, b) => a - b);
    expect(latest).toEqual(all.filter((id) => ![3, 6, 20].includes(id)));
    const beforeDeletes = (await readColumn('order_id', { versionAsOf: 3 })).map(Number).sort((a, b) => a - b);
    expect(beforeDeletes).toEqual(all);
  });

  it('resolves a timestamp between two commits to the earlier one (commits are a day apart from 2024-03-01 09:00)', async () => {
    const table = await DeltaTable.open(root, localReads);
    expect(await table.resolveTimestamp(Date.parse('2024-03-04T08:59:59Z'))).toBe(2);
    expect(await table.resolveTimestamp(Date.parse('2024-03-04T09:00:00Z'))).toBe(3);
  });

  it('fills the region partition column from the folders', async () => {
    const regions = await readColumn('region');
    const counts = Object.fromEntries(['APAC', 'EU', 'NA'].map((r) => [r, regions.filter((v) => v === r).length]));
    // APAC: 8 written, 1 deleted; EU: 8 + 6 written, 2 deleted; NA: 8 + 6.
    expect(counts).toEqual({ APAC: 7, EU: 12, NA: 14 });
  });
});
