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
import { booleanReader, isNullAt, type RowReader } from '../delta/engine/arrow-buffers.js';
import { bytesOf, putBytes, type Bytes } from './bytes.js';
import { CHUNK_BYTES, type CopyOutput } from './copy-output.js';
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
    default:
      return kind satisfies never;
  }
}

/** Where each row's next cell goes, by row of the block: byte offsets into the output's current buffer, which a
 * Buffer (at most 2^32 bytes) keeps within 32 bits. */
type Cursor = Uint32Array;
type Nulls = RowReader<boolean> | null;

/** How one column of a batch is written. A block of rows is written one column after another (binaryCopyRows), so
 * that each column's loop handles one type, which V8 compiles to plain stores; a loop over a row's cells instead
 * calls another writer for every cell, a call it cannot inline. For the same reason every type below has a loop of
 * its own: one loop shared by all, calling a store per type, would be that call again. */
interface ColumnWriter {
  /** The bytes every cell takes, its length word included, when all take the same (fixed width, no NULLs). */
  width: number | null;
  /** Adds the bytes of row i's cell to sizes[i - from], for rows [from, to). Called (where width is null) for a
   * block before its write. */
  measure(from: number, to: number, sizes: Uint32Array): void;
  /** Writes row i's cell at at[i - from], for rows [from, to), and moves at[i - from] past it. */
  write(out: Bytes, from: number, to: number, at: Cursor): void;
}

/** Rows measured and written at once: enough that each column's loop runs long, few enough that the block's bytes
 * stay in the processor's caches while every column visits them. */
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
  const sizes = new Uint32Array(BLOCK_ROWS);
  const at: Cursor = new Uint32Array(BLOCK_ROWS);
  for (const batch of batches) {
    const columns = fields.map((field, c) => columnWriter(batch.data.children[c], field));
    const measured = columns.filter((column) => column.width === null);
    // The field count and the cells of one width take the same bytes in every row.
    const fixed = columns.reduce((bytes, column) => bytes + (column.width ?? 0), 2);
    for (let from = 0; from < batch.numRows; from += BLOCK_ROWS) {
      const to = Math.min(batch.numRows, from + BLOCK_ROWS);
      const rows = to - from;
      sizes.fill(fixed, 0, rows);
      for (const column of measured) column.measure(from, to, sizes);
      let bytes = 0;
      for (let k = 0; k < rows; k++) bytes += sizes[k];
      out.ensure(bytes);
      const view = out.view;
      let pos = out.pos;
      for (let k = 0; k < rows; k++) {
        view.setUint16(pos, count);
        at[k] = pos + 2;
        pos += sizes[k];
      }
      for (const column of columns) column.write(out, from, to, at);
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

/** The column's writer. A NULL is a length word of -1 alone: the column's NULL cells are written first, and its
 * values' loop passes over their rows. */
function columnWriter(data: Data, field: StructField): ColumnWriter {
  if (data.type.typeId === Type.Null) {
    const all = isNullAt(data);
    return { width: 4, measure: () => undefined, write: ({ view }, from, to, at) => writeNulls(view, from, to, at, all) };
  }
  const nulls = data.nullCount === 0 ? null : isNullAt(data);
  const values = valueWriter(data, valueKind(field), nulls);
  if (nulls === null) return values;
  return {
    ...values,
    write: (out, from, to, at) => {
      writeNulls(out.view, from, to, at, nulls);
      values.write(out, from, to, at);
    },
  };
}

function writeNulls(view: DataView, from: number, to: number, at: Cursor, nulls: RowReader<boolean>): void {
  for (let i = from; i < to; i++) {
    if (!nulls(i)) continue;
    view.setInt32(at[i - from], -1);
    at[i - from] += 4;
  }
}

function valueWriter(data: Data, kind: ValueKind, nulls: Nulls): ColumnWriter {
  switch (kind) {
    case 'smallint':
      return smallintWriter(data, nulls);
    case 'integer':
    case 'real':
      return word32Writer(data, nulls);
    case 'bigint':
    case 'double':
      return word64Writer(data, nulls);
    case 'decimal':
      return numericWriter(data, nulls);
    case 'string':
    case 'binary':
      return bytesWriter(data, null, nulls);
    case 'date':
      return dateWriter(data, nulls);
    case 'timestamp':
    case 'timestamp_ntz':
      return timestampWriter(data, nulls);
    case 'boolean':
      return booleanWriter(data, nulls);
    case 'json':
      return data.type.typeId === Type.Utf8 ? bytesWriter(data, JSONB_VERSION, nulls) : nestedJsonWriter(data, nulls);
    default:
      return kind satisfies never;
  }
}

/** Cells of one width, its length word included; with NULLs among them (4 bytes each) they are measured. */
function fixedWidth(width: number, nulls: Nulls): Pick<ColumnWriter, 'width' | 'measure'> {
  if (nulls === null) return { width, measure: () => undefined };
  return {
    width: null,
    measure: (from, to, sizes) => {
      for (let i = from; i < to; i++) sizes[i - from] += nulls(i) ? 4 : width;
    },
  };
}

/** The values' buffer as unsigned words of `Words`' width (integers and IEEE floats are sent as their own bits). */
function wordsOf<T>(data: Data, Words: new (buffer: ArrayBufferLike, byteOffset: number, length: number) => T, width: number): T {
  const values = data.values as { buffer: ArrayBufferLike; byteOffset: number; byteLength: number };
  return new Words(values.buffer, values.byteOffset, values.byteLength / width);
}

/** 16-bit integers, and bytes widened to them: a value's low 16 bits, as setInt16 keeps them. */
function smallintWriter(data: Data, nulls: Nulls): ColumnWriter {
  const values = data.values as Int8Array | Int16Array;
  return {
    ...fixedWidth(6, nulls),
    write: ({ view }, from, to, at) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
        const pos = at[i - from];
        view.setInt32(pos, 2);
        view.setInt16(pos + 4, values[i]);
        at[i - from] = pos + 6;
      }
    },
  };
}

