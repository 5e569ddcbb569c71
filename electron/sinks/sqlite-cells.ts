// One column of an Arrow batch as the cells of SQLite records (the file format's record format): per row a serial
// type and the bytes of the value, as SQLite stores what binding sqliteReader's value (column-values.ts) would give
// under the target column's affinity. The scan's layouts (arrow-types.ts) are read straight from their buffers:
// integers and floats from their words, text and BLOBs as their bytes, timestamps as the bytes of their text, so
// that no JS value is made per cell; other layouts go through sqliteReader.
import { isUtf8 } from 'node:buffer';
import { Type, type Data } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import { bitAt, int32Offsets, isNullAt, valueBytes } from '../delta/engine/arrow-buffers.js';
import { MAX_TIMESTAMP_BYTES } from '../values/time-text.js';
import { NAN_TEXT, sqliteReader, timestampBytes } from './column-values.js';
import { bytesOf, putBytes } from './bytes.js';
import { valueKind } from './sql-types.js';

/** Serial types of the fixed-size values: NULL, integers of 1, 2, 3, 4, 6 and 8 bytes, a float, the integers 0 and 1. */
const NULL = 0;
const INT48 = 5;
const INT64 = 6;
const FLOAT = 7;
const ZERO = 8;
const FIXED_BYTES = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];
const NAN_SERIAL = 13 + 2 * NAN_TEXT.length;
const NAN_BYTES = Buffer.from(NAN_TEXT, 'latin1');
/** SQLite's default bound on a string or BLOB (SQLITE_MAX_LENGTH), which binding enforces and copied records
 * would not. */
const MAX_LENGTH = 1_000_000_000;
const TWO_32 = 4_294_967_296;
const TWO_63 = 2 ** 63;

/** Per record of a transaction: the bytes of its values, and how many bytes its serial types take beyond one each
 * (long texts' and BLOBs' do). */
export interface RecordSizes {
  bodies: Float64Array;
  extras: Int32Array;
}

/** SQLite's varint: big-endian groups of 7 bits, the high bit set on all but the last byte (values below 2^56 here). */
export function varintLength(v: number): number {
  let n = 1;
  for (let x = v; x >= 0x80; x = Math.floor(x / 0x80)) n++;
  return n;
}

/** One layout's serial types and values. Every kind has loops of its own, each over typed arrays only: these run
 * per cell, and a loop shared through callbacks would call a different function for every column. */
interface Cells {
  /** The serial type of each row, as if none were NULL. */
  serialTypes(into: Float64Array): void;
  /** Writes each row's value that is not NULL at out[cursor[first + r]] and moves that cursor past it. */
  bodies(out: Buffer, cursor: Int32Array, first: number, nulls: Uint8Array | null): void;
}

/** Hands out scratch bytes that live until the transaction's image is written. */
export type Scratch = (size: number) => Buffer;

/** Serial types of one column's rows before NULLs and lengths are checked (a text's can exceed 32 bits). */
let rowSerials = new Float64Array(0);

/** A column's rows [0, rows) of one batch; row r of the batch is record `first + r` of the transaction. */
export class CellColumn {
  private readonly nulls: Uint8Array | null;
  private readonly rows: number;

  constructor(
    data: Data,
    private readonly field: StructField,
    private readonly cells: Cells,
  ) {
    this.rows = data.length;
    this.nulls = nullRows(data);
  }

  /** Writes each row's serial type to serials[(first + r) * stride + column] and counts it into `sizes`; returns
   * whether a row is NULL. */
  serials(serials: Int32Array, sizes: RecordSizes, first: number, stride: number, column: number): boolean {
    if (rowSerials.length < this.rows) rowSerials = new Float64Array(this.rows);
    const types = rowSerials;
    this.cells.serialTypes(types);
    const nulls = this.nulls;
    for (let r = 0, at = first * stride + column; r < this.rows; r++, at += stride) {
      const serial = nulls !== null && nulls[r] === 1 ? NULL : types[r];
      serials[at] = serial;
      if (serial < 12) sizes.bodies[first + r] += FIXED_BYTES[serial];
      else {
        const length = (serial - 12) >>> 1;
        if (length > MAX_LENGTH)
          throw new DeltaportError('SINK_WRITE', `a value of column "${this.field.name}" is too big for SQLite (${length} bytes)`);
        sizes.bodies[first + r] += length;
        if (serial >= 0x80) sizes.extras[first + r] += varintLength(serial) - 1;
      }
    }
    return nulls !== null;
  }

