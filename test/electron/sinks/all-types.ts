// One batch holding every Delta type in the scan's canonical Arrow form, with the edge values a SQL sink must keep:
// longs beyond 2^53, decimal(38,18), times before 1970, NaN and infinities, unicode, empty strings next to nulls.
import * as arrow from 'apache-arrow';
import type { StructField } from '../../../shared/delta-schema.js';

const ROWS = 4;

function fixed<T extends arrow.DataType>(
  type: T,
  values: ArrayLike<unknown> & { buffer: ArrayBufferLike },
  valid: boolean[],
): arrow.Data<T> {
  const nullBitmap = new Uint8Array(1);
  valid.forEach((v, i) => {
    if (v) nullBitmap[0] |= 1 << i;
  });
  return arrow.makeData({
    type,
    length: ROWS,
    nullCount: valid.filter((v) => !v).length,
    nullBitmap,
    data: values,
  } as never) as arrow.Data<T>;
}

const ALL = [true, true, true, true];
const LAST_NULL = [true, true, true, false];

export function decimalWords(values: bigint[]): Uint32Array {
  const words = new Uint32Array(values.length * 4);
  values.forEach((v, i) => {
    const u = BigInt.asUintN(128, v);
    for (let w = 0; w < 4; w++) words[i * 4 + w] = Number((u >> BigInt(32 * w)) & 0xffffffffn);
  });
  return words;
}

export const ALL_TYPES_FIELDS: StructField[] = [
  { name: 'b', type: 'byte', nullable: true },
  { name: 'sh', type: 'short', nullable: true },
  { name: 'i', type: 'integer', nullable: true },
  { name: 'l', type: 'long', nullable: true },
  { name: 'f', type: 'float', nullable: false },
  { name: 'd', type: 'double', nullable: false },
  { name: 'dec38', type: 'decimal(38,18)', nullable: true },
  { name: 'dec10', type: 'decimal(10,2)', nullable: true },
  { name: 's', type: 'string', nullable: true },
  { name: 'bin', type: 'binary', nullable: true },
  { name: 'dt', type: 'date', nullable: true },
  { name: 'ts', type: 'timestamp', nullable: true },
  { name: 'ntz', type: 'timestamp_ntz', nullable: true },
  { name: 'bool', type: 'boolean', nullable: true },
  {
    name: 'st',
    type: {
      type: 'struct',
      fields: [
        { name: 'a', type: 'integer', nullable: true },
        { name: 'b', type: 'string', nullable: true },
      ],
    },
    nullable: true,
  },
  { name: 'arr', type: { type: 'array', elementType: 'long', containsNull: true }, nullable: true },
  { name: 'm', type: { type: 'map', keyType: 'string', valueType: 'integer', valueContainsNull: true }, nullable: true },
];

