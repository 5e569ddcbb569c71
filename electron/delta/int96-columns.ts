// INT96 timestamps (Spark, Impala, Hive: a Julian day and the nanoseconds of that day) decoded straight to
// microseconds. parquet-wasm decodes them to int64 nanoseconds, which wrap outside 1677-09-21..2262-04-11 (Spark
// writes 9999-12-31 for "no end"; year 1000 came out as 2169), and nothing in the wrapped value says by how much.
// So a file's INT96 columns (top-level, or inside structs) are decoded a second time, by hyparquet, which reads the
// raw 12 bytes, and put in place of parquet-wasm's; the rest of the file still goes through parquet-wasm. INT96
// inside lists or maps is left as parquet-wasm reads it. Files without INT96 cost nothing: only a file whose Arrow
// schema has a nanosecond timestamp has its footer read here.
import * as arrow from 'apache-arrow';
import type { AsyncBuffer, FileMetaData, SchemaElement } from 'hyparquet';
import { buildData } from './arrow-data.js';

export interface Int96Columns {
  /** Paths of the INT96 leaves, from a top-level column through structs. */
  readonly paths: readonly string[][];
  /** Microseconds of each path under the given top-level columns, over the rows of the ranges one after the other. */
  read(columns: string[], ranges: [number, number][]): Promise<DecodedInt96>;
}

/** One column's values; `valid[i]` is 0 for a null (the leaf's or a struct's above it). */
export interface Micros {
  values: BigInt64Array;
  valid: Uint8Array;
}

export interface DecodedInt96 {
  paths: string[][];
  micros: Micros[];
}

export async function int96Columns(path: string, schema: arrow.Schema): Promise<Int96Columns | null> {
  if (!schema.fields.some((f) => hasNanos(f.type))) return null;
  // Loaded here, not at start: most tables never need it, and a cold `deltaport preview` should not pay for it.
  const { asyncBufferFromFile, parquetMetadataAsync } = await import('hyparquet');
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const paths = int96Paths(metadata.schema);
  if (paths.length === 0) return null;
  return { paths, read: (columns, ranges) => readMicros(file, metadata, paths.filter((p) => columns.includes(p[0])), ranges) };
}

function hasNanos(type: arrow.DataType): boolean {
  if (arrow.DataType.isTimestamp(type)) return type.unit === arrow.TimeUnit.NANOSECOND;
  return arrow.DataType.isStruct(type) && type.children.some((f) => hasNanos(f.type));
}

/** INT96 leaves reached from the root through plain groups (structs), from the footer's flat, depth-first schema. */
function int96Paths(elements: SchemaElement[]): string[][] {
  const paths: string[][] = [];
  const walk = (at: number, prefix: string[]): number => {
    const element = elements[at];
    const path = at === 0 ? [] : [...prefix, element.name];
    let next = at + 1;
    const struct = at === 0 || (element.repetition_type !== 'REPEATED' && !element.converted_type && !element.logical_type);
    for (let k = 0; k < (element.num_children ?? 0); k++) {
      const child = elements[next];
      if (struct && !child.num_children && child.type === 'INT96' && child.repetition_type !== 'REPEATED') {
        paths.push([...path, child.name]);
        next++;
      } else next = struct ? walk(next, path) : skip(elements, next);
    }
    return next;
  };
  walk(0, []);
  return paths;
}

function skip(elements: SchemaElement[], at: number): number {
  let next = at + 1;
  for (let k = 0; k < (elements[at].num_children ?? 0); k++) next = skip(elements, next);
  return next;
}

async function readMicros(file: AsyncBuffer, metadata: FileMetaData, paths: string[][], ranges: [number, number][]): Promise<DecodedInt96> {
  const [{ parquetRead }, { compressors }] = await Promise.all([import('hyparquet'), import('hyparquet-compressors')]);
  const columns = [...new Set(paths.map((p) => p[0]))];
  const total = ranges.reduce((n, [from, to]) => n + to - from, 0);
  const micros = paths.map((): Micros => ({ values: new BigInt64Array(total), valid: new Uint8Array(total) }));
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
      paths.forEach((path, p) => {
        let value: unknown = row[columns.indexOf(path[0])];
        for (const name of path.slice(1)) value = value === null || value === undefined ? undefined : (value as Record<string, unknown>)[name];
        if (typeof value !== 'bigint') return;
        micros[p].values[at] = floorDiv(value, 1000n);
        micros[p].valid[at] = 1;
      });
      at++;
    }
  }
  return { paths, micros };
}

/** A decoded batch with its INT96 leaves replaced by rows [at, at + numRows) of their exact microseconds. */
export function withExactInt96(batch: arrow.RecordBatch, decoded: DecodedInt96, at: number): arrow.RecordBatch {
  const leaves = decoded.paths.map((path, p) => ({ path, micros: decoded.micros[p] }));
  const replaced = batch.schema.fields.map((field, i) => {
    const under = leaves.filter((l) => l.path[0] === field.name).map((l) => ({ path: l.path.slice(1), micros: l.micros }));
    return under.length === 0 ? ([field, batch.data.children[i]] as const) : replace(field, batch.data.children[i], under, at, batch.numRows);
  });
  const fields = replaced.map(([f]) => f);
  const data = arrow.makeData({ type: new arrow.Struct(fields), length: batch.numRows, nullCount: 0, children: replaced.map(([, d]) => d) });
  return new arrow.RecordBatch(new arrow.Schema(fields, batch.schema.metadata), data);
}

type Leaf = { path: string[]; micros: Micros };

function replace(field: arrow.Field, data: arrow.Data, leaves: Leaf[], at: number, length: number): readonly [arrow.Field, arrow.Data] {
  const leaf = leaves.find((l) => l.path.length === 0);
  if (leaf && arrow.DataType.isTimestamp(field.type)) {
    const micros = microsData(leaf.micros, at, length, field.type.timezone ?? null);
    return [new arrow.Field(field.name, micros.type, field.nullable, field.metadata), micros];
  }
  if (!arrow.DataType.isStruct(field.type)) return [field, data];
  const parts = field.type.children.map((child, k) => {
    const under = leaves.filter((l) => l.path[0] === child.name).map((l) => ({ path: l.path.slice(1), micros: l.micros }));
    return under.length === 0 ? ([child, data.children[k]] as const) : replace(child, data.children[k], under, at, length);
  });
  const type = new arrow.Struct(parts.map(([f]) => f));
  const struct = buildData(type, length, data.nullCount, { validity: data.nullBitmap }, parts.map(([, d]) => d));
  return [new arrow.Field(field.name, type, field.nullable, field.metadata), struct];
}

/** Rows [at, at + length) of decoded microseconds as a fresh Arrow column (offset 0, as normalize.ts expects). */
function microsData(micros: Micros, at: number, length: number, timezone: string | null): arrow.Data<arrow.Timestamp> {
  const validity = new Uint8Array(Math.ceil(length / 8));
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    if (micros.valid[at + i]) validity[i >> 3] |= 1 << (i & 7);
    else nulls++;
  }
  const type = new arrow.Timestamp(arrow.TimeUnit.MICROSECOND, timezone);
  return buildData(type, length, nulls, { values: micros.values.subarray(at, at + length), validity });
}

function floorDiv(v: bigint, d: bigint): bigint {
  const q = v / d;
  return v % d < 0n ? q - 1n : q;
}
