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
import { bytesOf, CHUNK_BYTES, putBytes, type Bytes, type CopyOutput } from './copy-output.js';
import { valueKind, type ExistingColumn, type ValueKind } from './sql-types.js';

/** Signature, flags (no OIDs) and the length of the header extension (none). */
const HEADER = bytesOf(Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]));
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

/** Writes a cell (its length word and its bytes) at `pos` into room the caller has ensured, and returns where the
 * next cell starts. Room is ensured once per block of rows (see ColumnWriter.room), not per cell, and words go
 * through the output's DataView, one big-endian store each. */
type CellWriter = (out: Bytes, pos: number, i: number) => number;

/** How one column of a batch is written. */
interface ColumnWriter {
  write: CellWriter;
  /** The most bytes rows [from, to) of the column take. */
  room(from: number, to: number): number;
}

/** Rows whose room is ensured at once: few enough that the bound stays small next to a slab, many enough that the
 * per-block work (one bound per column) is lost in the rows'. */
const BLOCK_ROWS = 256;

/** Writes the stream's header into `out`. */
export function startBinaryCopy(out: CopyOutput): void {
  out.ensure(HEADER.buf.length);
  out.put(HEADER, 0, HEADER.buf.length);
}

/** The batches' rows, in chunks of at least CHUNK_BYTES; the rest of the last one stays in `out` for the rows that
 * follow (one stream may take many calls). */
export function* binaryCopyRows(batches: RecordBatch[], fields: StructField[], out: CopyOutput): Generator<Buffer> {
  const count = fields.length;
  for (const batch of batches) {
    const columns = fields.map((field, c) => columnWriter(batch.data.children[c], field));
    const writers = columns.map((column) => column.write);
    for (let from = 0; from < batch.numRows; from += BLOCK_ROWS) {
      const to = Math.min(batch.numRows, from + BLOCK_ROWS);
      let room = 2 * (to - from);
      for (const column of columns) room += column.room(from, to);
      out.ensure(room);
      const view = out.view;
      let pos = out.pos;
      for (let i = from; i < to; i++) {
        view.setUint16(pos, count);
        pos += 2;
        for (let c = 0; c < count; c++) pos = writers[c](out, pos, i);
      }
      out.pos = pos;
      if (pos - out.start >= CHUNK_BYTES) yield out.take();
    }
  }
}

/** The stream's last chunk: the rows still in `out` and the trailer. */
export function endBinaryCopy(out: CopyOutput): Buffer {
  out.ensure(2);
  out.view.setInt16(out.pos, -1);
  out.pos += 2;
  return out.take();
}

const writeNull: CellWriter = (out, pos) => {
  out.view.setInt32(pos, -1);
  return pos + 4;
};

/** A column whose every cell takes at most `bytes`. */
function fixedRoom(bytes: number): ColumnWriter['room'] {
  return (from, to) => (to - from) * bytes;
}

/** The column's writer; a column without nulls skips the check. (A null takes 4 bytes, no more than any value.) */
function columnWriter(data: Data, field: StructField): ColumnWriter {
  if (data.type.typeId === Type.Null) return { write: writeNull, room: fixedRoom(4) };
  const column = valueWriter(data, valueKind(field));
  if (data.nullCount === 0) return column;
  const isNull = isNullAt(data);
  const write = column.write;
  return { write: (out, pos, i) => (isNull(i) ? writeNull(out, pos, i) : write(out, pos, i)), room: column.room };
}