/** 32-bit integers and floats. */
function word32Writer(data: Data, nulls: Nulls): ColumnWriter {
  const words = wordsOf(data, Uint32Array, 4);
  return {
    ...fixedWidth(8, nulls),
    write: ({ view }, from, to, at) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
        const pos = at[i - from];
        view.setInt32(pos, 4);
        view.setUint32(pos + 4, words[i]);
        at[i - from] = pos + 8;
      }
    },
  };
}

/** 64-bit integers and doubles: the high word first (Arrow buffers are little-endian). */
function word64Writer(data: Data, nulls: Nulls): ColumnWriter {
  const words = wordsOf(data, Uint32Array, 4);
  return {
    ...fixedWidth(12, nulls),
    write: ({ view }, from, to, at) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
        const pos = at[i - from];
        view.setInt32(pos, 8);
        view.setUint32(pos + 4, words[2 * i + 1]);
        view.setUint32(pos + 8, words[2 * i]);
        at[i - from] = pos + 12;
      }
    },
  };
}

function booleanWriter(data: Data, nulls: Nulls): ColumnWriter {
  const bit = booleanReader(data);
  return {
    ...fixedWidth(5, nulls),
    write: ({ view }, from, to, at) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
        const pos = at[i - from];
        view.setInt32(pos, 1);
        view.setUint8(pos + 4, bit(i) ? 1 : 0);
        at[i - from] = pos + 5;
      }
    },
  };
}

/** Days since 2000-01-01. A shift that would leave int32 (far outside PostgreSQL's dates) becomes a value the
 * server refuses as out of range, never its -infinity (INT32_MIN). */
function dateWriter(data: Data, nulls: Nulls): ColumnWriter {
  const days = data.values as Int32Array;
  return {
    ...fixedWidth(8, nulls),
    write: ({ view }, from, to, at) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
        const pos = at[i - from];
        view.setInt32(pos, 4);
        view.setInt32(pos + 4, Math.max(days[i] - PG_EPOCH_DAYS, -0x7fffffff));
        at[i - from] = pos + 8;
      }
    },
  };
}

/** Microseconds since 2000-01-01, subtracted word by word (no BigInt). A shift below int64 (far outside
 * PostgreSQL's timestamps) becomes INT64_MIN + 1, which the server refuses as out of range, never its -infinity. */
function timestampWriter(data: Data, nulls: Nulls): ColumnWriter {
  const low = wordsOf(data, Uint32Array, 4);
  const high = wordsOf(data, Int32Array, 4);
  return {
    ...fixedWidth(12, nulls),
    write: ({ view }, from, to, at) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
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
        const pos = at[i - from];
        view.setInt32(pos, 8);
        view.setInt32(pos + 4, h);
        view.setUint32(pos + 8, l);
        at[i - from] = pos + 12;
      }
    },
  };
}

