// Per-file statistics as Delta stores them in add.stats (PROTOCOL.md "Per-file Statistics"), computed straight from
// the Arrow buffers so that millions of rows cost one pass over typed arrays and no row objects.
import { DataType, DateUnit, TimeUnit, type Data, type Table, type Vector } from 'apache-arrow';

export interface FileStats {
  numRecords: number;
  minValues: Record<string, unknown>;
  maxValues: Record<string, unknown>;
  nullCount: Record<string, number>;
  /** False once a deletion vector hides rows: min/max may then be wider than the live rows. */
  tightBounds?: boolean;
}

type Bound = number | bigint | Uint8Array;

export function computeStats(table: Table): FileStats {
  const stats: FileStats = { numRecords: table.numRows, minValues: {}, maxValues: {}, nullCount: {} };
  for (const field of table.schema.fields) {
    const vector = table.getChild(field.name);
    if (!vector) continue;
    stats.nullCount[field.name] = vector.nullCount;
    const bounds = columnBounds(vector);
    if (!bounds) continue;
    stats.minValues[field.name] = statValue(field.type, bounds.min);
    stats.maxValues[field.name] = statValue(field.type, bounds.max);
  }
  return stats;
}

function columnBounds(vector: Vector): { min: Bound; max: Bound } | null {
  const type = vector.type as DataType;
  // Delta collects no min/max for booleans, binaries, decimals or nested types.
  const numeric = DataType.isInt(type) || DataType.isFloat(type) || DataType.isTimestamp(type) || DataType.isDate(type);
  if (!numeric && !DataType.isUtf8(type)) return null;
  let min: Bound | null = null;
  let max: Bound | null = null;
  for (const data of vector.data) {
    const chunk = numeric ? numericBounds(data) : utf8Bounds(data);
    if (!chunk) continue;
    if (min === null || compare(chunk.min, min) < 0) min = chunk.min;
    if (max === null || compare(chunk.max, max) > 0) max = chunk.max;
  }
  return min === null || max === null ? null : { min, max };
}

function isValid(data: Data, i: number): boolean {
  const bitmap = data.nullBitmap;
  if (!bitmap || data.nullCount === 0) return true;
  const bit = data.offset + i;
  return (bitmap[bit >> 3] & (1 << (bit & 7))) !== 0;
}

function numericBounds(data: Data): { min: number | bigint; max: number | bigint } | null {
  const values = data.values as ArrayLike<number | bigint>;
  let min: number | bigint | null = null;
  let max: number | bigint | null = null;
  for (let i = 0; i < data.length; i++) {
    if (!isValid(data, i)) continue;
    const v = values[data.offset + i];
    if (typeof v === 'number' && Number.isNaN(v)) continue;
    if (min === null || v < min) min = v;
    if (max === null || v > max) max = v;
  }
  return min === null || max === null ? null : { min, max };
}

/** Strings compare as UTF-8 bytes (Delta's order), in place in the value buffer, without decoding each value. */
function utf8Bounds(data: Data): { min: Uint8Array; max: Uint8Array } | null {
  const offsets = data.valueOffsets as Int32Array;
  const bytes = data.values as Uint8Array;
  let min = -1;
  let max = -1;
  for (let i = data.offset; i < data.offset + data.length; i++) {
    if (!isValid(data, i - data.offset)) continue;
    if (min < 0 || compareAt(bytes, offsets, i, min) < 0) min = i;
    if (max < 0 || compareAt(bytes, offsets, i, max) > 0) max = i;
  }
  if (min < 0) return null;
  return {
    min: bytes.subarray(offsets[min], offsets[min + 1]),
    max: bytes.subarray(offsets[max], offsets[max + 1]),
  };
}

function compareAt(bytes: Uint8Array, offsets: Int32Array, a: number, b: number): number {
  const aStart = offsets[a];
  const bStart = offsets[b];
  const aLength = offsets[a + 1] - aStart;
  const bLength = offsets[b + 1] - bStart;
  const n = Math.min(aLength, bLength);
  for (let k = 0; k < n; k++) {
    const d = bytes[aStart + k] - bytes[bStart + k];
    if (d !== 0) return d;
  }
  return aLength - bLength;
}

function compare(a: Bound, b: Bound): number {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

const decoder = new TextDecoder();
const MICROS_PER_UNIT: Record<TimeUnit, number> = {
  [TimeUnit.SECOND]: 1e6,
  [TimeUnit.MILLISECOND]: 1e3,
  [TimeUnit.MICROSECOND]: 1,
  [TimeUnit.NANOSECOND]: 1e-3,
};

function statValue(type: DataType, bound: Bound): unknown {
  if (bound instanceof Uint8Array) return decoder.decode(bound);
  if (DataType.isTimestamp(type)) {
    const micros = Number(bound) * MICROS_PER_UNIT[type.unit];
    const iso = new Date(Math.floor(micros / 1000)).toISOString();
    // Stats keep millisecond precision; timestamp_ntz (no zone) is written without the zone designator.
    return type.timezone ? iso : iso.slice(0, -1);
  }
  if (DataType.isDate(type)) {
    const ms = type.unit === DateUnit.DAY ? Number(bound) * 86_400_000 : Number(bound);
    return new Date(ms).toISOString().slice(0, 10);
  }
  return Number(bound);
}
