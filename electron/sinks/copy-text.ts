// Arrow batches as PostgreSQL COPY text (tab-separated, \N for null, backslash escapes), written byte by byte into
// large buffers straight from the Arrow columns: string cells are copied from the column's UTF-8 bytes and integers
// are written as digits, so the common columns never become JS strings and no row objects exist. MySQL's LOAD DATA
// reads the same format by default; only booleans, binary values and a timestamp's zone are spelled otherwise there
// (TextFlavor).
import { Precision, Type, type Data, type Float, type Int, type RecordBatch, type Timestamp } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { int64Reader } from '../values/int64.js';
import { MAX_TIMESTAMP_BYTES, timestampByteWriter } from '../values/time-text.js';
import { booleanReader, int32Offsets, isNullAt, valueBytes } from '../delta/engine/arrow-buffers.js';
import { mayNeedCopyEscape, mysqlTextReader, pgTextReader } from './column-values.js';
import { bytesOf } from './bytes.js';
import { CHUNK_BYTES, CopyOutput } from './copy-output.js';
import { valueKind } from './sql-types.js';

const TAB = 0x09;
const NEWLINE = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** How the values that PostgreSQL's COPY and MySQL's LOAD DATA read differently are spelled. */
export interface TextFlavor {
  /** The bytes of true and false. */
  booleans: [number, number];
  /** PostgreSQL's bytea text (\\x and hex digits), or bare hex digits (MySQL's LOAD DATA unhexes them in its SET). */
  binary: 'bytea' | 'hex';
  /** Whether a `timestamp` (UTC) ends with Z: MySQL's DATETIME takes no zone and holds the UTC time. */
  utcZone: boolean;
}

export const PG_TEXT: TextFlavor = { booleans: [0x74, 0x66], binary: 'bytea', utcZone: true }; // t, f
export const MYSQL_TEXT: TextFlavor = { booleans: [0x31, 0x30], binary: 'hex', utcZone: false }; // 1, 0

export function escapeCopy(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ESCAPES[c]) : text;
}

/** Writes a cell and leaves room in the buffer for the separator after it. */
type CellWriter = (out: CopyOutput, i: number) => void;

/** The batches' rows, in chunks of at least CHUNK_BYTES; the rest of the last one stays in `out` for the rows that
 * follow (one stream may take many calls). */
export function* textCopyRows(
  batches: RecordBatch[],
  fields: StructField[],
  out: CopyOutput,
  flavor: TextFlavor = PG_TEXT,
): Generator<Buffer> {
  const last = fields.length - 1;
  for (const batch of batches) {
    const writers = fields.map((field, c) => cellWriter(batch.data.children[c], field, flavor));
    for (let i = 0; i < batch.numRows; i++) {
      for (let c = 0; c < last; c++) {
        writers[c](out, i);
        out.buf[out.pos++] = TAB;
      }
      writers[last](out, i);
      out.buf[out.pos++] = NEWLINE;
      if (out.pos - out.start >= CHUNK_BYTES) yield out.take();
    }
  }
}

/** The column's writer; null cells become \N, and a column without nulls skips the check. */
function cellWriter(data: Data, field: StructField, flavor: TextFlavor): CellWriter {
  const write = valueWriter(data, field, flavor);
  if (data.type.typeId !== Type.Null && data.nullCount === 0) return write;
  const isNull = isNullAt(data);
  return (out, i) => {
    if (isNull(i)) {
      out.ensure(3);
      out.buf[out.pos++] = BACKSLASH;
      out.buf[out.pos++] = 0x4e; // N
    } else {
      write(out, i);
    }
  };
}

function valueWriter(data: Data, field: StructField, flavor: TextFlavor): CellWriter {
  const kind = valueKind(field);
  if (kind === 'string' && data.type.typeId === Type.Utf8) return utf8Writer(data);
  if ((kind === 'smallint' || kind === 'integer') && data.type.typeId === Type.Int && (data.type as Int).bitWidth <= 32) {
    const values = data.values as Int32Array;
    return (out, i) => writeInteger(out, values[i]);
  }
  if (kind === 'bigint' && data.type.typeId === Type.Int) {
    const read = int64Reader(data.values as BigInt64Array);
    return (out, i) => {
      const v = read(i);
      if (typeof v === 'number') writeInteger(out, v);
      else writeText(out, v.toString());
    };
  }
  if (kind === 'double' && data.type.typeId === Type.Float && (data.type as Float).precision === Precision.DOUBLE) {
    const values = data.values as Float64Array;
    return (out, i) => writeDouble(out, values[i]);
  }
  if ((kind === 'timestamp' || kind === 'timestamp_ntz') && data.type.typeId === Type.Timestamp) {
    return timestampWriter(data, (data.type as Timestamp).unit, kind === 'timestamp' && flavor.utcZone);
  }
  if (kind === 'boolean' && data.type.typeId === Type.Bool) {
    const bit = booleanReader(data);
    const [yes, no] = flavor.booleans;
    return (out, i) => {
      out.ensure(2);
      out.buf[out.pos++] = bit(i) ? yes : no;
    };
  }
  const read = flavor === PG_TEXT ? pgTextReader(data, field) : mysqlTextReader(data, field);
  if (mayNeedCopyEscape(field)) return (out, i) => writeText(out, escapeCopy(read(i)));
  return (out, i) => writeText(out, read(i));
}