  bodies(out: Buffer, cursor: Int32Array, first: number): void {
    this.cells.bodies(out, cursor, first, this.nulls);
  }
}

/** 1 for each NULL row, or null when the column has none. */
function nullRows(data: Data): Uint8Array | null {
  if (data.typeId !== Type.Null && data.nullCount === 0) return null;
  const isNull = isNullAt(data);
  const nulls = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) if (isNull(i)) nulls[i] = 1;
  return nulls;
}

/** The cells of `data` for a target column whose affinity accepts the field's kind (sql-types.ts): numbers go to
 * INTEGER, REAL or NUMERIC affinity, which store a float holding an integer as that integer (REAL reads it back
 * as a float; -0.0 becomes 0, as a bound double always did); text goes to TEXT or none, BLOBs to none. */
export function cellColumn(data: Data, field: StructField, scratch: Scratch): CellColumn {
  return new CellColumn(data, field, cellsOf(data, field, scratch));
}

function cellsOf(data: Data, field: StructField, scratch: Scratch): Cells {
  const kind = valueKind(field);
  const values = data.values as unknown;
  switch (kind) {
    case 'boolean':
      return data.typeId === Type.Bool ? new BooleanCells(data) : new ReadCells(data, field);
    case 'smallint':
    case 'integer':
    case 'bigint':
      if (data.typeId !== Type.Int || values instanceof BigUint64Array) return new ReadCells(data, field);
      return values instanceof BigInt64Array ? new Int64Cells(values) : new IntCells(values as IntArray, data.length);
    case 'real':
    case 'double':
      return values instanceof Float64Array || values instanceof Float32Array
        ? new FloatCells(values, data.length)
        : new ReadCells(data, field);
    // Text and BLOBs.
    case 'decimal':
    case 'string':
    case 'binary':
    case 'date':
    case 'timestamp':
    case 'timestamp_ntz':
    case 'json':
      return new BytesCells(columnBytes(data, field, kind === 'binary', scratch), kind === 'binary', data.length);
    default:
      return kind satisfies never;
  }
}

class BooleanCells implements Cells {
  private readonly bits: Uint8Array;

  constructor(private readonly data: Data) {
    this.bits = data.values as Uint8Array;
  }

  serialTypes(into: Float64Array): void {
    for (let r = 0, offset = this.data.offset; r < this.data.length; r++) into[r] = bitAt(this.bits, offset + r) ? ZERO + 1 : ZERO;
  }

  bodies(): void {}
}

type IntArray = Int32Array | Int16Array | Int8Array | Uint8Array | Uint16Array | Uint32Array;

/** Integers of up to 32 bits. */
class IntCells implements Cells {
  constructor(
    private readonly values: IntArray,
    private readonly rows: number,
  ) {}

  serialTypes(into: Float64Array): void {
    for (let r = 0; r < this.rows; r++) into[r] = integerSerial(this.values[r]);
  }

  bodies(out: Buffer, cursor: Int32Array, first: number, nulls: Uint8Array | null): void {
    for (let r = 0; r < this.rows; r++) {
      if (nulls === null || nulls[r] === 0) cursor[first + r] = putInteger(out, cursor[first + r], this.values[r]);
    }
  }
}

/** 64-bit integers, from their two 32-bit halves: exact over the whole range without a BigInt. */
class Int64Cells implements Cells {
  private readonly low: Uint32Array;
  private readonly high: Int32Array;
  private readonly rows: number;

  constructor(words: BigInt64Array) {
    this.rows = words.length;
    this.low = new Uint32Array(words.buffer, words.byteOffset, 2 * words.length);
    this.high = new Int32Array(words.buffer, words.byteOffset, 2 * words.length);
  }

  private serialAt(r: number): number {
    const h = this.high[2 * r + 1];
    const l = this.low[2 * r];
    // A high half of 0 or -1 whose sign the low half repeats: a 32-bit value.
    if ((h === 0 && l < 0x80000000) || (h === -1 && l >= 0x80000000)) return integerSerial(h === 0 ? l : l - TWO_32);
    return h >= -0x8000 && h < 0x8000 ? INT48 : INT64;
  }

