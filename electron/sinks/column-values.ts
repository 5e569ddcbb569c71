// One column of an Arrow batch read as the values a SQL sink writes: SQLite bind values, PostgreSQL or MySQL text. Readers
// work straight on the column's buffers (offsets, words, bitmaps) so that a batch never becomes row objects; what a
// value turns into is decided by the Delta type (timestamp vs timestamp_ntz, nested -> JSON), how it is stored in
// memory by the Arrow type.
import { Type, Vector, type Data, type DataType, type Decimal, type Timestamp } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { decimalReader } from '../values/decimal-text.js';
import { int64Reader } from '../values/int64.js';
import { dateFormatter, MAX_TIMESTAMP_BYTES, timestampByteWriter } from '../values/time-text.js';
import { jsonReader } from '../values/json-value.js';
import { booleanReader, int32Offsets, isNullAt, utf8Reader, valueBytes } from '../delta/engine/arrow-buffers.js';
import { valueKind, type ValueKind } from './sql-types.js';

/** Reads row i (valid rows only; nulls are checked by the caller through isNull). */
export type CellReader<T> = (i: number) => T;

export type SqliteValue = number | bigint | string | Buffer;

const MS_PER_DAY = 86_400_000;

/** SQLite stores NaN as NULL; this text keeps the value distinguishable from a missing one. */
export const NAN_TEXT = 'NaN';

/** Values bound into SQLite: INTEGER, REAL, exact TEXT, BLOB. */
export function sqliteReader(data: Data, field: StructField): CellReader<SqliteValue> {
  const kind = valueKind(field);
  switch (kind) {
    case 'boolean': {
      const bit = booleanReader(data);
      return (i) => (bit(i) ? 1 : 0);
    }
    case 'real':
    case 'double': {
      const number = numberReader(data);
      return (i) => {
        const v = number(i);
        return v === v ? v : NAN_TEXT;
      };
    }
    case 'binary':
      return binaryReader(data);
    case 'smallint':
    case 'integer':
    case 'bigint':
      if (isInt64(data.type)) return int64Reader(data.values);
      return numberReader(data);
    default:
      return textReader(data, kind);
  }
}

/** Values as PostgreSQL's text input form (what COPY and text parameters take), before any COPY escaping. */
export function pgTextReader(data: Data, field: StructField): CellReader<string> {
  const kind = valueKind(field);
  switch (kind) {
    case 'boolean': {
      const bit = booleanReader(data);
      return (i) => (bit(i) ? 't' : 'f');
    }
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'real':
    case 'double': {
      // String() of a double is the shortest text that reads back to the same value; NaN and ±Infinity are
      // spelled the way PostgreSQL reads them.
      const number = isInt64(data.type) ? int64Reader(data.values) : numberReader(data);
      return (i) => String(number(i));
    }
    case 'binary': {
      const bytes = binaryReader(data);
      return (i) => `\\x${bytes(i).toString('hex')}`;
    }
    default:
      return textReader(data, kind);
  }
}

/** Values as MySQL reads them from text (LOAD DATA's fields, a statement's parameters): booleans as 1 and 0, binary
 * values as hex digits (the statement unhexes them), a `timestamp` as its UTC time without a zone (DATETIME has
 * none). */
export function mysqlTextReader(data: Data, field: StructField): CellReader<string> {
  const kind = valueKind(field);
  switch (kind) {
    case 'boolean': {
      const bit = booleanReader(data);
      return (i) => (bit(i) ? '1' : '0');
    }
    case 'binary': {
      const bytes = binaryReader(data);
      return (i) => bytes(i).toString('hex');
    }
    case 'timestamp':
      return timestampReader(data, false);
    default:
      return pgTextReader(data, field);
  }
}

/** Kinds whose text can hold a backslash, tab or line break and so needs COPY escaping. */
export function mayNeedCopyEscape(field: StructField): boolean {
  const kind = valueKind(field);
  return kind === 'string' || kind === 'json' || kind === 'binary';
}

/** The kinds written as text by both dialects: each reader's switch hands these on (a kind it does not name is a
 * compiler error there). */
type TextKind = Extract<ValueKind, 'decimal' | 'date' | 'timestamp' | 'timestamp_ntz' | 'json' | 'string'>;

