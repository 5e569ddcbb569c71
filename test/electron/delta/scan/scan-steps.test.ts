// The scan's steps one at a time, on tables of the corpus: planning a file (scan-plan.ts) against what the log says,
// decoding (scan-decode.ts) and emitting the kept rows (scan-emit.ts) against DuckDB's read of the same Parquet file,
// and the deletion-vector arithmetic (kept-rows.ts) and the joining of slices (slice-joiner.ts) on values worked
// out by hand.
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { makeVector, tableFromArrays } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { keptCount, keptRuns, NO_DELETIONS, physicalRowOfKept } from '../../../../electron/delta/scan/kept-rows.js';
import { decodeGroup, readEnds, type DecodedRows } from '../../../../electron/delta/scan/scan-decode.js';
import { emitKept } from '../../../../electron/delta/scan/scan-emit.js';
import { groupsFrom, planFile, planScan } from '../../../../electron/delta/scan/scan-plan.js';
import { SliceJoiner } from '../../../../electron/delta/scan/slice-joiner.js';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { tablePath } from '../../../support/tables.js';
import { localReads } from '../../../support/task-tables.js';

describe('kept rows', () => {
  const deleted = Float64Array.from([2, 3, 7]);

  it('finds the runs a deletion vector leaves, counts them and the physical row of the k-th', () => {
    expect(keptRuns(deleted, 0, 10)).toEqual([
      [0, 2],
      [4, 7],
      [8, 10],
    ]);
    expect(keptRuns(deleted, 3, 8)).toEqual([[4, 7]]);
    expect(keptRuns(NO_DELETIONS, 5, 9)).toEqual([[5, 9]]);
    expect(keptCount(deleted, 0, 10)).toBe(7);
    expect(keptCount(deleted, 3, 7)).toBe(3);
    expect([0, 1, 2, 3, 4, 5, 6].map((k) => physicalRowOfKept(k, deleted))).toEqual([0, 1, 4, 5, 6, 8, 9]);
  });
});

describe('slice joiner', () => {
  const slice = (values: number[], rowsInFile: number) => ({
    batch: tableFromArrays({ n: Int32Array.from(values) }).batches[0],
    end: { fileIndex: 0, rowsInFile },
    bytesDone: rowsInFile * 10,
    filesDone: 0,
  });

  it('joins slices into batches of batchSize rows ending where their last slice ends', () => {
    const joiner = new SliceJoiner(4);
    expect(joiner.add(slice([1, 2], 2))).toEqual([]);
    expect(joiner.room).toBe(2);
    const [full, ...more] = joiner.add(slice([4, 5], 5));
    expect(more).toEqual([]);
    expect([...full.batch.getChild('n')!]).toEqual([1, 2, 4, 5]);
    expect(full.end).toEqual({ fileIndex: 0, rowsInFile: 5 });
    expect(full.bytesDone).toBe(50);
    expect(joiner.add(slice([7], 7))).toEqual([]);
    expect(joiner.flush().map((b) => [...b.batch.getChild('n')!])).toEqual([[7]]);
    expect(joiner.flush()).toEqual([]);
  });
});

async function duckValues(file: string, column: string, deleted: number[]): Promise<unknown[]> {
  const c = await (await DuckDBInstance.create()).connect();
  const rows = await c.runAndReadAll(
    `SELECT "${column}" AS v FROM read_parquet('${file}', file_row_number = true)` +
      (deleted.length > 0 ? ` WHERE file_row_number NOT IN (${deleted.join(', ')})` : '') +
      ' ORDER BY file_row_number',
  );
  return rows.getRowObjectsJS().map((r) => r.v);
}

async function decodedRows(plan: ReturnType<typeof planScan>, file: Awaited<ReturnType<typeof planFile>>): Promise<DecodedRows[]> {
  const out: DecodedRows[] = [];
  for (const group of groupsFrom(file, 0)) for await (const rows of decodeGroup(plan, file, group, Infinity)) out.push(rows);
  return out;
}