  serialTypes(into: Float64Array): void {
    for (let r = 0; r < this.rows; r++) into[r] = this.serialAt(r);
  }

  bodies(out: Buffer, cursor: Int32Array, first: number, nulls: Uint8Array | null): void {
    for (let r = 0; r < this.rows; r++) {
      if (nulls !== null && nulls[r] === 1) continue;
      const serial = this.serialAt(r);
      const pos = cursor[first + r];
      const l = this.low[2 * r];
      const h = this.high[2 * r + 1];
      if (serial !== INT48 && serial !== INT64) {
        cursor[first + r] = putInteger(out, pos, h === 0 ? l : l - TWO_32);
        continue;
      }
      const size = FIXED_BYTES[serial];
      putWord(out, pos + size - 4, l);
      if (size === 8) putWord(out, pos, h);
      else {
        out[pos] = (h >> 8) & 0xff;
        out[pos + 1] = h & 0xff;
      }
      cursor[first + r] = pos + size;
    }
  }
}

class FloatCells implements Cells {
  constructor(
    private readonly values: Float64Array | Float32Array,
    private readonly rows: number,
  ) {}

  serialTypes(into: Float64Array): void {
    for (let r = 0; r < this.rows; r++) into[r] = floatSerial(this.values[r]);
  }

  bodies(out: Buffer, cursor: Int32Array, first: number, nulls: Uint8Array | null): void {
    for (let r = 0; r < this.rows; r++) {
      if (nulls === null || nulls[r] === 0) cursor[first + r] = putFloat(out, cursor[first + r], this.values[r]);
    }
  }
}

/** Layouts other than the scan's: the values sqliteReader gives (numbers, bigints beyond 2^53, the NaN text). */
class ReadCells implements Cells {
  private readonly read: (i: number) => unknown;
  private readonly isNull: (i: number) => boolean;

  constructor(
    private readonly data: Data,
    field: StructField,
  ) {
    this.read = sqliteReader(data, field);
    this.isNull = isNullAt(data);
  }

  serialTypes(into: Float64Array): void {
    for (let r = 0; r < this.data.length; r++) {
      const v = this.isNull(r) ? null : this.read(r);
      into[r] = typeof v === 'number' ? floatSerial(v) : typeof v === 'bigint' ? bigintSerial(v) : v === null ? NULL : NAN_SERIAL;
    }
  }

  bodies(out: Buffer, cursor: Int32Array, first: number, nulls: Uint8Array | null): void {
    for (let r = 0; r < this.data.length; r++) {
      if (nulls !== null && nulls[r] === 1) continue;
      const v = this.read(r);
      const pos = cursor[first + r];
      cursor[first + r] =
        typeof v === 'number' ? putFloat(out, pos, v) : typeof v === 'bigint' ? out.writeBigInt64BE(v, pos) : putFloat(out, pos, NaN);
    }
  }
}

/** SQLite stores NaN as NULL, so it goes as text (column-values.ts); a float holding an integer goes as one. */
function floatSerial(v: number): number {
  if (v !== v) return NAN_SERIAL;
  if (Number.isSafeInteger(v)) return integerSerial(v);
  return Number.isInteger(v) && v > -TWO_63 && v < TWO_63 ? INT64 : FLOAT;
}

function putFloat(out: Buffer, pos: number, v: number): number {
  if (v !== v) return pos + NAN_BYTES.copy(out, pos);
  if (Number.isSafeInteger(v)) return putInteger(out, pos, v);
  if (Number.isInteger(v) && v > -TWO_63 && v < TWO_63) return out.writeBigInt64BE(BigInt(v), pos);
  return out.writeDoubleBE(v, pos);
}

/** The serial type of a safe integer: the fewest bytes that hold it, 0 and 1 without any. */
function integerSerial(v: number): number {
  if (v === 0 || v === 1) return ZERO + v;
  const u = v < 0 ? -v - 1 : v;
  if (u <= 0x7f) return 1;
  if (u <= 0x7fff) return 2;
  if (u <= 0x7fffff) return 3;
  if (u <= 0x7fffffff) return 4;
  if (u <= 0x7fffffffffff) return 5;
  return INT64;
}

