// INT96 timestamps (Spark, Impala, Hive: a Julian day and the nanoseconds of that day) decoded straight to
// microseconds. parquet-wasm decodes them to int64 nanoseconds, which wrap outside 1677-09-21..2262-04-11 (Spark
// writes 9999-12-31 for "no end"; year 1000 came out as 2169), and nothing in the wrapped value says by how much.
// So the top-level columns that hold INT96 (at any depth, through structs, lists and maps) are decoded a second
// time, by hyparquet, which reads the raw 12 bytes, and their INT96 leaves are put in place of parquet-wasm's,
// walking parquet-wasm's Arrow column and hyparquet's values side by side; everything else still comes from
// parquet-wasm. Files without INT96 cost nothing: only a file whose Arrow schema has a nanosecond timestamp has its
// footer read here.
import * as arrow from 'apache-arrow';
import type { AsyncBuffer, FileMetaData, SchemaTree } from 'hyparquet';
import { buildData } from './arrow-data.js';

/** A step from a column towards an INT96 leaf: a struct field's name, a list's element, or a map's value. */
const ELEMENT = '[]';
const MAP_VALUE = '{}';

export interface Int96Columns {
  /** Paths of the INT96 leaves: a top-level column, then steps (struct field names, ELEMENT, MAP_VALUE). */
  readonly paths: readonly string[][];
  /** hyparquet's values of the given top-level columns, over the rows of the ranges one after the other. */
  read(columns: string[], ranges: [number, number][]): Promise<DecodedInt96>;
}

/** Per top-level column, its value in each row: INT96 leaves as bigint microseconds, lists as arrays, structs and
 * maps as objects. */
export interface DecodedInt96 {
  paths: string[][];
  columns: Map<string, unknown[]>;
}

/** The INT96 columns of `file`, whose Arrow schema (parquet-wasm's) is `schema` and whose footer `footer` reads. */
export async function int96Columns(
  schema: arrow.Schema,
  file: AsyncBuffer,
  footer: () => Promise<FileMetaData>,
): Promise<Int96Columns | null> {
  if (!schema.fields.some((f) => hasNanos(f.type))) return null;
  // Loaded here, not at start: most tables never need it, and a cold `deltaport preview` should not pay for it.
  const { parquetSchema } = await import('hyparquet');
  const metadata = await footer();
  const paths = int96Paths(parquetSchema(metadata));
  if (paths.length === 0) return null;
  return { paths, read: (columns, ranges) => readColumns(file, metadata, paths, columns, ranges) };
}

function hasNanos(type: arrow.DataType): boolean {
  if (arrow.DataType.isTimestamp(type)) return type.unit === arrow.TimeUnit.NANOSECOND;
  return (type.children ?? []).some((f: arrow.Field) => hasNanos(f.type));
}

/** INT96 leaves under the root, with the steps the Arrow column takes to them. Lists and maps count as hyparquet
 * assembles them (a LIST group of one repeated child, a MAP group of one repeated key/value group); an INT96 map key
 * is left as parquet-wasm reads it. */
function int96Paths(root: SchemaTree): string[][] {
  const paths: string[][] = [];
  const walk = (node: SchemaTree, path: string[]): void => {
    const { element, children } = node;
    if (children.length === 0) {
      if (element.type === 'INT96') paths.push(path);
      return;
    }
    const repeated = children[0];
    const single = children.length === 1 && repeated.element.repetition_type === 'REPEATED';
    if (element.converted_type === 'LIST') {
      // Three levels (list > element) or two (the repeated node is the element).
      if (single && repeated.children.length <= 1) walk(repeated.children[0] ?? repeated, [...path, ELEMENT]);
      return;
    }
    if (element.converted_type === 'MAP') {
      const value = repeated.children.find((c) => c.element.name === 'value');
      if (single && repeated.children.length === 2 && value) walk(value, [...path, MAP_VALUE]);
      return;
    }
    for (const child of children) {
      // A repeated field outside a LIST group is a list of itself.
      const steps = child.element.repetition_type === 'REPEATED' ? [child.element.name, ELEMENT] : [child.element.name];
      walk(child, [...path, ...steps]);
    }
  };
  walk(root, []);
  return paths;
}

async function readColumns(
  file: AsyncBuffer,
  metadata: FileMetaData,
  paths: string[][],
  columns: string[],
  ranges: [number, number][],
): Promise<DecodedInt96> {
  const [{ parquetRead }, { compressors }] = await Promise.all([import('hyparquet'), import('hyparquet-compressors')]);
  const values = new Map(columns.map((name) => [name, [] as unknown[]]));
  for (const [rowStart, rowEnd] of ranges) {
    await parquetRead({
      file,
      metadata,
      columns,
      rowStart,
      rowEnd,
      // A scan reads a large row group in parts (scan-decode.ts): each part's read then fetches and decodes only the
      // pages that hold its rows, not every part the whole column chunk.
      useOffsetIndex: true,
      compressors,
      // hyparquet hands over the exact nanoseconds since the epoch as a bigint (day - 2440588) * 86400e9 + nanos.
      parsers: { timestampFromNanoseconds: (ns: bigint) => floorDiv(ns, 1000n) },
      onComplete: (rows: unknown[][]) => {
        for (const row of rows) columns.forEach((name, c) => values.get(name)!.push(row[c]));
      },
    });
  }
  return { paths: paths.filter((p) => columns.includes(p[0])), columns: values };
}

