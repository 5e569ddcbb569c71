// Arrow batches as PostgreSQL's binary COPY format (`COPY ... FROM STDIN (FORMAT binary)`): every value in its
// type's binary receive form, written straight from the Arrow buffers. The server then checks and stores values
// instead of parsing text, about half its work on a text COPY. The bytes only fit column types whose receive
// function reads exactly them (binaryCopyFits); anything else goes as COPY text.
//
// Layout: the 19-byte header; per row an int16 column count, then per column an int32 byte length (-1 for NULL)
// and the value; an int16 -1 at the end. All integers are big-endian; Arrow buffers are little-endian.
import {
  DateUnit,
  Precision,
  TimeUnit,
  Type,
  type Data,
  type DateDay,
  type Decimal,
  type Float,
  type Int,
  type RecordBatch,
  type Timestamp,
} from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { unscaled } from '../values/decimal-text.js';
import { jsonReader } from '../values/json-value.js';
import { booleanReader, isNullAt } from '../arrow/buffers.js';
import { CHUNK_BYTES, CopyOutput } from './copy-output.js';
import { valueKind, type ExistingColumn, type ValueKind } from './sql-types.js';

/** Signature, flags (no OIDs) and the length of the header extension (none). */
const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** PostgreSQL counts dates and times from 2000-01-01, Arrow from 1970-01-01. */
const PG_EPOCH_DAYS = 10_957;
const PG_EPOCH_MICROS = 946_684_800_000_000;
const TWO_32 = 4_294_967_296;
const EPOCH_HIGH = Math.floor(PG_EPOCH_MICROS / TWO_32);
const EPOCH_LOW = PG_EPOCH_MICROS - EPOCH_HIGH * TWO_32;
/** Numeric digits are base 10,000; sign words of numeric_send. */
const NBASE = 10_000;
const NUMERIC_NEG = 0x4000;
/** The 39 digits of a 128-bit integer, aligned on the point, need at most 11 base-10,000 digits. */
const MAX_NUMERIC_DIGITS = 11;
/** jsonb's binary form: a version byte, then the JSON text. */
const JSONB_VERSION = 1;

/** The column types whose binary input reads what this module writes for each kind (format_type() spellings). A
 * numeric of any precision and scale takes the digits (the server rounds to the column's scale, as with text). */
const BINARY_TARGETS: Record<ValueKind, RegExp> = {
  smallint: /^smallint$/,
  integer: /^integer$/,
  bigint: /^bigint$/,
  real: /^real$/,
  double: /^double precision$/,
  decimal: /^numeric(\(\d+,\d+\))?$/,
  string: /^(text|character varying)$/,
  binary: /^bytea$/,
  date: /^date$/,
  timestamp: /^timestamp with time zone$/,
  timestamp_ntz: /^timestamp without time zone$/,
  boolean: /^boolean$/,
  json: /^jsonb$/,
};

/** Whether binary COPY can fill these columns of a table described by its catalog. */
export function binaryCopyFits(fields: StructField[], columns: ExistingColumn[]): boolean {
  return fields.every((field) => {
    const column = columns.find((c) => c.name === field.name);
    return column !== undefined && BINARY_TARGETS[valueKind(field)].test(column.type);
  });
}

/** Whether every column of the batches is in an Arrow layout this module writes: the scan's canonical types
 * (arrow-types.ts). */
export function binaryCopyReads(batches: RecordBatch[], fields: StructField[]): boolean {
  return batches.every((batch) => fields.every((field, c) => readsLayout(valueKind(field), batch.data.children[c])));
}

function readsLayout(kind: ValueKind, data: Data): boolean {
  const type = data.type;
  switch (kind) {
    case 'smallint':
      return type.typeId === Type.Int && (type as Int).bitWidth <= 16;
    case 'integer':
      return type.typeId === Type.Int && (type as Int).bitWidth === 32;
    case 'bigint':
      return type.typeId === Type.Int && (type as Int).bitWidth === 64;
    case 'real':
      return type.typeId === Type.Float && (type as Float).precision === Precision.SINGLE;
    case 'double':
      return type.typeId === Type.Float && (type as Float).precision === Precision.DOUBLE;
    case 'decimal':
      // 128 bits hold at most 39 digits, which MAX_NUMERIC_DIGITS covers.
      return type.typeId === Type.Decimal && (type as Decimal).bitWidth <= 128;
    case 'string':
      return type.typeId === Type.Utf8 || type.typeId === Type.Null;
    case 'binary':
      return type.typeId === Type.Binary;
    case 'date':
      return type.typeId === Type.Date && (type as DateDay).unit === DateUnit.DAY;
    case 'timestamp':
    case 'timestamp_ntz':
      return type.typeId === Type.Timestamp && (type as Timestamp).unit === TimeUnit.MICROSECOND;
    case 'boolean':
      return type.typeId === Type.Bool;
    case 'json':
      return [Type.Utf8, Type.Struct, Type.List, Type.Map, Type.FixedSizeList, Type.LargeList].includes(type.typeId);
  }
}

