// INT96 timestamps (Spark, Impala, Hive: a Julian day and the nanoseconds of that day) decoded straight to
// microseconds. parquet-wasm decodes them to int64 nanoseconds, which wrap outside 1677-09-21..2262-04-11 (Spark
// writes 9999-12-31 for "no end"; year 1000 came out as 2169), and nothing in the wrapped value says by how much.
// So a file's top-level INT96 columns are decoded a second time, by hyparquet, which reads the raw 12 bytes; the
// rest of the file still goes through parquet-wasm. Files without INT96 cost nothing: only a file whose Arrow schema
// has a nanosecond timestamp has its footer read here.
import * as arrow from 'apache-arrow';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { buildData } from './arrow-data.js';

export interface Int96Columns {
  /** Top-level columns stored as INT96. */
  readonly names: ReadonlySet<string>;
  /** Microseconds of the given columns over the rows [from, to) of the ranges, one after the other. */
  read(columns: string[], ranges: [number, number][]): Promise<Map<string, Micros>>;
}

/** One column's values; `valid[i]` is 0 for a null. */
export interface Micros {
  values: BigInt64Array;
  valid: Uint8Array;
}

/** Rows [at, at + length) of decoded microseconds as a fresh Arrow column (offset 0, as normalize.ts expects). */
export function microsData(micros: Micros, at: number, length: number, timezone: string | null): arrow.Data<arrow.Timestamp> {
  const validity = new Uint8Array(Math.ceil(length / 8));
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    if (micros.valid[at + i]) validity[i >> 3] |= 1 << (i & 7);
    else nulls++;
  }
  const type = new arrow.Timestamp(arrow.TimeUnit.MICROSECOND, timezone);
  return buildData(type, length, nulls, { values: micros.values.subarray(at, at + length), validity });
}

export async function int96Columns(path: string, schema: arrow.Schema): Promise<Int96Columns | null> {
  const nanos = schema.fields.filter((f) => arrow.DataType.isTimestamp(f.type) && f.type.unit === arrow.TimeUnit.NANOSECOND);
  if (nanos.length === 0) return null;
  // Loaded here, not at start: most tables never need it, and a cold `deltaport preview` should not pay for it.
  const { asyncBufferFromFile, parquetMetadataAsync } = await import('hyparquet');
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const names = topLevelInt96(metadata);
  if (names.size === 0) return null;
  return { names, read: (columns, ranges) => readMicros(file, metadata, columns, ranges) };
}

/** The root's direct children that are INT96 leaves (the schema is flat, depth-first, in the footer). */
function topLevelInt96(metadata: FileMetaData): Set<string> {
  const names = new Set<string>();
  const elements = metadata.schema;
  let at = 1;
  for (let child = 0; child < (elements[0].num_children ?? 0); child++) {
    const element = elements[at];
    if (!element.num_children && element.type === 'INT96') names.add(element.name);
    at = skipSubtree(elements, at);
  }
  return names;
}

function skipSubtree(elements: FileMetaData['schema'], at: number): number {
  let next = at + 1;
  for (let k = 0; k < (elements[at].num_children ?? 0); k++) next = skipSubtree(elements, next);
  return next;
}

async function readMicros(
  file: AsyncBuffer,
  metadata: FileMetaData,
  columns: string[],
  ranges: [number, number][],
): Promise<Map<string, Micros>> {
  const [{ parquetRead }, { compressors }] = await Promise.all([import('hyparquet'), import('hyparquet-compressors')]);
  const total = ranges.reduce((n, [from, to]) => n + to - from, 0);
  const decoded = columns.map((): Micros => ({ values: new BigInt64Array(total), valid: new Uint8Array(total) }));
  let at = 0;
  for (const [rowStart, rowEnd] of ranges) {
    let rows: unknown[][] = [];
    await parquetRead({
      file,
      metadata,
      columns,
      rowStart,
      rowEnd,
      compressors,
      // hyparquet hands over the exact nanoseconds since the epoch as a bigint (day - 2440588) * 86400e9 + nanos.
      parsers: { timestampFromNanoseconds: (ns: bigint) => ns },
      onComplete: (decoded) => (rows = decoded),
    });
    for (const row of rows) {
      columns.forEach((_, c) => {
        const ns = row[c];
        if (typeof ns !== 'bigint') return;
        decoded[c].values[at] = floorDiv(ns, 1000n);
        decoded[c].valid[at] = 1;
      });
      at++;
    }
  }
  return new Map(columns.map((name, c) => [name, decoded[c]]));
}

function floorDiv(v: bigint, d: bigint): bigint {
  const q = v / d;
  return v % d < 0n ? q - 1n : q;
}
