// Joining small batches must keep every value, null and type of every flat column, whatever slice each batch is.
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { concatBatches, concatColumn, joinBatches } from '../../../../electron/delta/engine/concat-batches.js';

function column(batch: arrow.RecordBatch, c: number): unknown[] {
  return [...batch.getChildAt(c)!];
}

describe('concatBatches', () => {
  const table = new arrow.Table({
    id: arrow.vectorFromArray([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n], new arrow.Int64()),
    text: arrow.vectorFromArray(['a', null, 'ccc', '', 'éé', 'f', null, 'hhhh', 'i', 'j', 'k'], new arrow.Utf8()),
    flag: arrow.vectorFromArray([true, false, null, true, true, false, false, null, true, false, true], new arrow.Bool()),
    amount: arrow.vectorFromArray([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5], new arrow.Float64()),
  });
  const whole = table.batches[0];
  // Slices at odd offsets, as a scan's runs between deleted rows are.
  const pieces = [whole.slice(1, 2), whole.slice(2, 7), whole.slice(9, 11)];

  it('holds the rows of the pieces in order, with their nulls and types', () => {
    const joined = concatBatches(pieces)!;
    expect(joined.numRows).toBe(8);
    expect(joined.schema.fields.map(String)).toEqual(whole.schema.fields.map(String));
    const expected = (c: number) => pieces.flatMap((p) => column(p, c));
    for (let c = 0; c < 4; c++) expect(column(joined, c)).toEqual(expected(c));
    expect(column(joined, 1)).toEqual([null, 'ccc', '', 'éé', 'f', null, 'j', 'k']);
    expect(column(joined, 2)).toEqual([false, null, true, true, false, false, false, true]);
    expect(joined.getChildAt(1)!.nullCount).toBe(2);
  });

  it('declines nested columns', () => {
    const type = new arrow.List(new arrow.Field('item', new arrow.Int32()));
    const nested = new arrow.Table({ list: arrow.vectorFromArray([[1], [2, 3]], type) }).batches[0];
    expect(concatBatches([nested.slice(0, 1), nested.slice(1, 2)])).toBeNull();
  });

  it('regroups batches into as few as fit a row bound, keeping every row in order', () => {
    const sizes = (batches: arrow.RecordBatch[]) => batches.map((b) => b.numRows);
    const groups = joinBatches([whole.slice(0, 2), whole.slice(2, 5), whole.slice(5, 6), whole.slice(6, 11)], 6);
    expect(sizes(groups)).toEqual([6, 5]);
    expect(groups.flatMap((g) => column(g, 0))).toEqual(column(whole, 0));
    expect(groups.flatMap((g) => column(g, 1))).toEqual(column(whole, 1));
    expect(sizes(joinBatches([whole], 4))).toEqual([11]);
    const other = new arrow.Table({ x: arrow.vectorFromArray(['y'], new arrow.Utf8()) }).batches[0];
    expect(sizes(joinBatches([whole.slice(0, 1), other, whole.slice(1, 2)], 100))).toEqual([1, 1, 1]);
  });
});

describe('concatColumn', () => {
  /** The value bytes of rows [from, to) of a fixed-width column, read from its buffer. */
  function valueBytesOf(data: arrow.Data, from: number, to: number): number[] {
    const values = data.values as Uint8Array;
    const width = values.BYTES_PER_ELEMENT * data.stride;
    return [...new Uint8Array(values.buffer, values.byteOffset + from * width, (to - from) * width)];
  }

  // Runs shorter and longer than the element loop's bound, at odd offsets; a sliced chunk starts mid-buffer.
  const rows = 400;
  const runs: [number, number][] = [
    [1, 10],
    [11, 12],
    [13, 150],
    [151, 390],
  ];
  const nanWithPayload = new Float64Array(new BigUint64Array([0x7ff4000000000abcn]).buffer)[0];
  const columns: [string, arrow.DataType, ArrayBufferView][] = [
    ['int8', new arrow.Int8(), Int8Array.from({ length: rows }, (_, i) => (i * 7) % 256)],
    ['int16', new arrow.Int16(), Int16Array.from({ length: rows }, (_, i) => i * 331)],
    ['int64', new arrow.Int64(), BigInt64Array.from({ length: rows }, (_, i) => BigInt(i) * 0x1_0000_0001n - 7n)],
    ['float64 NaN payloads', new arrow.Float64(), Float64Array.from({ length: rows }, (_, i) => (i % 3 ? i / 3 : nanWithPayload))],
    ['decimal', new arrow.Decimal(5, 38, 128), Uint32Array.from({ length: rows * 4 }, (_, i) => i * 2654435761)],
    ['fixed-size binary of 3', new arrow.FixedSizeBinary(3), Uint8Array.from({ length: rows * 3 }, (_, i) => i % 251)],
  ];
  for (const [name, type, data] of columns) {
    it(`copies the exact bytes of ${name} runs`, () => {
      const whole = arrow.makeData({ type, length: rows, nullCount: 0, data } as never) as arrow.Data;
      const chunk = whole.slice(3, rows - 3);
      const joined = concatColumn(
        type,
        runs.map(([from, to]) => ({ data: chunk, from, length: to - from })),
        runs.reduce((n, [from, to]) => n + to - from, 0),
      );
      expect(valueBytesOf(joined, 0, joined.length)).toEqual(runs.flatMap(([from, to]) => valueBytesOf(chunk, from, to)));
    });
  }
});