/** The bytes of time-text.ts's timestampFormatter, written without making a string. */
function timestampWriter(data: Data, unit: number, utc: boolean): CellWriter {
  const read = int64Reader(data.values as BigInt64Array);
  const write = timestampByteWriter(unit, utc);
  return (out, i) => {
    out.ensure(MAX_TIMESTAMP_BYTES);
    out.pos = write(out.buf, out.pos, read(i));
  };
}

/** Copies the cell's UTF-8 bytes, escaping the four bytes COPY text gives a meaning to; a column without any of
 * them (found by one native search per byte value) is copied without looking at each byte. */
function utf8Writer(data: Data): CellWriter {
  const bytes = valueBytes(data);
  const source = bytesOf(bytes);
  const offsets = int32Offsets(data);
  const used = bytes.subarray(offsets[0], offsets[data.length]);
  if (![BACKSLASH, TAB, NEWLINE, CR].some((b) => used.includes(b))) {
    return (out, i) => {
      const start = offsets[i];
      const end = offsets[i + 1];
      out.ensure(end - start + 1);
      out.put(source, start, end);
    };
  }
  return (out, i) => {
    const start = offsets[i];
    const end = offsets[i + 1];
    out.ensure((end - start) * 2 + 1);
    const buf = out.buf;
    let pos = out.pos;
    for (let k = start; k < end; k++) {
      const b = bytes[k];
      if (b === BACKSLASH || b === TAB || b === NEWLINE || b === CR) {
        buf[pos++] = BACKSLASH;
        buf[pos++] = b === BACKSLASH ? BACKSLASH : b === TAB ? 0x74 : b === NEWLINE ? 0x6e : 0x72;
      } else {
        buf[pos++] = b;
      }
    }
    out.pos = pos;
  };
}

/** Decimal digits of a safe integer, written without making a string. */
function writeInteger(out: CopyOutput, value: number): void {
  out.ensure(18);
  const buf = out.buf;
  let v = value;
  if (v < 0) {
    buf[out.pos++] = 0x2d;
    v = -v;
  }
  let digits = 1;
  for (let rest = v; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let pos = out.pos + digits;
  out.pos = pos;
  do {
    const next = Math.floor(v / 10);
    buf[--pos] = 0x30 + (v - next * 10);
    v = next;
  } while (v > 0);
}

/** Short ASCII text (numbers, times) is copied code unit by code unit: cheaper than a native call per cell. */
function writeText(out: CopyOutput, text: string): void {
  out.ensure(text.length * 3 + 1);
  const buf = out.buf;
  const start = out.pos;
  if (text.length <= 64) {
    let pos = start;
    for (let k = 0; k < text.length; k++) {
      const code = text.charCodeAt(k);
      if (code >= 0x80) {
        out.pos += buf.write(text, start);
        return;
      }
      buf[pos++] = code;
    }
    out.pos = pos;
    return;
  }
  out.pos += buf.write(text, start);
}

const POWERS_OF_TEN = Array.from({ length: 10 }, (_, d) => 10 ** d);

/** A double with up to 9 decimals (prices, measurements) is written as the digits of v * 10^d for the fewest d that
 * make it an exact integer S with S / 10^d === v: that decimal is exactly S / 10^d, and PostgreSQL reads decimals
 * correctly rounded, so it gets v back. String() finds the shortest text for any double, but at several times the
 * cost; the rest (NaN, infinities, many digits, large or tiny magnitudes) still go through it. */
function writeDouble(out: CopyOutput, v: number): void {
  if (Number.isSafeInteger(v)) {
    writeInteger(out, v);
    return;
  }
  const magnitude = Math.abs(v);
  // Below 1e-6 String() switches to exponent notation, which is shorter than the digits.
  if (magnitude < 2 ** 53 && magnitude >= 1e-6) {
    for (let d = 1; d < POWERS_OF_TEN.length; d++) {
      const scale = POWERS_OF_TEN[d];
      const scaled = magnitude * scale;
      if (scaled >= 2 ** 53) break;
      if (Number.isInteger(scaled) && scaled / scale === magnitude) {
        // The product can be exact one power of ten later than the text needs: 12.3 found as 1230 / 100.
        let decimals = d;
        let digits = scaled;
        while (digits % 10 === 0) {
          digits /= 10;
          decimals--;
        }
        writeDecimal(out, v < 0, digits, decimals);
        return;
      }
    }
  }
  writeText(out, String(v));
}

/** `scaled` (a safe integer) divided by 10^decimals, with all `decimals` digits after the point. */
function writeDecimal(out: CopyOutput, negative: boolean, scaled: number, decimals: number): void {
  out.ensure(21);
  const buf = out.buf;
  if (negative) buf[out.pos++] = 0x2d;
  let digits = 1;
  for (let rest = scaled; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  const integerDigits = Math.max(digits, decimals + 1) - decimals;
  const end = out.pos + integerDigits + 1 + decimals;
  let pos = end;
  let v = scaled;
  for (let k = 0; k < decimals; k++) {
    const next = Math.floor(v / 10);
    buf[--pos] = 0x30 + (v - next * 10);
    v = next;
  }
  buf[--pos] = 0x2e; // .
  do {
    const next = Math.floor(v / 10);
    buf[--pos] = 0x30 + (v - next * 10);
    v = next;
  } while (pos > out.pos);
  out.pos = end;
}