describe('read ends', () => {
  it('cuts reads of a row group at page starts, as many pages a read as fit in its most rows, a larger page alone', () => {
    const pages = [0, 20_000, 40_000, 60_000, 80_000];
    expect(readEnds(pages, 0, 100_000, 32_768)).toEqual([20_000, 40_000, 60_000, 80_000, 100_000]);
    expect(readEnds(pages, 0, 100_000, 45_000)).toEqual([40_000, 80_000, 100_000]);
    // From inside a page (a resume), and a group that fits one read.
    expect(readEnds(pages, 25_000, 100_000, 45_000)).toEqual([60_000, 100_000]);
    expect(readEnds(pages, 70_000, 100_000, 45_000)).toEqual([100_000]);
    // A page of more rows than a read's most is read alone, the last one too.
    expect(readEnds([0, 50_000, 60_000], 0, 100_000, 32_768)).toEqual([50_000, 60_000, 100_000]);
    expect(readEnds([0], 0, 100_000, 32_768)).toEqual([100_000]);
  });
});

describe('planning, decoding and emitting one file', () => {
  it('table-with-dv-small: its deletion vector drops rows 0 and 9 (DELETE ... value IN (0, 9)); the rest comes in batches with positions', async () => {
    const root = tablePath('table-with-dv-small');
    const snapshot = await (await DeltaTable.open(root, localReads)).snapshot();
    const plan = planScan(snapshot, { engine: localReads }, 4);
    const file = await planFile(snapshot, plan, 0);
    try {
      expect(Array.from(file.deleted)).toEqual([0, 9]);
      expect(file.columns).toEqual(['value']);
      expect(file.constants).toEqual([undefined]);
      expect(file.skippedGroups).toBeNull();
      const decoded = await decodedRows(plan, file);
      expect(decoded.map((d) => [d.start, d.length])).toEqual([[0, 10]]);

      const progress = { remaining: Infinity, bytesDone: 0, filesDone: 0 };
      const cursor = { emitted: 0 };
      const batches = [...emitKept(plan, file, decoded[0], progress, cursor)];
      expect(batches.map((b) => b.end)).toEqual([
        { fileIndex: 0, rowsInFile: 4 },
        { fileIndex: 0, rowsInFile: 8 },
      ]);
      expect(cursor.emitted).toBe(8);
      // The file's bytes, all read once the last kept row is out.
      expect(batches.map((b) => b.bytesDone)).toEqual([Math.floor((635 * 5) / 10), Math.floor((635 * 9) / 10)]);
      const values = batches.flatMap((b) => [...b.batch.getChild('value')!]);
      expect(values).toEqual(await duckValues(path.join(root, snapshot.files[0].add.path), 'value', [0, 9]));

      const limited = { remaining: 3, bytesDone: 0, filesDone: 0 };
      expect([...emitKept(plan, file, decoded[0], limited, { emitted: 0 })].map((b) => b.batch.numRows)).toEqual([3]);
      expect(limited.remaining).toBe(0);
    } finally {
      file.handle.close();
    }
  });

  it('delta-0.8.0-partitioned: partition columns are constants from the log, only the others are read', async () => {
    const root = tablePath('delta-0.8.0-partitioned');
    const snapshot = await (await DeltaTable.open(root, localReads)).snapshot();
    const plan = planScan(snapshot, { engine: localReads, columns: ['year', 'value', 'day'] }, 2048);
    const file = await planFile(snapshot, plan, 0);
    try {
      const { partitionValues } = snapshot.files[0].add;
      expect(file.columns).toEqual(['value']);
      expect(file.sources.map((s) => s?.name)).toEqual([undefined, 'value', undefined]);
      expect(file.constants.map((c) => c && makeVector(c).get(0))).toEqual([partitionValues.year, undefined, partitionValues.day]);
      const decoded = await decodedRows(plan, file);
      const emitted = decoded.flatMap((rows) => [
        ...emitKept(plan, file, rows, { remaining: Infinity, bytesDone: 0, filesDone: 0 }, { emitted: 0 }),
      ]);
      const values = emitted.flatMap((b) => [...b.batch.getChild('value')!]);
      expect(values).toEqual(await duckValues(path.join(root, decodeURIComponent(snapshot.files[0].add.path)), 'value', []));
      expect(emitted.flatMap((b) => [...b.batch.getChild('year')!])).toEqual(values.map(() => partitionValues.year));
    } finally {
      file.handle.close();
    }
  });
});