/** A decoded batch with its INT96 leaves replaced by rows [at, at + numRows) of their exact microseconds. */
export function withExactInt96(batch: arrow.RecordBatch, decoded: DecodedInt96, at: number): arrow.RecordBatch {
  const replaced = batch.schema.fields.map((field, i) => {
    const values = decoded.columns.get(field.name);
    const under = below(decoded.paths, field.name);
    if (!values || under.length === 0) return [field, batch.data.children[i]] as const;
    return replace(field, batch.data.children[i], values.slice(at, at + batch.numRows), under);
  });
  const fields = replaced.map(([f]) => f);
  const data = arrow.makeData({
    type: new arrow.Struct(fields),
    length: batch.numRows,
    nullCount: 0,
    children: replaced.map(([, d]) => d),
  });
  return new arrow.RecordBatch(new arrow.Schema(fields, batch.schema.metadata), data);
}

/** The rest of the paths that start with `step`. */
function below(paths: string[][], step: string): string[][] {
  return paths.filter((p) => p[0] === step).map((p) => p.slice(1));
}

/** `data` (offset 0, as parquet-wasm makes it) with the INT96 leaves at `paths` taken from `values`, hyparquet's
 * value for each of its slots. */
function replace(field: arrow.Field, data: arrow.Data, values: unknown[], paths: string[][]): readonly [arrow.Field, arrow.Data] {
  const { type } = field;
  const as = (d: arrow.Data) => [new arrow.Field(field.name, d.type, field.nullable, field.metadata), d] as const;
  if (paths.some((p) => p.length === 0))
    return arrow.DataType.isTimestamp(type) ? as(microsData(values, type.timezone ?? null)) : [field, data];
  if (arrow.DataType.isStruct(type)) {
    const parts = type.children.map((child, k) => {
      const under = below(paths, child.name);
      if (under.length === 0) return [child, data.children[k]] as const;
      return replace(
        child,
        data.children[k],
        values.map((v) => (v === null || v === undefined ? undefined : (v as Record<string, unknown>)[child.name])),
        under,
      );
    });
    const struct = new arrow.Struct(parts.map(([f]) => f));
    return as(
      buildData(
        struct,
        data.length,
        data.nullCount,
        { validity: data.nullBitmap },
        parts.map(([, d]) => d),
      ),
    );
  }
  const list = arrow.DataType.isList(type);
  if (!list && !arrow.DataType.isMap(type)) return [field, data];
  const under = below(paths, list ? ELEMENT : MAP_VALUE);
  const offsets = data.valueOffsets as Int32Array;
  const [child] = data.children;
  const entryField = (type.children as arrow.Field[])[0];
  // hyparquet's map is an object by key: each entry's value is found by the entry's key as parquet-wasm read it.
  const keys = list ? null : arrow.makeVector(child.children[0]);
  const valueName = list ? '' : (entryField.type as arrow.Struct).children[1].name;
  const entries: unknown[] = new Array(child.length);
  for (let i = 0; i < data.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    for (let j = offsets[i]; j < offsets[i + 1]; j++) {
      entries[j] = keys ? { [valueName]: (v as Record<string, unknown>)[String(keys.get(j))] } : (v as unknown[])[j - offsets[i]];
    }
  }
  const [entry, entryData] = replace(entryField, child, entries, list ? under : under.map((p) => [valueName, ...p]));
  const rebuilt = list ? new arrow.List(entry) : new arrow.Map_(entry as arrow.Field<arrow.Struct>, (type as arrow.Map_).keysSorted);
  return as(buildData(rebuilt, data.length, data.nullCount, { offsets, validity: data.nullBitmap }, [entryData]));
}

/** Microseconds (bigints; anything else is null) as a fresh Arrow column. */
function microsData(values: unknown[], timezone: string | null): arrow.Data<arrow.Timestamp> {
  const length = values.length;
  const micros = new BigInt64Array(length);
  const validity = new Uint8Array(Math.ceil(length / 8));
  let nulls = 0;
  for (let i = 0; i < length; i++) {
    const v = values[i];
    if (typeof v === 'bigint') {
      micros[i] = v;
      validity[i >> 3] |= 1 << (i & 7);
    } else nulls++;
  }
  const type = new arrow.Timestamp(arrow.TimeUnit.MICROSECOND, timezone);
  return buildData(type, length, nulls, { values: micros, validity });
}

function floorDiv(v: bigint, d: bigint): bigint {
  const q = v / d;
  return v % d < 0n ? q - 1n : q;
}
