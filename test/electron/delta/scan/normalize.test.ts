import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { DeltaType, StructType } from '../../../../shared/delta-schema.js';
import { normalizeColumn } from '../../../../electron/delta/scan/normalize.js';

const ctx = { mode: 'none' as const, column: 'c' };

function run(source: arrow.Vector | undefined, type: DeltaType, length = source?.length ?? 0): arrow.Vector {
  return arrow.makeVector(normalizeColumn(source?.data[0], type, length, ctx));
}
const plain = (v: arrow.Vector): unknown[] =>
  JSON.parse(JSON.stringify([...v], (_, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x))) as unknown[];

describe('normalizeColumn', () => {
  it('widens integers and floats (type widening)', () => {
    const bytes = arrow.makeVector(Int8Array.of(-128, 5, 127));
    expect(String(run(bytes, 'short').type)).toBe('Int16');
    expect([...run(bytes, 'integer')]).toEqual([-128, 5, 127]);
    expect([...run(bytes, 'long')]).toEqual([-128n, 5n, 127n]);
    expect([...run(arrow.makeVector(Int32Array.of(2147483647, -1)), 'double')]).toEqual([2147483647, -1]);
    expect([...run(arrow.makeVector(Float32Array.of(0.5, -2)), 'double')]).toEqual([0.5, -2]);
  });

  it('keeps nulls while converting', () => {
    const source = arrow.vectorFromArray([1, null, 3], new arrow.Int32());
    const out = run(source, 'long');
    expect([...out]).toEqual([1n, null, 3n]);
    expect(out.nullCount).toBe(1);
  });

  it('turns dictionary, large and legacy-binary strings into plain Utf8', () => {
    const dict = arrow.vectorFromArray(['b', null, 'a', 'b']);
    expect(dict.type.typeId).toBe(arrow.Type.Dictionary);
    const out = run(dict, 'string');
    expect(String(out.type)).toBe('Utf8');
    expect([...out]).toEqual(['b', null, 'a', 'b']);
    const dictInts = arrow.vectorFromArray([7, null, 7, 9], new arrow.Dictionary(new arrow.Int32(), new arrow.Int32()));
    expect([...run(dictInts, 'long')]).toEqual([7n, null, 7n, 9n]);
    const large = arrow.vectorFromArray(['x', 'yz'], new arrow.LargeUtf8());
    expect([...run(large, 'string')]).toEqual(['x', 'yz']);
    const binary = arrow.vectorFromArray([Uint8Array.of(104, 105)], new arrow.Binary());
    expect([...run(binary, 'string')]).toEqual(['hi']);
    const fixed = arrow.vectorFromArray([Uint8Array.of(1, 2), Uint8Array.of(3, 4)], new arrow.FixedSizeBinary(2));
    expect([...run(fixed, 'binary')].map((b) => Array.from(b as Uint8Array))).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('rescales decimals and widens integers and dates', () => {
    const dec = arrow.makeVector(
      arrow.makeData({
        type: new arrow.Decimal(2, 5, 128),
        length: 2,
        data: Uint32Array.of(12345, 0, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff),
      }),
    );
    const out = run(dec, 'decimal(10,4)');
    expect(String(out.type)).toBe('Decimal[10e+4]');
    expect([...out].map((v) => BigInt(arrow.util.bigNumToBigInt(v as never)))).toEqual([1234500n, -100n]);
    const days = arrow.vectorFromArray([86400000], new arrow.DateDay());
    expect(Array.from(run(days, 'timestamp_ntz').data[0].values as BigInt64Array)).toEqual([86400000000n]);
  });

  it('fills a column the file lacks with nulls of the canonical type, nested ones included', () => {
    const struct: StructType = { type: 'struct', fields: [{ name: 'a', type: 'integer', nullable: true }] };
    const out = run(undefined, struct, 3);
    expect(out.length).toBe(3);
    expect(out.nullCount).toBe(3);
    expect(String(out.type)).toBe('Struct<{a:Int32}>');
    expect([...run(undefined, { type: 'array', elementType: 'long', containsNull: true }, 2)]).toEqual([null, null]);
    expect([...run(undefined, 'decimal(38,10)', 2)]).toEqual([null, null]);
  });

  it('converts inside lists, maps and structs, and names the column of an unreadable value', () => {
    const list = arrow.vectorFromArray([[1, 2], null, []], new arrow.List(new arrow.Field('item', new arrow.Int32(), true)));
    const out = run(list, { type: 'array', elementType: 'long', containsNull: true });
    expect(String(out.type)).toBe('List<Int64>');
    expect(plain(out)).toEqual([['1n', '2n'], null, []]);
    const structType = new arrow.Struct([new arrow.Field('x', new arrow.Int16(), true), new arrow.Field('gone', new arrow.Utf8(), true)]);
    const struct = arrow.vectorFromArray([{ x: 1, gone: 'q' }, null], structType);
    const deltaStruct: StructType = {
      type: 'struct',
      fields: [
        { name: 'x', type: 'long', nullable: true },
        { name: 'newer', type: 'string', nullable: true },
      ],
    };
    expect(plain(run(struct, deltaStruct))).toEqual([{ x: '1n', newer: null }, null]);
    expect(() => run(arrow.vectorFromArray(['a'], new arrow.Utf8()), 'integer')).toThrow(
      "column 'c' holds Utf8 in a data file, which cannot be read as integer",
    );
  });
});
