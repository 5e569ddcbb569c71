// Arrow batches as PostgreSQL COPY text (tab-separated, \N for null, backslash escapes), written byte by byte into
// large buffers straight from the Arrow columns: string cells are copied from the column's UTF-8 bytes and integers
// are written as digits, so the common columns never become JS strings and no row objects exist.
import { Type, type Data, type Int, type RecordBatch, type Timestamp } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { formatDays } from '../../shared/timestamp.js';
import { int64Reader } from '../values/int64.js';
import { tickSplitter } from '../values/time-text.js';
import { isNullAt, mayNeedCopyEscape, pgTextReader } from './column-values.js';
import { valueKind } from './sql-types.js';

// Small enough that the server starts on a transaction's first rows while the rest are still being encoded (1 MiB
// chunks left it idle until a 5,000-row transaction was fully encoded: COVID-19_NYT ran at 193k rows/s, at 64 KiB 266k).
const CHUNK_BYTES = 1 << 16;
const TAB = 0x09;
const NEWLINE = 0x0a;
const CR = 0x0d;
const BACKSLASH = 0x5c;
const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function escapeCopy(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ESCAPES[c]) : text;
}

/** The output buffer being filled. A chunk handed out is owned by the COPY stream until sent, so the next one is
 * written into a fresh buffer; that costs one allocation per chunk, not one per batch. */
class Output {
  buf = Buffer.allocUnsafe(CHUNK_BYTES * 2);
  pos = 0;

  ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  take(): Buffer {
    const chunk = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES * 2);
    this.pos = 0;
    return chunk;
  }
}

type CellWriter = (out: Output, i: number) => void;

/** COPY text of the batches' rows, in chunks of about CHUNK_BYTES (a batch may hold only a few rows). */
export function* copyTextChunks(batches: RecordBatch[], fields: StructField[]): Generator<Buffer> {
  const out = new Output();
  for (const batch of batches) {
    const columns = fields.map((field, c) => ({ isNull: isNullAt(batch.data.children[c]), write: cellWriter(batch.data.children[c], field) }));
    const width = columns.length;
    for (let i = 0; i < batch.numRows; i++) {
      for (let c = 0; c < width; c++) {
        out.ensure(3);
        if (c > 0) out.buf[out.pos++] = TAB;
        const { isNull, write } = columns[c];
        if (isNull(i)) {
          out.buf[out.pos++] = BACKSLASH;
          out.buf[out.pos++] = 0x4e; // N
        } else {
          write(out, i);
        }
      }
      out.ensure(1);
      out.buf[out.pos++] = NEWLINE;
      if (out.pos >= CHUNK_BYTES) yield out.take();
    }
  }
  if (out.pos > 0) yield out.take();
}

function cellWriter(data: Data, field: StructField): CellWriter {
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
  if ((kind === 'timestamp' || kind === 'timestamp_ntz') && data.type.typeId === Type.Timestamp) {
    return timestampWriter(data, (data.type as Timestamp).unit, kind === 'timestamp');
  }
  if (kind === 'boolean' && data.type.typeId === Type.Bool) {
    const bits = data.values as Uint8Array;
    const offset = data.offset;
    return (out, i) => {
      const at = offset + i;
      out.buf[out.pos++] = (bits[at >> 3] >> (at & 7)) & 1 ? 0x74 : 0x66; // t, f
    };
  }
  const read = pgTextReader(data, field);
  if (mayNeedCopyEscape(field)) return (out, i) => writeText(out, escapeCopy(read(i)));
  return (out, i) => writeText(out, read(i));
}

/** The bytes of time-text.ts's timestampFormatter, written without making a string: the date text is kept while
 * rows share a day, the time of day and the fraction are written as digits. */
function timestampWriter(data: Data, unit: number, utc: boolean): CellWriter {
  const read = int64Reader(data.values as BigInt64Array);
  const { digits, split } = tickSplitter(unit);
  let lastDays = Number.NaN;
  let dateText = '';
  return (out, i) => {
    const { days, seconds, fraction } = split(read(i));
    if (days !== lastDays) {
      lastDays = days;
      dateText = formatDays(days);
    }
    writeText(out, dateText);
    out.ensure(digits + 11);
    const buf = out.buf;
    let pos = out.pos;
    buf[pos++] = 0x54; // T
    pos = writeDigits(buf, pos, Math.floor(seconds / 3600), 2);
    buf[pos++] = 0x3a;
    pos = writeDigits(buf, pos, Math.floor((seconds % 3600) / 60), 2);
    buf[pos++] = 0x3a;
    pos = writeDigits(buf, pos, seconds % 60, 2);
    if (digits > 0) {
      buf[pos++] = 0x2e;
      pos = writeDigits(buf, pos, fraction, digits);
    }
    if (utc) buf[pos++] = 0x5a; // Z
    out.pos = pos;
  };
}

/** A non-negative integer below 10^width as exactly `width` digits; returns the position after them. */
function writeDigits(buf: Buffer, pos: number, value: number, width: number): number {
  let v = value;
  for (let k = pos + width - 1; k >= pos; k--) {
    const next = Math.floor(v / 10);
    buf[k] = 0x30 + (v - next * 10);
    v = next;
  }
  return pos + width;
}

/** Copies the cell's UTF-8 bytes, escaping the four bytes COPY text gives a meaning to. */
function utf8Writer(data: Data): CellWriter {
  const bytes = data.values as Uint8Array;
  const offsets = data.valueOffsets as Int32Array;
  return (out, i) => {
    const start = offsets[i];
    const end = offsets[i + 1];
    out.ensure((end - start) * 2);
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
function writeInteger(out: Output, value: number): void {
  out.ensure(17);
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
function writeText(out: Output, text: string): void {
  out.ensure(text.length * 3);
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
