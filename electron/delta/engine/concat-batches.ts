// Joins small record batches of one schema into one, copying their rows. A scan over deletion vectors yields a
// batch per run of kept rows, often a few rows each; sent one by one to another thread, the per-message cost of
// Arrow IPC would exceed the cost of the rows. Flat columns only: a schema with nested columns returns null.
import { makeData, RecordBatch, Struct, Type, type Data, type DataType, type Schema } from 'apache-arrow';
import { booleanReader, int32Offsets, validity, valueBytes } from './arrow-buffers.js';

const FIXED_WIDTH = new Set<Type>([
  Type.Int,
  Type.Float,
  Type.Date,
  Type.Timestamp,
  Type.Time,
  Type.Decimal,
  Type.Duration,
  Type.Interval,
  Type.FixedSizeBinary,
]);

/** Whether batches of this schema can be joined (flat columns only). */
export function canConcat(schema: Schema): boolean {
  return schema.fields.every(
    (f) => FIXED_WIDTH.has(f.typeId) || f.typeId === Type.Bool || f.typeId === Type.Utf8 || f.typeId === Type.Binary,
  );
}

export function concatBatches(batches: RecordBatch[]): RecordBatch | null {
  const schema = batches[0].schema;
  if (!canConcat(schema)) return null;
  const length = batches.reduce((n, b) => n + b.numRows, 0);
  const children = schema.fields.map((f, c) =>
    concatColumn(
      f.type,
      batches.map((b) => ({ data: b.data.children[c], from: 0, length: b.numRows })),
      length,
    ),
  );
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}

/** The batch's rows in buffers of their own, for a batch held past the point where the scan decodes its next rows
 * into the same buffers (ScanOptions.reuseBuffers); as it is where its columns cannot be copied, which no scan then
 * reuses buffers for (scan-plan.ts). */
export function heldCopy(batch: RecordBatch): RecordBatch {
  return concatBatches([batch]) ?? batch;
}

/** Rows [from, from + length) of a column chunk. */
export interface ColumnRun {
  data: Data;
  from: number;
  length: number;
}

/** The runs' rows copied together into one chunk of `length` rows, runs in order; a flat type (canConcat). Runs are
 * read in place: a scan's deletion vector cuts a decoded piece into thousands of them, and a slice of each (a Data
 * per run and column) would cost more than copying its rows. Runs of one chunk share its buffers' views. */
export function concatColumn(type: DataType, runs: ColumnRun[], length: number): Data {
  const [valid, validCount] = runs.some((r) => r.data.nullCount > 0) ? bits(runs, length, validity) : [undefined, length];
  const nullCount = length - validCount;
  const nullBitmap = nullCount > 0 ? valid : undefined;
  if (type.typeId === Type.Bool) {
    const [data] = bits(runs, length, booleanReader);
    return makeData({ type, length, nullCount, nullBitmap, data } as never);
  }
  const buffersOf = viewsByChunk();
  if (type.typeId === Type.Utf8 || type.typeId === Type.Binary) {
    const valueOffsets = new Int32Array(length + 1);
    let byteLength = 0;
    for (const r of runs) {
      const { offsets } = buffersOf(r.data);
      byteLength += offsets[r.from + r.length] - offsets[r.from];
    }
    const data = new Uint8Array(byteLength);
    let row = 0;
    let at = 0;
    for (const r of runs) {
      const { offsets, bytes } = buffersOf(r.data);
      const shift = offsets[r.from] - at;
      for (let i = r.from + 1; i <= r.from + r.length; i++) valueOffsets[++row] = offsets[i] - shift;
      at = copyRange(bytes, offsets[r.from], offsets[r.from + r.length], data, at);
    }
    return makeData({ type, length, nullCount, nullBitmap, valueOffsets, data } as never);
  }
  // Fixed-width values are copied as bytes (as 32-bit words where aligned): no value passes through JavaScript, so a
  // 64-bit integer makes no BigInt and a NaN keeps its bits.
  const { values, stride } = runs[0].data as Data & { values: Int32Array };
  const width = values.BYTES_PER_ELEMENT * stride;
  const data = new (values.constructor as new (n: number) => Int32Array)(length * stride);
  const bytes = new Uint8Array(data.buffer);
  const words = width % 4 === 0 ? new Int32Array(data.buffer) : null;
  let at = 0;
  for (const r of runs) {
    const source = buffersOf(r.data);
    const start = source.start + r.from * width;
    const end = start + r.length * width;
    if (words && source.words && start % 4 === 0) copyRange(source.words, start / 4, end / 4, words, at / 4);
    else copyRange(source.all, start, end, bytes, at);
    at += end - start;
  }
  return makeData({ type, length, nullCount, nullBitmap, data } as never);
}

