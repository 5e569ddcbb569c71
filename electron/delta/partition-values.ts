// Typed partition values from add.partitionValues strings (PROTOCOL.md "Partition Value Serialization"); directory
// names are never consulted. null and "" both mean null.
import { decimalParts, type DeltaType } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import type { Scalar } from './arrow-data.js';

const INT_RANGES: Record<string, [number, number]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
};

/** The value in the unit of its canonical Arrow type: days for dates, microseconds for timestamps (bigint),
 * unscaled bigint for decimals, bigint for long, UTF-8 bytes for binary. */
export function parsePartitionValue(raw: string | null | undefined, type: DeltaType, column: string): Scalar {
  if (raw === null || raw === undefined || raw === '') return null;
  const fail = (): never => {
    throw new DeltaportError('CORRUPT_LOG', `partition value '${raw}' of column '${column}' is not a valid ${String(type)}`);
  };
  if (typeof type !== 'string') return fail();
  switch (type) {
    case 'string':
      return raw;
    case 'binary':
      return new TextEncoder().encode(raw);
    case 'boolean': {
      const lower = raw.toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : fail();
    }
    case 'byte':
    case 'short':
    case 'integer': {
      const [min, max] = INT_RANGES[type];
      const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
      return n >= min && n <= max ? n : fail();
    }
    case 'long': {
      if (!/^[+-]?\d+$/.test(raw)) return fail();
      const n = BigInt(raw);
      return n === BigInt.asIntN(64, n) ? n : fail();
    }
    case 'float':
    case 'double': {
      const n = Number(raw);
      return Number.isNaN(n) && raw !== 'NaN' ? fail() : n;
    }
    case 'date': {
      const m = /^(-?\d{4,})-(\d{1,2})-(\d{1,2})$/.exec(raw);
      return (m && daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]))) ?? fail();
    }
    case 'timestamp':
    case 'timestamp_ntz':
      return parseTimestampMicros(raw) ?? fail();
    case 'void':
      return null;
    default: {
      const decimal = decimalParts(type);
      if (decimal) return parseDecimal(raw, decimal.precision, decimal.scale) ?? fail();
      return fail();
    }
  }
}

/** Days since 1970-01-01 of a proleptic Gregorian date (the civil-from-days inverse, valid for any year). */
export function daysFromCivil(year: number, month: number, day: number): number | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  // Reject dates like 02-30 that roll over into the next month.
  const check = new Date(days * 86400000);
  return check.getUTCDate() === day ? days : null;
}

const TIMESTAMP = /^(-?\d{4,})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** 'YYYY-MM-DD HH:MM:SS[.ffffff]' or ISO-8601 with an optional Z or offset; no zone means UTC. */
export function parseTimestampMicros(raw: string): bigint | null {
  const m = TIMESTAMP.exec(raw);
  if (!m) return null;
  const days = daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]));
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (days === null || hour > 23 || minute > 59 || second > 59) return null;
  const micros = BigInt((m[7] ?? '').padEnd(6, '0').slice(0, 6));
  let offsetMinutes = 0;
  if (m[8] && m[8] !== 'Z') {
    const digits = m[8].replace(':', '');
    const sign = digits[0] === '-' ? -1 : 1;
    offsetMinutes = sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0));
  }
  const seconds = days * 86400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  return BigInt(seconds) * 1000000n + micros;
}

/** The unscaled value of a decimal string at the given scale, or null when it does not fit decimal(p,s) exactly. */
export function parseDecimal(raw: string, precision: number, scale: number): bigint | null {
  const m = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  let digits = m[2] + (m[3] ?? '');
  let exponent = Number(m[4] ?? 0) - (m[3] ?? '').length + scale;
  if (exponent < 0) {
    const dropped = digits.slice(digits.length + exponent);
    if (/[^0]/.test(dropped)) return null;
    digits = digits.slice(0, digits.length + exponent);
    exponent = 0;
  }
  const unscaled = BigInt(digits || '0') * 10n ** BigInt(exponent);
  if (unscaled >= 10n ** BigInt(precision)) return null;
  return m[1] === '-' ? -unscaled : unscaled;
}
