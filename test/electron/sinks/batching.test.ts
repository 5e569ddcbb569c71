import { makeVector, RecordBatch, Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { Batcher } from '../../../electron/sinks/batching.js';
import type { ScanBatch } from '../../../electron/delta/scan/scan-types.js';

function scanBatch(from: number, rows: number, fileIndex: number, rowsInFile: number): ScanBatch {
  const ids = Int32Array.from({ length: rows }, (_, i) => from + i);
  const batch = new Table({ id: makeVector(ids) }).batches[0] as RecordBatch;
  return { batch, end: { fileIndex, rowsInFile }, bytesDone: 0, filesDone: fileIndex };
}

const ids = (chunks: RecordBatch[]): number[] => chunks.flatMap((c) => Array.from(c.getChild('id')!.toArray() as Int32Array));

describe('Batcher', () => {
  it('cuts exactly batchSize rows and records the position plus rows past it', () => {
    const b = new Batcher(5, { position: null, rowsAfter: 0 });
    b.add(scanBatch(0, 3, 0, 3));
    expect(b.takeFull()).toBeNull();
    b.add(scanBatch(3, 4, 0, 7));
    const first = b.takeFull()!;
    expect(ids(first.chunks)).toEqual([0, 1, 2, 3, 4]);
    expect(first.progress).toEqual({ position: { fileIndex: 0, rowsInFile: 3 }, rowsAfter: 2 });
    b.add(scanBatch(7, 3, 1, 3));
    const second = b.takeFull()!;
    expect(ids(second.chunks)).toEqual([5, 6, 7, 8, 9]);
    expect(second.progress).toEqual({ position: { fileIndex: 1, rowsInFile: 3 }, rowsAfter: 0 });
    expect(b.takeRest()).toBeNull();
  });

  it('a resumed batcher skips the rows an earlier run committed past its position', () => {
    const b = new Batcher(4, { position: { fileIndex: 0, rowsInFile: 3 }, rowsAfter: 2 });
    b.add(scanBatch(3, 4, 0, 7)); // rows 3 and 4 were committed before
    const rest = b.takeRest()!;
    expect(ids(rest.chunks)).toEqual([5, 6]);
    expect(rest.progress).toEqual({ position: { fileIndex: 0, rowsInFile: 7 }, rowsAfter: 0 });
  });

  it('skipping a whole batch moves the position past it', () => {
    const b = new Batcher(4, { position: null, rowsAfter: 5 });
    b.add(scanBatch(0, 3, 0, 3));
    b.add(scanBatch(3, 3, 0, 6));
    const rest = b.takeRest()!;
    expect(ids(rest.chunks)).toEqual([5]);
    expect(rest.progress).toEqual({ position: { fileIndex: 0, rowsInFile: 6 }, rowsAfter: 0 });
  });
});