/** Views of a chunk's buffers: its offsets and value bytes (strings), and its values' whole buffer as bytes and,
 * where aligned, 32-bit words, from the byte where the values start (`start`). */
interface ChunkViews {
  offsets: Int32Array;
  bytes: Uint8Array;
  all: Uint8Array;
  words: Int32Array | null;
  start: number;
}

/** The views of each chunk, made once however many runs it has. */
function viewsByChunk(): (data: Data) => ChunkViews {
  const made = new Map<Data, ChunkViews>();
  return (data) => {
    let views = made.get(data);
    if (!views) {
      const values = data.values as ArrayBufferView;
      const strings = data.typeId === Type.Utf8 || data.typeId === Type.Binary;
      views = {
        offsets: strings ? int32Offsets(data) : new Int32Array(0),
        bytes: strings ? valueBytes(data) : new Uint8Array(0),
        all: new Uint8Array(values.buffer),
        words: values.buffer.byteLength % 4 === 0 ? new Int32Array(values.buffer) : null,
        start: values.byteOffset,
      };
      made.set(data, views);
    }
    return views;
  };
}

/** Elements up to which a loop copies faster than a native call. Measured on Node 22: TypedArray.set with its
 * subarray ~55 ns a call whatever the length, the loop ~1.3 ns an element (16 ns for the 9 rows of a run between
 * deletions of every tenth row). */
const SHORT_RUN = 40;

/** Copies source[start, end) to target at `at`; returns where the copy ends in target. */
function copyRange<T extends Int32Array | Uint8Array>(source: T, start: number, end: number, target: T, at: number): number {
  if (end - start > SHORT_RUN) {
    target.set(source.subarray(start, end), at);
    return at + end - start;
  }
  for (let k = start; k < end; k++) target[at++] = source[k];
  return at;
}

/** A bitmap of `length` bits, LSB first, set where the run's reader (made by `bitsOf`) says so, runs in order; and
 * how many are set. Runs of one chunk share its reader. */
function bits(runs: ColumnRun[], length: number, bitsOf: (data: Data) => (row: number) => boolean): [Uint8Array, number] {
  const out = new Uint8Array((length + 7) >> 3);
  let row = 0;
  let set = 0;
  let data: Data | null = null;
  let test = (_row: number) => false;
  for (const r of runs) {
    if (r.data !== data) {
      data = r.data;
      test = bitsOf(data);
    }
    for (let i = r.from; i < r.from + r.length; i++, row++) {
      if (test(i)) {
        out[row >> 3] |= 1 << (row & 7);
        set++;
      }
    }
  }
  return [out, set];
}

/** The batches regrouped into as few as possible of up to `maxRows` rows each (a larger batch stays as it is); only
 * batches of the same schema are joined. */
export function joinBatches(batches: RecordBatch[], maxRows: number): RecordBatch[] {
  const out: RecordBatch[] = [];
  let group: RecordBatch[] = [];
  let rows = 0;
  const flush = () => {
    const joined = group.length > 1 ? concatBatches(group) : null;
    out.push(...(joined ? [joined] : group));
    group = [];
    rows = 0;
  };
  for (const batch of batches) {
    if (rows + batch.numRows > maxRows || (group.length > 0 && !sameSchema(group[0].schema, batch.schema))) flush();
    group.push(batch);
    rows += batch.numRows;
  }
  flush();
  return out;
}

/** Batches of one stream share their schema object, but those read back from IPC have one each. */
function sameSchema(a: Schema, b: Schema): boolean {
  if (a === b) return true;
  if (a.fields.length !== b.fields.length) return false;
  return a.fields.every(
    (f, k) => f.name === b.fields[k].name && f.nullable === b.fields[k].nullable && String(f.type) === String(b.fields[k].type),
  );
}