export function allTypesTable(): arrow.Table {
  const utf8 = (values: (string | null)[]) => arrow.vectorFromArray(values, new arrow.Utf8());
  const binary = arrow.vectorFromArray(
    [Uint8Array.of(0x00, 0x5c, 0xff), new Uint8Array(0), new TextEncoder().encode('abc'), null],
    new arrow.Binary(),
  );
  const struct = arrow.vectorFromArray(
    [{ a: 1, b: 'x' }, { a: null, b: 'tab\t"quote"' }, null, { a: -7, b: '' }],
    new arrow.Struct([new arrow.Field('a', new arrow.Int32(), true), new arrow.Field('b', new arrow.Utf8(), true)]),
  );
  const list = arrow.vectorFromArray(
    [[1n, 2n ** 60n], [], null, [3n]],
    new arrow.List(new arrow.Field('element', new arrow.Int64(), true)),
  );
  const entries = new arrow.Struct([new arrow.Field('key', new arrow.Utf8(), false), new arrow.Field('value', new arrow.Int32(), true)]);
  const mapType = new arrow.Map_<arrow.Utf8, arrow.Int32>(new arrow.Field('entries', entries) as never);
  const map = arrow.vectorFromArray(
    [
      new Map([
        ['k', 1],
        ['ü', null],
      ]),
      new Map(),
      null,
      new Map([['z', 26]]),
    ],
    mapType,
  );
  return new arrow.Table({
    b: arrow.makeVector(fixed(new arrow.Int8(), Int8Array.of(-128, 127, 0, 0), LAST_NULL)),
    sh: arrow.makeVector(fixed(new arrow.Int16(), Int16Array.of(-32768, 32767, 1, 0), LAST_NULL)),
    i: arrow.makeVector(fixed(new arrow.Int32(), Int32Array.of(-2147483648, 2147483647, 0, 0), LAST_NULL)),
    l: arrow.makeVector(fixed(new arrow.Int64(), BigInt64Array.of(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n, 0n), LAST_NULL)),
    f: arrow.makeVector(fixed(new arrow.Float32(), Float32Array.of(NaN, Infinity, -1.5, 0.1), ALL)),
    d: arrow.makeVector(fixed(new arrow.Float64(), Float64Array.of(NaN, -Infinity, 1e308, 5e-324), ALL)),
    dec38: arrow.makeVector(
      fixed(new arrow.Decimal(18, 38, 128), decimalWords([10n ** 38n - 1n, -12345678901234567890123456789012345678n, 1n, 0n]), LAST_NULL),
    ),
    dec10: arrow.makeVector(fixed(new arrow.Decimal(2, 10, 128), decimalWords([12345n, -5n, 0n, 0n]), LAST_NULL)),
    s: utf8(['héllo wörld ✓ 𝄞', '', 'tab\there\nnew\\line\r', null]),
    bin: binary,
    dt: arrow.makeVector(fixed(new arrow.DateDay(), Int32Array.of(-719162, -1, 19000, 0), LAST_NULL)),
    ts: arrow.makeVector(fixed(new arrow.TimestampMicrosecond('UTC'), BigInt64Array.of(-1n, 0n, 1700000000123456n, 0n), LAST_NULL)),
    ntz: arrow.makeVector(
      fixed(new arrow.TimestampMicrosecond(), BigInt64Array.of(-3153600000000001n, 0n, 1700000000123456n, 0n), LAST_NULL),
    ),
    bool: arrow.makeVector(fixed(new arrow.Bool(), Uint8Array.of(0b0101), LAST_NULL)),
    st: struct,
    arr: list,
    m: map,
  });
}

/** What each row holds, as text (null = SQL NULL); nested columns as the JSON values they stand for. */
export const EXPECTED = {
  b: ['-128', '127', '0', null],
  sh: ['-32768', '32767', '1', null],
  i: ['-2147483648', '2147483647', '0', null],
  l: ['-9223372036854775808', '9223372036854775807', '9007199254740993', null],
  dec38: ['99999999999999999999.999999999999999999', '-12345678901234567890.123456789012345678', '0.000000000000000001', null],
  dec10: ['123.45', '-0.05', '0.00', null],
  s: ['héllo wörld ✓ 𝄞', '', 'tab\there\nnew\\line\r', null],
  bin: ['005cff', '', '616263', null],
  dt: ['0001-01-01', '1969-12-31', '2022-01-08', null],
  ts: ['1969-12-31T23:59:59.999999', '1970-01-01T00:00:00.000000', '2023-11-14T22:13:20.123456', null],
  ntz: ['1870-01-24T23:59:59.999999', '1970-01-01T00:00:00.000000', '2023-11-14T22:13:20.123456', null],
  bool: [true, false, true, null],
  st: [{ a: 1, b: 'x' }, { a: null, b: 'tab\t"quote"' }, null, { a: -7, b: '' }],
  arr: [[1, '1152921504606846976'], [], null, [3]],
  m: [{ k: 1, ü: null }, {}, null, { z: 26 }],
};
