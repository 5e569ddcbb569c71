import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { variantToJson, VariantMetadata, VariantValue } from '../../../../electron/delta/scan/variant.js';

// Metadata with keys "a" and "b": version 1, 1-byte offsets, 2 keys, offsets 0 1 2.
const META = Uint8Array.of(0x01, 2, 0, 1, 2, 0x61, 0x62);
const EMPTY_META = Uint8Array.of(0x01, 0, 0);
const json = (value: number[], meta = META): string => new VariantValue(new VariantMetadata(meta), Uint8Array.from(value)).toJson();
const le = (n: number | bigint, bytes: number): number[] => {
  let v = BigInt.asUintN(bytes * 8, BigInt(n));
  return Array.from({ length: bytes }, () => {
    const b = Number(v & 0xffn);
    v >>= 8n;
    return b;
  });
};

describe('variant decoding', () => {
  it('decodes primitives', () => {
    expect(json([0x00])).toBe('null');
    expect(json([0x04])).toBe('true');
    expect(json([0x08])).toBe('false');
    expect(json([0x0c, 0xff])).toBe('-1');
    expect(json([0x10, ...le(-300, 2)])).toBe('-300');
    expect(json([0x14, ...le(70000, 4)])).toBe('70000');
    expect(json([0x18, ...le(9007199254740993n, 8)])).toBe('9007199254740993');
    const dbl = new DataView(new ArrayBuffer(8));
    dbl.setFloat64(0, 2.5, true);
    expect(json([0x1c, ...new Uint8Array(dbl.buffer)])).toBe('2.5');
    const flt = new DataView(new ArrayBuffer(4));
    flt.setFloat32(0, 0.1, true);
    expect(json([0x38, ...new Uint8Array(flt.buffer)])).toBe('0.1');
    expect(json([0x20, 2, ...le(-12345, 4)])).toBe('-123.45');
    expect(json([0x24, 3, ...le(5, 8)])).toBe('0.005');
    expect(json([0x28, 0, ...le(10n ** 20n, 16)])).toBe('100000000000000000000');
    expect(json([0x2c, ...le(19723, 4)])).toBe('"2024-01-01"');
    expect(json([0x30, ...le(1704067200123456n, 8)])).toBe('"2024-01-01 00:00:00.123456+00:00"');
    expect(json([0x34, ...le(-1n, 8)])).toBe('"1969-12-31 23:59:59.999999"');
    expect(json([0x3c, ...le(2, 4), 0xff, 0x00])).toBe('"/wA="');
    expect(json([0x40, ...le(3, 4), 0x61, 0x22, 0x62])).toBe('"a\\"b"');
    expect(json([(2 << 2) | 1, 0x68, 0x69])).toBe('"hi"');
    expect(json([0x50, ...Array.from({ length: 16 }, (_, i) => i)])).toBe('"00010203-0405-0607-0809-0a0b0c0d0e0f"');
  });

  it('decodes objects and arrays, nested', () => {
    // {"a": 1, "b": [true, "hi"]}: object, 2 fields, ids 0 1, offsets 0 2 11
    const array = [0x03, 2, 0, 1, 4, 0x04, (2 << 2) | 1, 0x68, 0x69];
    expect(json([0x02, 2, 0, 1, 0, 2, 11, 0x0c, 1, ...array])).toBe('{"a":1,"b":[true,"hi"]}');
    // values need not be stored in field order
    expect(json([0x02, 2, 0, 1, 2, 0, 4, 0x0c, 1, 0x0c, 2])).toBe('{"a":2,"b":1}');
    expect(json([0x03, 0, 0], EMPTY_META)).toBe('[]');
  });

  it('rejects corrupt values with the column named', () => {
    const type = new arrow.Struct([new arrow.Field('metadata', new arrow.Binary()), new arrow.Field('value', new arrow.Binary())]);
    const column = arrow.vectorFromArray([{ metadata: META, value: Uint8Array.of(0x02, 5) }], type);
    expect(() => variantToJson(column.data[0], new arrow.Utf8(), 'v')).toThrow(/variant column 'v' cannot be decoded: truncated/);
  });

  it('reconstructs shredded objects and falls back to value when typed_value is null', () => {
    const group = new arrow.Struct([
      new arrow.Field('value', new arrow.Binary(), true),
      new arrow.Field('typed_value', new arrow.Int32(), true),
    ]);
    const type = new arrow.Struct([
      new arrow.Field('metadata', new arrow.Binary()),
      new arrow.Field('value', new arrow.Binary(), true),
      new arrow.Field('typed_value', new arrow.Struct([new arrow.Field('a', group, true)]), true),
    ]);
    const residualB = Uint8Array.of(0x02, 1, 1, 0, 3, (2 << 2) | 1, 0x78, 0x79); // {"b": "xy"}
    const column = arrow.vectorFromArray(
      [
        { metadata: META, value: residualB, typed_value: { a: { value: null, typed_value: 5 } } },
        { metadata: META, value: Uint8Array.of(0x0c, 7), typed_value: null },
        { metadata: META, value: null, typed_value: { a: { value: Uint8Array.of((1 << 2) | 1, 0x73), typed_value: null } } },
        { metadata: META, value: null, typed_value: { a: null } },
        null,
      ],
      type,
    );
    const out = arrow.makeVector(variantToJson(column.data[0], new arrow.Utf8(), 'v'));
    expect([...out]).toEqual(['{"a":5,"b":"xy"}', '7', '{"a":"s"}', '{}', null]);
  });
});
