import * as arrow from 'apache-arrow';
import type { PrimitiveType } from '../../../../shared/delta-schema.js';
import { describe, expect, it } from 'vitest';
import { constantData } from '../../../../electron/delta/engine/arrow-data.js';
import { toArrowType } from '../../../../electron/delta/scan/arrow-types.js';
import {
  daysFromCivil,
  parseDecimal,
  parsePartitionValue,
  parseTimestampMicros,
} from '../../../../electron/delta/scan/partition-values.js';

const parse = (raw: string | null | undefined, type: PrimitiveType): unknown => parsePartitionValue(raw, type, 'c');

describe('partition values', () => {
  it('reads null and the empty string as null for every type', () => {
    for (const type of ['string', 'integer', 'long', 'double', 'date', 'timestamp', 'boolean', 'binary', 'decimal(5,2)'] as const) {
      expect(parse(null, type)).toBeNull();
      expect(parse(undefined, type)).toBeNull();
      expect(parse('', type)).toBeNull();
    }
  });

  it('parses integers with range checks, longs as bigint', () => {
    expect(parse('-128', 'byte')).toBe(-128);
    expect(() => parse('128', 'byte')).toThrow(/partition value '128' of column 'c' is not a valid byte/);
    expect(parse('32767', 'short')).toBe(32767);
    expect(parse('+42', 'integer')).toBe(42);
    expect(() => parse('4.5', 'integer')).toThrow(/not a valid integer/);
    expect(parse('-9223372036854775808', 'long')).toBe(-9223372036854775808n);
    expect(() => parse('9223372036854775808', 'long')).toThrow(/not a valid long/);
  });

  it('parses floats including NaN and infinities', () => {
    expect(parse('1.5', 'double')).toBe(1.5);
    expect(parse('-2.5E3', 'float')).toBe(-2500);
    expect(parse('NaN', 'double')).toBeNaN();
    expect(parse('Infinity', 'double')).toBe(Infinity);
    expect(parse('-Infinity', 'float')).toBe(-Infinity);
    expect(() => parse('abc', 'double')).toThrow(/not a valid double/);
  });

  it('parses booleans, strings and binary', () => {
    expect(parse('true', 'boolean')).toBe(true);
    expect(parse('FALSE', 'boolean')).toBe(false);
    expect(() => parse('yes', 'boolean')).toThrow(/boolean/);
    expect(parse('A/A b=c', 'string')).toBe('A/A b=c');
    expect(parse('\u0001\u0002é', 'binary')).toEqual(Uint8Array.of(1, 2, 0xc3, 0xa9));
  });

  it('parses decimals exactly at the column scale', () => {
    expect(parse('123.45', 'decimal(5,2)')).toBe(12345n);
    expect(parse('-1.5', 'decimal(5,2)')).toBe(-150n);
    expect(parse('7', 'decimal(5,2)')).toBe(700n);
    expect(parseDecimal('1.2E2', 6, 1)).toBe(1200n);
    expect(parseDecimal('1.250', 5, 2)).toBe(125n);
    expect(parseDecimal('1.255', 5, 2)).toBeNull();
    expect(parseDecimal('12345.6', 5, 2)).toBeNull();
    expect(parse('99999999999999999999999999999999999999', 'decimal(38,0)')).toBe(10n ** 38n - 1n);
  });

  it('parses dates as days since the epoch, for any year', () => {
    expect(parse('1970-01-01', 'date')).toBe(0);
    expect(parse('2024-02-29', 'date')).toBe(Date.UTC(2024, 1, 29) / 86400000);
    expect(parse('1969-12-31', 'date')).toBe(-1);
    expect(daysFromCivil(1, 1, 1)).toBe(-719162);
    expect(parse('9999-12-31', 'date')).toBe(2932896);
    expect(() => parse('2023-02-29', 'date')).toThrow(/not a valid date/);
  });

  it('parses timestamps in the space form and in ISO-8601, as UTC microseconds', () => {
    const base = BigInt(Date.UTC(2021, 0, 2, 3, 4, 5)) * 1000n;
    expect(parse('2021-01-02 03:04:05', 'timestamp')).toBe(base);
    expect(parse('2021-01-02 03:04:05.123456', 'timestamp')).toBe(base + 123456n);
    expect(parse('2021-01-02 03:04:05.1', 'timestamp')).toBe(base + 100000n);
    expect(parse('2021-01-02T03:04:05.123456Z', 'timestamp')).toBe(base + 123456n);
    expect(parse('2021-01-02T04:04:05+01:00', 'timestamp')).toBe(base);
    expect(parse('2021-01-02T03:04:05.000Z', 'timestamp_ntz')).toBe(base);
    expect(parse('2021-01-02 03:04:05', 'timestamp_ntz')).toBe(base);
    expect(parseTimestampMicros('1969-12-31 23:59:59.999999')).toBe(-1n);
    expect(() => parse('2021-01-02 25:00:00', 'timestamp')).toThrow(/not a valid timestamp/);
    expect(() => parse('yesterday', 'timestamp_ntz')).toThrow(/timestamp_ntz/);
  });

  it('builds constant columns of the canonical type', () => {
    const check = (type: PrimitiveType, raw: string | null, expected: unknown[]): void => {
      const data = constantData(toArrowType(type), parse(raw, type) as never, 3);
      expect([...arrow.makeVector(data)].map((v) => (v instanceof Uint8Array ? Array.from(v) : v))).toEqual(expected);
    };
    check('string', 'x y', ['x y', 'x y', 'x y']);
    check('integer', '-7', [-7, -7, -7]);
    check('long', '5', [5n, 5n, 5n]);
    check('boolean', 'true', [true, true, true]);
    check('boolean', 'false', [false, false, false]);
    check('binary', 'ab', [
      [97, 98],
      [97, 98],
      [97, 98],
    ]);
    check('date', '1970-01-02', [86400000, 86400000, 86400000]);
    check('double', 'NaN', [NaN, NaN, NaN]);
    check('timestamp', '1970-01-01 00:00:01', [1000, 1000, 1000]);
    check('integer', null, [null, null, null]);
    const decimal = constantData(toArrowType('decimal(5,2)'), parse('-1.5', 'decimal(5,2)') as bigint, 2);
    expect([...arrow.makeVector(decimal)].map((v) => BigInt(arrow.util.bigNumToBigInt(v as never)))).toEqual([-150n, -150n]);
  });
});