function valueWriter(data: Data, kind: ValueKind): ColumnWriter {
  switch (kind) {
    case 'smallint':
      return smallintWriter(data);
    case 'integer':
    case 'real':
      return word32Writer(data);
    case 'bigint':
    case 'double':
      return word64Writer(data);
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

/** The values' buffer as unsigned words of `Words`' width (integers and IEEE floats are sent as their own bits). */
function wordsOf<T>(data: Data, Words: new (buffer: ArrayBufferLike, byteOffset: number, length: number) => T, width: number): T {
  const values = data.values as { buffer: ArrayBufferLike; byteOffset: number; byteLength: number };
  return new Words(values.buffer, values.byteOffset, values.byteLength / width);
}

/** 16-bit integers, and bytes widened to them: a value's low 16 bits, as setInt16 keeps them. */
function smallintWriter(data: Data): ColumnWriter {
  const values = data.values as Int8Array | Int16Array;
  return {
    write: ({ view }, pos, i) => {
      view.setInt32(pos, 2);
      view.setInt16(pos + 4, values[i]);
      return pos + 6;
    },
    room: fixedRoom(6),
  };
}

/** 32-bit integers and floats. */
function word32Writer(data: Data): ColumnWriter {
  const words = wordsOf(data, Uint32Array, 4);
  return {
    write: ({ view }, pos, i) => {
      view.setInt32(pos, 4);
      view.setUint32(pos + 4, words[i]);
      return pos + 8;
    },
    room: fixedRoom(8),
  };
}

/** 64-bit integers and doubles: the high word first (Arrow buffers are little-endian). */
function word64Writer(data: Data): ColumnWriter {
  const words = wordsOf(data, Uint32Array, 4);
  return {
    write: ({ view }, pos, i) => {
      view.setInt32(pos, 8);
      view.setUint32(pos + 4, words[2 * i + 1]);
      view.setUint32(pos + 8, words[2 * i]);
      return pos + 12;
    },
    room: fixedRoom(12),
  };
}

function booleanWriter(data: Data): ColumnWriter {
  const bit = booleanReader(data);
  return {
    write: ({ view }, pos, i) => {
      view.setInt32(pos, 1);
      view.setUint8(pos + 4, bit(i) ? 1 : 0);
      return pos + 5;
    },
    room: fixedRoom(5),
  };
}

/** Days since 2000-01-01. A shift that would leave int32 (far outside PostgreSQL's dates) becomes a value the
 * server refuses as out of range, never its -infinity (INT32_MIN). */
function dateWriter(data: Data): ColumnWriter {
  const days = data.values as Int32Array;
  return {
    write: ({ view }, pos, i) => {
      view.setInt32(pos, 4);
      view.setInt32(pos + 4, Math.max(days[i] - PG_EPOCH_DAYS, -0x7fffffff));
      return pos + 8;
    },
    room: fixedRoom(8),
  };
}

/** Microseconds since 2000-01-01, subtracted word by word (no BigInt). A shift below int64 (far outside
 * PostgreSQL's timestamps) becomes INT64_MIN + 1, which the server refuses as out of range, never its -infinity. */
function timestampWriter(data: Data): ColumnWriter {
  const low = wordsOf(data, Uint32Array, 4);
  const high = wordsOf(data, Int32Array, 4);
  return {
    write: ({ view }, pos, i) => {
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
      view.setInt32(pos, 8);
      view.setInt32(pos + 4, h);
      view.setUint32(pos + 8, l);
      return pos + 12;
    },
    room: fixedRoom(12),
  };
}

/** numeric_recv's form: digit count, weight (power of 10,000 of the first digit), sign, display scale, then the
 * base-10,000 digits, most significant first, grouped from the decimal point; zero groups at the end are left out. */
function numericWriter(data: Data): ColumnWriter {
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
  const write: CellWriter = ({ view }, pos, i) => {
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
    view.setInt32(pos, 8 + 2 * digits);
    view.setUint16(pos + 4, digits);
    view.setInt16(pos + 6, digits === 0 ? 0 : n - 1 - fractionGroups);
    view.setUint16(pos + 8, negative && digits > 0 ? NUMERIC_NEG : 0);
    view.setUint16(pos + 10, scale);
    pos += 12;
    for (let k = n - 1; k >= lowest; k--, pos += 2) view.setUint16(pos, groups[k]);
    return pos;
  };
  return { write, room: fixedRoom(12 + 2 * MAX_NUMERIC_DIGITS) };
}

/** Text, bytea and JSON text cells: their bytes as Arrow holds them, after jsonb's version byte when given. */
function bytesWriter(data: Data, prefix: number | null): ColumnWriter {
  const source = bytesOf(data.values as Uint8Array);
  const offsets = data.valueOffsets as Int32Array;
  const header = prefix === null ? 4 : 5;
  return {
    write: (out, pos, i) => {
      const start = offsets[i];
      const end = offsets[i + 1];
      out.view.setInt32(pos, header - 4 + end - start);
      if (prefix !== null) out.view.setUint8(pos + 4, prefix);
      return putBytes(out, pos + header, source, start, end);
    },
    room: (from, to) => (to - from) * header + offsets[to] - offsets[from],
  };
}

/** Structs, arrays and maps as jsonb: the same JSON text the text COPY sends. The block's texts are made when its
 * room is asked, which their lengths bound. */
function nestedJsonWriter(data: Data): ColumnWriter {
  const read = jsonReader(data);
  let texts: string[] = [];
  let first = 0;
  return {
    write: (out, pos, i) => {
      const length = 1 + out.buf.write(texts[i - first], pos + 5);
      out.view.setInt32(pos, length);
      out.view.setUint8(pos + 4, JSONB_VERSION);
      return pos + 4 + length;
    },
    room: (from, to) => {
      first = from;
      texts = [];
      let room = 0;
      for (let i = from; i < to; i++) {
        const text = JSON.stringify(read(i));
        texts.push(text);
        room += 5 + 3 * text.length;
      }
      return room;
    },
  };
}