/** Writes a cell: its length word and its bytes. */
type CellWriter = (out: CopyOutput, i: number) => void;

/** Writes the stream's header into `out`. */
export function startBinaryCopy(out: CopyOutput): void {
  out.ensure(HEADER.length);
  out.put(HEADER, 0, HEADER.length);
}

/** The batches' rows, in chunks of at least CHUNK_BYTES; the rest of the last one stays in `out` for the rows that
 * follow (one stream may take many calls). */
export function* binaryCopyRows(batches: RecordBatch[], fields: StructField[], out: CopyOutput): Generator<Buffer> {
  const count = fields.length;
  for (const batch of batches) {
    const writers = fields.map((field, c) => cellWriter(batch.data.children[c], field));
    for (let i = 0; i < batch.numRows; i++) {
      out.ensure(2);
      out.buf[out.pos++] = count >> 8;
      out.buf[out.pos++] = count;
      for (let c = 0; c < count; c++) writers[c](out, i);
      if (out.pos - out.start >= CHUNK_BYTES) yield out.take();
    }
  }
}

/** The stream's last chunk: the rows still in `out` and the trailer. */
export function endBinaryCopy(out: CopyOutput): Buffer {
  out.ensure(2);
  out.buf[out.pos++] = 0xff;
  out.buf[out.pos++] = 0xff;
  return out.take();
}

function put32(buf: Buffer, pos: number, v: number): void {
  buf[pos] = v >>> 24;
  buf[pos + 1] = v >>> 16;
  buf[pos + 2] = v >>> 8;
  buf[pos + 3] = v;
}

function put16(buf: Buffer, pos: number, v: number): void {
  buf[pos] = v >>> 8;
  buf[pos + 1] = v;
}

const writeNull: CellWriter = (out) => {
  out.ensure(4);
  put32(out.buf, out.pos, -1);
  out.pos += 4;
};

/** The column's writer; a column without nulls skips the check. */
function cellWriter(data: Data, field: StructField): CellWriter {
  if (data.type.typeId === Type.Null) return writeNull;
  const write = valueWriter(data, valueKind(field));
  if (data.nullCount === 0) return write;
  const isNull = isNullAt(data);
  return (out, i) => (isNull(i) ? writeNull(out, i) : write(out, i));
}

function valueWriter(data: Data, kind: ValueKind): CellWriter {
  switch (kind) {
    case 'smallint':
      return (data.type as Int).bitWidth === 8 ? int8Writer(data) : swappedWriter(data, 2);
    case 'integer':
    case 'real':
      return swappedWriter(data, 4);
    case 'bigint':
    case 'double':
      return swappedWriter(data, 8);
    case 'decimal':
      return numericWriter(data);
    case 'string':
    case 'binary':
      return bytesWriter(data, null);
    case 'date':
      return dateWriter(data);
    case 'timestamp':
    case 'timestamp_ntz':
      return timestampWriter(data);
    case 'boolean':
      return booleanWriter(data);
    case 'json':
      return data.type.typeId === Type.Utf8 ? bytesWriter(data, JSONB_VERSION) : nestedJsonWriter(data);
  }
}

/** Fixed-width values whose binary form is their own bytes in network order: integers and IEEE floats (NaN and
 * the infinities included). */
function swappedWriter(data: Data, width: number): CellWriter {
  const values = data.values as ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number; byteLength: number };
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const last = width - 1;
  return (out, i) => {
    out.ensure(4 + width);
    const buf = out.buf;
    let pos = out.pos;
    put32(buf, pos, width);
    pos += 4;
    for (let k = i * width + last, end = i * width; k >= end; k--) buf[pos++] = bytes[k];
    out.pos = pos;
  };
}

/** A byte column widened to smallint. */
function int8Writer(data: Data): CellWriter {
  const values = data.values as Int8Array;
  return (out, i) => {
    out.ensure(6);
    put32(out.buf, out.pos, 2);
    put16(out.buf, out.pos + 4, values[i]);
    out.pos += 6;
  };
}

function booleanWriter(data: Data): CellWriter {
  const bit = booleanReader(data);
  return (out, i) => {
    out.ensure(5);
    put32(out.buf, out.pos, 1);
    out.buf[out.pos + 4] = bit(i) ? 1 : 0;
    out.pos += 5;
  };
}

/** Days since 2000-01-01. A shift that would leave int32 (far outside PostgreSQL's dates) becomes a value the
 * server refuses as out of range, never its -infinity (INT32_MIN). */
