import {
  Binary,
  Bool,
  DateDay,
  Decimal,
  Field,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  List,
  makeData,
  makeVector,
  Map_,
  Null,
  Struct,
  TimestampMicrosecond,
  TimestampMillisecond,
  Utf8,
  vectorFromArray,
  type DataType,
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { JSON_TEXT_METADATA, jsonReader, shortestFloat32 } from '../../../electron/values/json-value.js';

function all(vector: Parameters<typeof jsonReader>[0], length: number, field?: Field): unknown[] {
  const read = jsonReader(vector, field);
  return Array.from({ length }, (_, i) => read(i));
}

/** A vector of one int64-backed type from bigints, with nulls where the value is null. */
function int64Vector(type: DataType, values: (bigint | null)[]): ReturnType<typeof makeVector> {
  const data = new BigInt64Array(values.map((v) => v ?? 0n));
  const nullBitmap = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((v, i) => {
    if (v !== null) nullBitmap[i >> 3] |= 1 << (i & 7);
  });
  const nullCount = values.filter((v) => v === null).length;
  return makeVector(makeData({ type, length: values.length, nullCount, nullBitmap, data } as never));
}

/** 128-bit two's-complement words of each value, little-endian. */
function decimalVector(scale: number, precision: number, values: bigint[]): ReturnType<typeof makeVector> {
  const words = new Uint32Array(values.length * 4);
  values.forEach((v, i) => {
    let u = BigInt.asUintN(128, v);
    for (let w = 0; w < 4; w++) {
      words[i * 4 + w] = Number(u & 0xffffffffn);
      u >>= 32n;
    }
  });
  return makeVector(makeData({ type: new Decimal(scale, precision, 128), length: values.length, data: words }));
}

const MICROS = 1000n;

describe('jsonReader on primitive types', () => {
  it('reads small integers and nulls', () => {
    expect(all(vectorFromArray([1, -128, null, 127], new Int8()), 4)).toEqual([1, -128, null, 127]);
    expect(all(vectorFromArray([-32768, 32767], new Int16()), 2)).toEqual([-32768, 32767]);
    expect(all(vectorFromArray([-2147483648, 2147483647, null], new Int32()), 3)).toEqual([-2147483648, 2147483647, null]);
  });

  it('keeps longs within ±(2^53-1) as numbers and the rest as exact text', () => {
    const values = [
      0n,
      -1n,
      2n ** 53n - 1n,
      -(2n ** 53n - 1n),
      2n ** 53n,
      -(2n ** 53n),
      2n ** 53n + 1n,
      2n ** 63n - 1n,
      -(2n ** 63n),
      4294967296n,
      -4294967297n,
      null,
    ];
    expect(all(int64Vector(new Int64(), values), values.length)).toEqual([
      0,
      -1,
      9007199254740991,
      -9007199254740991,
      '9007199254740992',
      '-9007199254740992',
      '9007199254740993',
      '9223372036854775807',
      '-9223372036854775808',
      4294967296,
      -4294967297,
      null,
    ]);
  });

  it('writes floats as their shortest text and non-finite values as names', () => {
    const f32 = vectorFromArray([0.1, 1.5, -3.4028234663852886e38, Number.NaN, Infinity, null], new Float32());
    expect(all(f32, 6)).toEqual([0.1, 1.5, -3.4028235e38, 'NaN', 'Infinity', null]);
    const f64 = vectorFromArray([0.1, -Infinity, 1e300, 5e-324], new Float64());
    expect(all(f64, 4)).toEqual([0.1, '-Infinity', 1e300, 5e-324]);
    expect(shortestFloat32(Math.fround(16777217))).toBe(16777216);
  });

  it('reads booleans, also from a slice that does not start on a byte', () => {
    const v = vectorFromArray([true, false, null, true, true, false, false, true, false, true, null], new Bool());
    expect(all(v, 11)).toEqual([true, false, null, true, true, false, false, true, false, true, null]);
    expect(all(v.slice(3, 10), 7)).toEqual([true, true, false, false, true, false, true]);
  });

  it('writes decimals as exact text with their scale', () => {
    const big = 10n ** 37n + 1n;
    const v = decimalVector(2, 38, [12345n, -5n, 0n, big, -big, 2n ** 53n + 7n, -(2n ** 60n)]);
    expect(all(v, 7)).toEqual([
      '123.45',
      '-0.05',
      '0.00',
      '100000000000000000000000000000000000.01',
      '-100000000000000000000000000000000000.01',
      '90071992547409.99',
      '-11529215046068469.76',
    ]);
    expect(all(decimalVector(0, 5, [42n, -42n]), 2)).toEqual(['42', '-42']);
    expect(all(decimalVector(5, 5, [1n, -99999n]), 2)).toEqual(['0.00001', '-0.99999']);
  });

  it('reads text, including multi-byte characters and a slice', () => {
    const v = vectorFromArray(['a', '', null, 'grüße 👋', 'x,"y"'], new Utf8());
    expect(all(v, 5)).toEqual(['a', '', null, 'grüße 👋', 'x,"y"']);
    expect(all(v.slice(3), 2)).toEqual(['grüße 👋', 'x,"y"']);
    const ascii = vectorFromArray(['abc', '', null, 'de', 'f'], new Utf8());
    expect(all(ascii, 5)).toEqual(['abc', '', null, 'de', 'f']);
    expect(all(ascii.slice(3), 2)).toEqual(['de', 'f']);
  });

  it('writes binary as base64', () => {
    const v = vectorFromArray([new Uint8Array([0, 1, 255]), new Uint8Array([]), null], new Binary());
    expect(all(v, 3)).toEqual([Buffer.from([0, 1, 255]).toString('base64'), '', null]);
  });

  it('writes dates as YYYY-MM-DD, before 1970 too', () => {
    const days = (y: number, m: number, d: number): number => {
      const t = new Date(0);
      t.setUTCFullYear(y, m - 1, d);
      return Math.round(t.getTime() / 86_400_000);
    };
    const v = makeVector(
      makeData({
        type: new DateDay(),
        length: 5,
        data: new Int32Array([0, -1, days(2022, 2, 24), days(1, 1, 1), days(9999, 12, 31)]),
      }),
    );
    expect(all(v, 5)).toEqual(['1970-01-01', '1969-12-31', '2022-02-24', '0001-01-01', '9999-12-31']);
  });

  it('writes timestamps as ISO-8601 with Z, and timestamp_ntz without', () => {
    const micros = (ms: number, extra = 0n): bigint => BigInt(ms) * MICROS + extra;
    const year1 = new Date(0);
    year1.setUTCFullYear(1, 0, 1);
    const values = [
      0n,
      -1n,
      micros(Date.UTC(2022, 1, 24, 4, 55, 0, 1), 2n),
      micros(Date.UTC(1900, 0, 1, 12)),
      micros(year1.getTime()),
      micros(Date.UTC(9999, 11, 31, 23, 59, 59, 999), 999n),
      null,
    ];
    const utc = int64Vector(new TimestampMicrosecond('UTC'), values);
    expect(all(utc, values.length)).toEqual([
      '1970-01-01T00:00:00.000000Z',
      '1969-12-31T23:59:59.999999Z',
      '2022-02-24T04:55:00.001002Z',
      '1900-01-01T12:00:00.000000Z',
      '0001-01-01T00:00:00.000000Z',
      '9999-12-31T23:59:59.999999Z',
      null,
    ]);
    const ntz = int64Vector(new TimestampMicrosecond(), values.slice(0, 3));
    expect(all(ntz, 3)).toEqual(['1970-01-01T00:00:00.000000', '1969-12-31T23:59:59.999999', '2022-02-24T04:55:00.001002']);
    const ms = int64Vector(new TimestampMillisecond('UTC'), [BigInt(Date.UTC(2020, 5, 1, 1, 2, 3, 4))]);
    expect(all(ms, 1)).toEqual(['2020-06-01T01:02:03.004Z']);
  });

  it('reads the null type as null', () => {
    expect(all(makeVector(makeData({ type: new Null(), length: 2 })), 2)).toEqual([null, null]);
  });
});

describe('jsonReader on nested types', () => {
  const point = new Struct([new Field('x', new Int32(), true), new Field('label', new Utf8(), true)]);

  it('reads structs as objects', () => {
    const v = vectorFromArray([{ x: 1, label: 'a' }, null, { x: null, label: 'b' }], point);
    expect(all(v, 3)).toEqual([{ x: 1, label: 'a' }, null, { x: null, label: 'b' }]);
  });

  it('reads lists as arrays, with null elements and empty lists', () => {
    const type = new List(new Field('element', new Int64(), true));
    const v = vectorFromArray([[1n, null, 2n ** 60n], [], null], type);
    expect(all(v, 3)).toEqual([[1, null, '1152921504606846976'], [], null]);
    expect(all(v.slice(1), 2)).toEqual([[], null]);
  });

  it('reads maps as objects keyed by the key text', () => {
    const entries = new Struct([new Field('key', new Utf8(), false), new Field('value', new Int32(), true)]);
    const type = new Map_(new Field('entries', entries, false));
    const v = vectorFromArray(
      [
        new Map([
          ['a', 1],
          ['b', null],
        ]),
        new Map(),
        null,
      ],
      type,
    );
    expect(all(v, 3)).toEqual([{ a: 1, b: null }, {}, null]);
  });

  it('reads a list of structs holding maps', () => {
    const entries = new Struct([new Field('key', new Int32(), false), new Field('value', new Utf8(), true)]);
    const inner = new Struct([new Field('m', new Map_(new Field('entries', entries, false)), true)]);
    const type = new List(new Field('element', inner, true));
    const v = vectorFromArray([[{ m: new Map([[7, 'seven']]) }, null]], type);
    expect(jsonReader(v)(0)).toEqual([{ m: { '7': 'seven' } }, null]);
  });

  it('reads a vector of several chunks', () => {
    const v = vectorFromArray([1, 2], new Int32()).concat(vectorFromArray([3, null, 5], new Int32()));
    expect(v.data.length).toBe(2);
    expect(all(v, 5)).toEqual([1, 2, 3, null, 5]);
  });
});

describe('jsonReader on text marked as JSON (arrow.json, the reader form of variants)', () => {
  const json = (texts: (string | null)[]) => vectorFromArray(texts, new Utf8());
  const field = new Field('v', new Utf8(), true, new Map(JSON_TEXT_METADATA));

  it('reads the value the text spells, keeping numbers a double cannot hold as their text', () => {
    const column = json(['{"a":12345678901234567890,"b":1.5,"c":"x"}', '[1,null,true]', '"text"', 'null', null, '-9007199254740993']);
    expect(all(column, 6, field)).toEqual([
      { a: '12345678901234567890', b: 1.5, c: 'x' },
      [1, null, true],
      'text',
      null,
      null,
      '-9007199254740993',
    ]);
    // Unmarked, the same column is text.
    expect(all(column, 1)).toEqual(['{"a":12345678901234567890,"b":1.5,"c":"x"}']);
  });

  it('reads marked fields inside structs and lists', () => {
    const element = new Field('element', new Utf8(), true, new Map(JSON_TEXT_METADATA));
    const texts = json(['{"k":1}', '2']).data[0];
    const list = makeData({ type: new List(element), length: 1, nullCount: 0, valueOffsets: new Int32Array([0, 2]), child: texts });
    expect(all(makeVector(list), 1)).toEqual([[{ k: 1 }, 2]]);
    const struct = makeData({
      type: new Struct([new Field('v', new Utf8(), true, new Map(JSON_TEXT_METADATA))]),
      length: 2,
      nullCount: 0,
      children: [texts],
    });
    expect(all(makeVector(struct), 2)).toEqual([{ v: { k: 1 } }, { v: 2 }]);
  });
});