/** numeric_recv's form: digit count, weight (power of 10,000 of the first digit), sign, display scale, then the
 * base-10,000 digits, most significant first, grouped from the decimal point; zero groups at the end are left out.
 * A cell's size depends on its digits, so a block's cells are encoded when measured, into `cells`, and copied out
 * when written. */
function numericWriter(data: Data, nulls: Nulls): ColumnWriter {
  const type = data.type as Decimal;
  const words = data.values as Uint32Array;
  const stride = type.bitWidth / 32;
  const { scale } = type;
  // The unscaled integer's lowest group holds (4 - pad) of its digits and `pad` zeros, so that groups meet at the point.
  const pad = (4 - (scale % 4)) % 4;
  const fractionGroups = (scale + pad) / 4;
  const firstDivisor = 10 ** (4 - pad);
  const firstFactor = 10 ** pad;
  const firstDivisorBig = BigInt(firstDivisor);
  const groups = new Uint16Array(MAX_NUMERIC_DIGITS);
  // Per row of the block: the four header words, then the digits.
  const cellWords = 4 + MAX_NUMERIC_DIGITS;
  const cells = new Uint16Array(BLOCK_ROWS * cellWords);
  const encode = (i: number, cell: number): number => {
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
    cells[cell] = digits;
    // The weight is signed; the stores below keep its 16 bits.
    cells[cell + 1] = digits === 0 ? 0 : n - 1 - fractionGroups;
    cells[cell + 2] = negative && digits > 0 ? NUMERIC_NEG : 0;
    cells[cell + 3] = scale;
    for (let k = n - 1, d = cell + 4; k >= lowest; k--, d++) cells[d] = groups[k];
    return digits;
  };
  return {
    width: null,
    measure: (from, to, sizes) => {
      for (let i = from; i < to; i++) sizes[i - from] += nulls?.(i) ? 4 : 12 + 2 * encode(i, (i - from) * cellWords);
    },
    write: ({ view }, from, to, at) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
        const cell = (i - from) * cellWords;
        const end = cell + 4 + cells[cell];
        let pos = at[i - from];
        view.setInt32(pos, 8 + 2 * cells[cell]);
        for (let w = cell, p = pos + 4; w < end; w++, p += 2) view.setUint16(p, cells[w]);
        pos += 4 + 2 * (end - cell);
        at[i - from] = pos;
      }
    },
  };
}

/** Text, bytea and JSON text cells: their bytes as Arrow holds them, after jsonb's version byte when given. */
function bytesWriter(data: Data, prefix: number | null, nulls: Nulls): ColumnWriter {
  const source = bytesOf(data.values as Uint8Array);
  const offsets = data.valueOffsets as Int32Array;
  const header = prefix === null ? 4 : 5;
  return {
    width: null,
    measure: (from, to, sizes) => {
      for (let i = from; i < to; i++) sizes[i - from] += nulls?.(i) ? 4 : header + offsets[i + 1] - offsets[i];
    },
    write: (out, from, to, at) => {
      const view = out.view;
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
        const start = offsets[i];
        const end = offsets[i + 1];
        const pos = at[i - from];
        view.setInt32(pos, header - 4 + end - start);
        if (prefix !== null) view.setUint8(pos + 4, prefix);
        at[i - from] = putBytes(out, pos + header, source, start, end);
      }
    },
  };
}

/** Structs, arrays and maps as jsonb: the same JSON text the text COPY sends, made when the block is measured. */
function nestedJsonWriter(data: Data, nulls: Nulls): ColumnWriter {
  const read = jsonReader(data);
  const texts: string[] = [];
  return {
    width: null,
    measure: (from, to, sizes) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) {
          sizes[i - from] += 4;
          continue;
        }
        texts[i - from] = JSON.stringify(read(i));
        sizes[i - from] += 5 + Buffer.byteLength(texts[i - from]);
      }
    },
    write: (out, from, to, at) => {
      for (let i = from; i < to; i++) {
        if (nulls?.(i)) continue;
        const pos = at[i - from];
        const length = 1 + out.buf.write(texts[i - from], pos + 5);
        out.view.setInt32(pos, length);
        out.view.setUint8(pos + 4, JSONB_VERSION);
        at[i - from] = pos + 4 + length;
      }
    },
  };
}
