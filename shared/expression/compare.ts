// How filter values compare: which Delta types are comparable and the order within each family. Numbers compare by
// value across integer, decimal and floating types (exactly unless a float is involved); NaN equals NaN and is above
// every other number; strings compare by code point (the UTF-8 byte order Spark and DuckDB use); dates compare
// with timestamps as midnight UTC.
import { decimalParts, isDecimal, type DeltaType, type PrimitiveName, type PrimitiveType } from '../delta-schema.js';
import type { DeltaValue } from '../delta-values.js';

export type Family = 'numeric' | 'string' | 'boolean' | 'temporal' | 'void';

const FAMILIES: Record<PrimitiveName, Family | null> = {
  byte: 'numeric',
  short: 'numeric',
  integer: 'numeric',
  long: 'numeric',
  float: 'numeric',
  double: 'numeric',
  string: 'string',
  boolean: 'boolean',
  date: 'temporal',
  timestamp: 'temporal',
  timestamp_ntz: 'temporal',
  void: 'void',
  binary: null,
  variant: null,
};
/** Integer types whose values are JavaScript numbers (long and decimals are bigints). */
const SMALL_INTEGERS = new Set<DeltaType>(['byte', 'short', 'integer']);

/** The family a type compares in, or null for types that do not compare (binary, variant, nested types). */
export function familyOf(type: DeltaType): Family | null {
  if (isDecimal(type)) return 'numeric';
  return typeof type === 'string' ? FAMILIES[type] : null;
}

export type Comparator = (a: DeltaValue, b: DeltaValue) => number;

/** The order of two non-null values of comparable types (same family, or one of them void). */
export function comparator(left: DeltaType, right: DeltaType): Comparator {
  const family = familyOf(left) === 'void' ? familyOf(right) : familyOf(left);
  switch (family) {
    case 'numeric':
      return numericComparator(left as PrimitiveType, right as PrimitiveType);
    case 'string':
      return (a, b) => compareStrings(a as string, b as string);
    case 'boolean':
      return (a, b) => Number(a) - Number(b);
    case 'temporal':
      if (left === 'date' && right === 'date') return (a, b) => (a as number) - (b as number);
      return (a, b) => compareBigints(asMicros(a, left), asMicros(b, right));
    default:
      return () => 0;
  }
}

const MICROS_PER_DAY = 86_400_000_000n;

function asMicros(v: DeltaValue, type: DeltaType): bigint {
  return type === 'date' ? BigInt(v as number) * MICROS_PER_DAY : (v as bigint);
}

/** Code point order of two strings: UTF-16 order except that surrogates (U+10000 and above) sort after U+E000-U+FFFF. */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? fixup(x) - fixup(y) : x - y;
  }
  return a.length - b.length;
}

function fixup(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A number type's scale: 0 for integers, s for decimal(p,s), null for floating types. */
function scaleOf(type: PrimitiveType): number | null {
  if (type === 'float' || type === 'double') return null;
  return isDecimal(type) ? decimalParts(type).scale : 0;
}

function numericComparator(left: PrimitiveType, right: PrimitiveType): Comparator {
  const [ls, rs] = [scaleOf(left), scaleOf(right)];
  if (ls === null || rs === null) {
    const [lf, rf] = [toFloat(ls), toFloat(rs)];
    return (a, b) => compareFloats(lf(a), rf(b));
  }
  if (SMALL_INTEGERS.has(left) && SMALL_INTEGERS.has(right)) {
    return (a, b) => (a as number) - (b as number);
  }
  const scale = Math.max(ls, rs);
  const [lx, rx] = [10n ** BigInt(scale - ls), 10n ** BigInt(scale - rs)];
  return (a, b) => compareBigints(BigInt(a as number | bigint) * lx, BigInt(b as number | bigint) * rx);
}

function toFloat(scale: number | null): (v: DeltaValue) => number {
  if (scale === null || scale === 0) return (v) => Number(v);
  const divisor = 10 ** scale;
  return (v) => Number(v) / divisor;
}

function compareFloats(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}