function dateWriter(data: Data): CellWriter {
  const days = data.values as Int32Array;
  return (out, i) => {
    out.ensure(8);
    put32(out.buf, out.pos, 4);
    put32(out.buf, out.pos + 4, Math.max(days[i] - PG_EPOCH_DAYS, -0x7fffffff));
    out.pos += 8;
  };
}

/** Microseconds since 2000-01-01, subtracted word by word (no BigInt). A shift below int64 (far outside
 * PostgreSQL's timestamps) becomes INT64_MIN + 1, which the server refuses as out of range, never its -infinity. */
function timestampWriter(data: Data): CellWriter {
  const values = data.values as BigInt64Array;
  const low = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  const high = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  return (out, i) => {
    let l = low[2 * i] - EPOCH_LOW;
    let h = high[2 * i + 1] - EPOCH_HIGH;
    if (l < 0) {
      l += TWO_32;
      h -= 1;
    }
    if (h < -0x80000000 || (h === -0x80000000 && l === 0)) {
      h = -0x80000000;
      l = 1;
    }
    out.ensure(12);
    const buf = out.buf;
    put32(buf, out.pos, 8);
    put32(buf, out.pos + 4, h);
    put32(buf, out.pos + 8, l);
    out.pos += 12;
  };
}

/** numeric_recv's form: digit count, weight (power of 10,000 of the first digit), sign, display scale, then the
 * base-10,000 digits, most significant first, grouped from the decimal point; zero groups at the end are left out. */
function numericWriter(data: Data): CellWriter {
  const type = data.type as Decimal;
  const words = data.values as Uint32Array;
  const stride = type.bitWidth / 32;
  const { scale } = type;
  // The unscaled integer's lowest group holds (4 - pad) of its digits and `pad` zeros, so that groups meet at the point.
  const pad = (4 - (scale % 4)) % 4;
  const fractionGroups = (scale + pad) / 4;
  const firstDivisor = 10 ** (4 - pad);
  const firstFactor = 10 ** pad;
  const groups = new Uint16Array(MAX_NUMERIC_DIGITS);
  const firstDivisorBig = BigInt(firstDivisor);
  return (out, i) => {
    const value = unscaled(words, i * stride, stride);
    let negative: boolean;
    let n = 0;
    if (typeof value === 'number') {
      negative = value < 0;
      let rest = negative ? -value : value;
      if (rest > 0) {
        const first = rest % firstDivisor;
        groups[n++] = first * firstFactor;
        rest = (rest - first) / firstDivisor;
        while (rest > 0) {
          const g = rest % NBASE;
          groups[n++] = g;
          rest = (rest - g) / NBASE;
        }
      }
    } else {
      negative = value < 0n;
      let rest = negative ? -value : value;
      groups[n++] = Number(rest % firstDivisorBig) * firstFactor;
      rest /= firstDivisorBig;
      while (rest > 0n) {
        groups[n++] = Number(rest % 10_000n);
        rest /= 10_000n;
      }
    }
    let lowest = 0;
    while (lowest < n && groups[lowest] === 0) lowest++;
    const digits = n - lowest;
    out.ensure(12 + 2 * digits);
    const buf = out.buf;
    let pos = out.pos;
    put32(buf, pos, 8 + 2 * digits);
    put16(buf, pos + 4, digits);
    put16(buf, pos + 6, digits === 0 ? 0 : n - 1 - fractionGroups);
    put16(buf, pos + 8, negative && digits > 0 ? NUMERIC_NEG : 0);
    put16(buf, pos + 10, scale);
    pos += 12;
    for (let k = n - 1; k >= lowest; k--, pos += 2) put16(buf, pos, groups[k]);
    out.pos = pos;
  };
}

/** Text, bytea and JSON text cells: their bytes as Arrow holds them, after jsonb's version byte when given. */
function bytesWriter(data: Data, prefix: number | null): CellWriter {
  const bytes = Buffer.from(data.values.buffer, data.values.byteOffset, data.values.byteLength);
  const offsets = data.valueOffsets as Int32Array;
  const extra = prefix === null ? 0 : 1;
  return (out, i) => {
    const start = offsets[i];
    const end = offsets[i + 1];
    out.ensure(4 + extra + end - start);
    put32(out.buf, out.pos, extra + end - start);
    out.pos += 4;
    if (prefix !== null) out.buf[out.pos++] = prefix;
    out.put(bytes, start, end);
  };
}

/** Structs, arrays and maps as jsonb: the same JSON text the text COPY sends. */
function nestedJsonWriter(data: Data): CellWriter {
  const read = jsonReader(data);
  return (out, i) => {
    const text = JSON.stringify(read(i));
    out.ensure(5 + 3 * text.length);
    const length = 1 + out.buf.write(text, out.pos + 5);
    put32(out.buf, out.pos, length);
    out.buf[out.pos + 4] = JSONB_VERSION;
    out.pos += 4 + length;
  };
}
