// Delta values written as text (PROTOCOL.md "Partition Value Serialization"), parsed into the unit of their canonical
// Arrow type: days for dates, microseconds for timestamps (bigint), unscaled bigint for decimals, bigint for long,
// UTF-8 bytes for binary. Partition values and the literals of filter expressions are both read with these rules.
import { decimalParts, isDecimal, type DeltaType } from './delta-schema.js';
import { daysFromCivil as civilToDays, daysInMonth } from './timestamp.js';

export type DeltaValue = string | number | bigint | boolean | Uint8Array | null;

const INT_RANGES: Record<'byte' | 'short' | 'integer', [number, number]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  integer: [-2147483648, 2147483647],
};

/** The typed value of non-empty text, or undefined when the text is not a valid value of the type. */
export function parseDeltaText(raw: string, type: DeltaType): DeltaValue | undefined {
  if (typeof type !== 'string') return undefined;
  if (isDecimal(type)) {
    const { precision, scale } = decimalParts(type);
    return parseDecimal(raw, precision, scale) ?? undefined;
  }
  switch (type) {
    case 'string':
      return raw;
    case 'binary':
      return new TextEncoder().encode(raw);
    case 'boolean': {
      const lower = raw.toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : undefined;
    }
    case 'byte':
    case 'short':
    case 'integer': {
      const [min, max] = INT_RANGES[type];
      const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
      return n >= min && n <= max ? n : undefined;
    }
    case 'long': {
      if (!/^[+-]?\d+$/.test(raw)) return undefined;
      const n = BigInt(raw);
      return n === BigInt.asIntN(64, n) ? n : undefined;
    }
    case 'float':
    case 'double': {
      const n = Number(raw);
      return (Number.isNaN(n) && raw !== 'NaN') || raw.trim() === '' ? undefined : n;
    }
    case 'date': {
      const m = /^(-?\d{4,})-(\d{1,2})-(\d{1,2})$/.exec(raw);
      return (m && daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]))) ?? undefined;
    }
    case 'timestamp':
    case 'timestamp_ntz':
      return parseTimestampMicros(raw) ?? undefined;
    case 'void':
      return null;
    // A variant has no text form.
    case 'variant':
      return undefined;
    default:
      return type satisfies never;
  }
}

/** Days since 1970-01-01 of a valid proleptic Gregorian date, or null (02-30 is not a date). */
export function daysFromCivil(year: number, month: number, day: number): number | null {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return civilToDays(year, month, day);
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