function bigintSerial(v: bigint): number {
  if (BigInt.asIntN(64, v) !== v) throw new DeltaportError('SINK_WRITE', `the integer ${v} does not fit in SQLite's 64 bits`);
  return INT64;
}

/** Writes a safe integer big-endian in its serial type's bytes; returns the position after it. */
function putInteger(out: Buffer, pos: number, v: number): number {
  const size = FIXED_BYTES[integerSerial(v)];
  if (size <= 4) {
    for (let k = size - 1, x = v; k >= 0; k--, x >>= 8) out[pos + k] = x & 0xff;
    return pos + size;
  }
  const high = Math.floor(v / TWO_32);
  putWord(out, pos + size - 4, v - high * TWO_32);
  if (size === 8) putWord(out, pos, high);
  else {
    out[pos] = (high >> 8) & 0xff;
    out[pos + 1] = high & 0xff;
  }
  return pos + size;
}

/** The low 32 bits of `v`, big-endian. */
function putWord(out: Buffer, pos: number, v: number): void {
  out[pos] = (v >>> 24) & 0xff;
  out[pos + 1] = (v >>> 16) & 0xff;
  out[pos + 2] = (v >>> 8) & 0xff;
  out[pos + 3] = v & 0xff;
}

/** Text and BLOBs: each row's bytes. */
class BytesCells implements Cells {
  private readonly base: number;

  constructor(
    private readonly column: ColumnBytes,
    blob: boolean,
    private readonly rows: number,
  ) {
    this.base = blob ? 12 : 13;
  }

  serialTypes(into: Float64Array): void {
    const ends = this.column.ends;
    for (let r = 0; r < this.rows; r++) into[r] = this.base + 2 * (ends[r + 1] - ends[r]);
  }

  bodies(out: Buffer, cursor: Int32Array, first: number, nulls: Uint8Array | null): void {
    const { bytes, ends } = this.column;
    const from = bytesOf(bytes);
    const to = bytesOf(out);
    for (let r = 0; r < this.rows; r++) {
      if (nulls !== null && nulls[r] === 1) continue;
      cursor[first + r] = putBytes(to, cursor[first + r], from, ends[r], ends[r + 1]);
    }
  }
}

/** Row r's bytes are bytes[ends[r], ends[r + 1]) (what a null row spans is not read). */
interface ColumnBytes {
  bytes: Buffer;
  ends: Int32Array;
}

function columnBytes(data: Data, field: StructField, blob: boolean, scratch: Scratch): ColumnBytes {
  const id = data.typeId;
  if (id === Type.Utf8 || (blob && id === Type.Binary)) {
    const bytes = valueBytes(data);
    const ends = int32Offsets(data);
    // A bound string stores the UTF-8 of its text: bytes that are not UTF-8 go the way decoding them turns them.
    if (blob || isUtf8(bytes.subarray(ends[0], ends[data.length]))) return { bytes, ends };
  }
  const kind = valueKind(field);
  if (id === Type.Timestamp && (kind === 'timestamp' || kind === 'timestamp_ntz')) {
    return timestampBytes(data, kind === 'timestamp', scratch(data.length * MAX_TIMESTAMP_BYTES));
  }
  return encodedBytes(data, field, scratch);
}

/** The values sqliteReader gives, encoded one by one (kinds whose text is made per value anyway). */
function encodedBytes(data: Data, field: StructField, scratch: Scratch): ColumnBytes {
  const read = sqliteReader(data, field);
  const isNull = isNullAt(data);
  const values: (string | Buffer | null)[] = [];
  let size = 0;
  for (let i = 0; i < data.length; i++) {
    const v = isNull(i) ? null : (read(i) as string | Buffer);
    values.push(v);
    if (v !== null) size += typeof v === 'string' ? Buffer.byteLength(v) : v.length;
  }
  const bytes = scratch(size);
  const ends = new Int32Array(data.length + 1);
  let pos = 0;
  values.forEach((v, i) => {
    if (v !== null) pos += typeof v === 'string' ? bytes.write(v, pos) : v.copy(bytes, pos);
    ends[i + 1] = pos;
  });
  return { bytes, ends };
}
