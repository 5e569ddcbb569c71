// Columns read through the C data interface must hold what was put into WebAssembly: every value and null, of flat
// and nested columns, of whole batches and of slices (which arrow-rs exports at offset 0, its buffers cut).
import * as arrow from 'apache-arrow';
import * as wasm from 'parquet-wasm/node';
import { describe, expect, it } from 'vitest';
import { decodedColumns, ffiReadable } from '../../../../electron/delta/engine/arrow-ffi.js';

const ROWS = 37;
const nth = <T>(f: (i: number) => T, nullEvery = 0): (T | null)[] =>
  Array.from({ length: ROWS }, (_, i) => (nullEvery && i % nullEvery === 0 ? null : f(i)));

const table: arrow.Table = new arrow.Table({
  id: arrow.vectorFromArray(
    nth((i) => BigInt(i) * 1_000_000_007n, 5),
    new arrow.Int64(),
  ),
  small: arrow.vectorFromArray(
    nth((i) => i - 18, 4),
    new arrow.Int16(),
  ),
  amount: arrow.vectorFromArray(
    nth((i) => i / 8),
    new arrow.Float64(),
  ),
  flag: arrow.vectorFromArray(
    nth((i) => i % 3 === 0, 7),
    new arrow.Bool(),
  ),
  name: arrow.vectorFromArray(
    nth((i) => 'é'.repeat(i % 4) + String(i), 6),
    new arrow.Utf8(),
  ),
  long: arrow.vectorFromArray(
    nth((i) => `x${i}`, 3),
    new arrow.LargeUtf8(),
  ),
  day: arrow.vectorFromArray(
    nth((i) => new Date(Date.UTC(2024, 0, 1 + i)), 9),
    new arrow.DateDay(),
  ),
  at: arrow.vectorFromArray(
    nth((i) => 1_700_000_000_000 + i, 8),
    new arrow.TimestampMicrosecond('UTC'),
  ),
  nested: arrow.vectorFromArray(
    nth((i) => ({ a: i, b: i % 2 ? null : `b${i}` }), 5),
    new arrow.Struct([new arrow.Field('a', new arrow.Int32(), true), new arrow.Field('b', new arrow.Utf8(), true)]),
  ),
  list: arrow.vectorFromArray(
    nth((i) => Array.from({ length: i % 3 }, (_, k) => i * 10 + k), 4),
    new arrow.List(new arrow.Field('item', new arrow.Int32(), true)),
  ),
});
const flat = ['id', 'small', 'amount', 'flag', 'name', 'long', 'day', 'at'];
const types = new Map(table.schema.fields.map((f) => [f.name, f.type]));

/** The table's rows [offset, offset + length) read back through the C data interface. */
function crossed(offset: number, length: number, columns: string[]): arrow.Table {
  const batch = wasm.Table.fromIPCStream(arrow.tableToIPC(table.select(columns), 'stream')).recordBatch(0)!;
  const exported = batch.slice(offset, length).intoFFI();
  batch.free();
  try {
    const read = decodedColumns(wasm.wasmMemory().buffer as ArrayBuffer, exported.arrayAddr(), exported.schemaAddr(), types);
    expect(read.length).toBe(length);
    return new arrow.Table(Object.fromEntries([...read.columns].map(([name, data]) => [name, arrow.makeVector(data)])));
  } finally {
    exported.free();
  }
}

const rows = (t: arrow.Table) => t.toArray().map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? String(v) : v)));

describe('arrow-ffi', () => {
  it('reads every type of the test table', () => {
    expect(table.schema.fields.every((f) => ffiReadable(f.type))).toBe(true);
    expect(ffiReadable(new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()))).toBe(false);
  });

  it('reads whole batches, nested columns included', () => {
    const read = crossed(
      0,
      ROWS,
      table.schema.fields.map((f) => f.name),
    );
    expect(rows(read)).toEqual(rows(table));
    expect(read.getChild('id')!.nullCount).toBe(table.getChild('id')!.nullCount);
  });

  it('reads slices of flat columns, their bitmaps cut mid-byte', () => {
    for (const [offset, length] of [
      [1, 20],
      [3, 30],
      [8, 29],
      [13, 11],
    ]) {
      const read = crossed(offset, length, flat);
      expect(rows(read)).toEqual(rows(table.select(flat).slice(offset, offset + length)));
      for (const name of flat) expect(read.getChild(name)!.data[0].offset).toBe(0);
    }
  });
});
