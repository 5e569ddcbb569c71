import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Field, Int32, RecordBatch, Schema, Table, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScanBatch } from '../../../electron/delta/scan/scan-types.js';
import { createParquetSink } from '../../../electron/sinks/parquet-sink.js';
import type { StructField } from '../../../shared/delta-schema.js';
import { DeltaportError } from '../../../shared/errors.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { localReads } from '../../support/task-tables.js';

const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-parquet-sink-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const schema = new Schema([new Field('n', new Int32(), true), new Field('s', new Utf8(), true)]);
const context = {
  fields: [
    { name: 'n', type: 'integer', nullable: true },
    { name: 's', type: 'string', nullable: true },
  ] satisfies StructField[],
  schema,
  snapshot: { tableId: 'test', tableRoot: dir, version: 0 },
  signal: new AbortController().signal,
};

function scanBatch(batch: RecordBatch, fileIndex: number): ScanBatch {
  return { batch, end: { fileIndex, rowsInFile: batch.numRows }, bytesDone: 0, filesDone: fileIndex };
}

function batchOf(n: number[], s: (string | null)[]): RecordBatch {
  return new Table({ n: vectorFromArray(n, new Int32()), s: vectorFromArray(s, new Utf8()) }).batches[0];
}

describe('parquet sink', () => {
  it('writes every batch it is given, in order, and renames into place at close', async () => {
    const target = path.join(dir, 'rows.parquet');
    const sink = createParquetSink(target, localReads.storage);
    expect(await sink.open(context)).toBeNull();
    await sink.write(scanBatch(batchOf([1, 2], ['a', null]), 0));
    await sink.write(scanBatch(batchOf([3], ['c']), 1));
    expect(readdirSync(dir).filter((n) => n.startsWith('rows.parquet.partial-'))).toHaveLength(1);
    await sink.close();
    expect(readdirSync(dir)).toEqual(['rows.parquet']);
    expect(await duck(`SELECT n, s FROM read_parquet(${sqlText(target)})`)).toEqual([
      { n: 1, s: 'a' },
      { n: 2, s: null },
      { n: 3, s: 'c' },
    ]);
    rmSync(target);
  });

  it('refuses to keep a file the writer did not fill, and leaves nothing after abort', async () => {
    const target = path.join(dir, 'bad.parquet');
    const sink = createParquetSink(target, localReads.storage);
    await sink.open(context);
    await sink.write(scanBatch(batchOf([1], ['a']), 0));
    // parquet-wasm's streaming writer silently skips a batch of another schema.
    const other = new Table({ x: vectorFromArray(['not', 'an', 'int'], new Utf8()) }).batches[0];
    let err: unknown = null;
    try {
      await sink.write(scanBatch(other, 1));
      await sink.close();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DeltaportError);
    expect((err as DeltaportError).code).toBe('SINK_WRITE');
    expect((err as DeltaportError).message).toBe(`cannot write Parquet file ${target}: it holds 1 of 4 rows`);
    await sink.abort();
    expect(readdirSync(dir)).toEqual([]);
  });
});