function textReader(data: Data, kind: TextKind): CellReader<string> {
  switch (kind) {
    case 'decimal': {
      const type = data.type as Decimal;
      if (data.type.typeId !== Type.Decimal) return genericText(data);
      return decimalReader(data.values as Uint32Array, type.bitWidth, type.scale);
    }
    case 'date':
      return dateReader(data);
    case 'timestamp':
    case 'timestamp_ntz':
      return timestampReader(data, kind === 'timestamp');
    case 'json':
      if (isNested(data.type)) return nestedJsonReader(data);
      return stringReader(data);
    case 'string':
      return stringReader(data);
    default:
      return kind satisfies never;
  }
}

function stringReader(data: Data): CellReader<string> {
  if (data.type.typeId !== Type.Utf8) return genericText(data);
  return utf8Reader(data);
}

function binaryReader(data: Data): CellReader<Buffer> {
  if (data.type.typeId === Type.Binary) {
    const bytes = valueBytes(data);
    const offsets = int32Offsets(data);
    return (i) => bytes.subarray(offsets[i], offsets[i + 1]);
  }
  const vector = new Vector([data]);
  return (i) => Buffer.from(vector.get(i) as Uint8Array);
}

function numberReader(data: Data): CellReader<number> {
  const values = data.values as ArrayLike<number>;
  return (i) => values[i];
}

function dateReader(data: Data): CellReader<string> {
  const format = dateFormatter();
  if (data.type.typeId === Type.Date) {
    const unit = (data.type as unknown as { unit: number }).unit;
    if (unit === 0) {
      const days = data.values as Int32Array;
      return (i) => format(days[i]);
    }
    const ms = int64Reader(data.values as BigInt64Array);
    return (i) => format(Math.floor(Number(ms(i)) / MS_PER_DAY));
  }
  return genericText(data);
}

/** The column's texts are written as bytes, decoded into one string, and read as substrings of it: making a string
 * per value by concatenation cost more than the database's insert of it (and the parts still had to be flattened
 * when bound). */
function timestampReader(data: Data, utc: boolean): CellReader<string> {
  if (data.type.typeId !== Type.Timestamp) return genericText(data);
  const { bytes, ends } = timestampBytes(data, utc, scratchBytes(data.length * MAX_TIMESTAMP_BYTES));
  const text = bytes.toString('latin1', 0, ends[data.length]);
  return (i) => text.substring(ends[i], ends[i + 1]);
}

/** A Timestamp column's texts as ASCII bytes: row i's are bytes[ends[i], ends[i + 1]) (none for a null). `bytes`
 * needs MAX_TIMESTAMP_BYTES per row. */
export function timestampBytes(
  data: Data,
  utc: boolean,
  bytes: Buffer = Buffer.allocUnsafe(data.length * MAX_TIMESTAMP_BYTES),
): { bytes: Buffer; ends: Int32Array } {
  const write = timestampByteWriter((data.type as Timestamp).unit, utc);
  const ticks = int64Reader(data.values as BigInt64Array);
  const isNull = isNullAt(data);
  const rows = data.length;
  const ends = new Int32Array(rows + 1);
  let pos = 0;
  for (let i = 0; i < rows; i++) {
    if (!isNull(i)) pos = write(bytes, pos, ticks(i));
    ends[i + 1] = pos;
  }
  return { bytes, ends };
}

let scratch = Buffer.alloc(0);

/** A buffer of at least `size` bytes for text that is decoded right away, reused from column to column. */
function scratchBytes(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, 2 * scratch.length));
  return scratch;
}

function nestedJsonReader(data: Data): CellReader<string> {
  const read = jsonReader(data);
  return (i) => JSON.stringify(read(i));
}

/** Layouts other than the scan's canonical ones (arrow-types.ts): apache-arrow reads the value. */
function genericText(data: Data): CellReader<string> {
  const vector = new Vector([data]);
  return (i) => String(vector.get(i));
}

function isInt64(type: DataType): boolean {
  return type.typeId === Type.Int && (type as unknown as { bitWidth: number }).bitWidth === 64;
}

function isNested(type: DataType): boolean {
  const id = type.typeId;
  return id === Type.Struct || id === Type.List || id === Type.Map || id === Type.FixedSizeList || id === Type.LargeList;
}
