// Fast readers over one Arrow Data chunk, for checkpoints with hundreds of thousands of rows: apache-arrow's
// Vector.get() builds a proxy per struct or map row and decodes each string alone, which costs seconds at that size.
import { makeVector, Type, type Data, type Struct } from 'apache-arrow';
import { int32Offsets, utf8Reader as textOf, validity } from './arrow-buffers.js';

// Row validity, for the log's readers that test it themselves.
export { validity };

export type ColumnReader<T> = (row: number) => T | null;

/** The child of a struct Data by field name, or null when the struct has no such field. */
export function structChild(data: Data, name: string): Data | null {
  const index = (data.type as Struct).children.findIndex((f) => f.name === name);
  return index < 0 ? null : data.children[index];
}

/** A reader per named child of a struct Data, each made by the reader factory given for its name (a child the struct
 * lacks reads as null): the log's actions are structs read field by field. */
export function childReaders<R extends Record<string, (child: Data | null) => unknown>>(
  data: Data,
  readers: R,
): { [K in keyof R]: ReturnType<R[K]> } {
  const entries = Object.entries(readers).map(([name, reader]) => [name, reader(structChild(data, name))]);
  return Object.fromEntries(entries) as { [K in keyof R]: ReturnType<R[K]> };
}

/** Strings of a Utf8 column (decoded once for the whole chunk where it can be: arrow-buffers.ts). */
export function utf8Reader(data: Data | null): ColumnReader<string> {
  if (!data) return () => null;
  // Utf8View, should a writer's Arrow schema ask for it: the generic accessor.
  if (data.typeId !== Type.Utf8 && data.typeId !== Type.LargeUtf8) {
    const vector = makeVector(data);
    return (row) => vector.get(row) as string | null;
  }
  const text = textOf(data);
  const valid = validity(data);
  return (row) => (valid(row) ? text(row) : null);
}

/** Numbers of an integer column (Int32 or Int64; Int64 log values such as sizes and epoch ms fit in 2^53). */
export function numberReader(data: Data | null): ColumnReader<number> {
  if (!data) return () => null;
  const values = data.values as Int32Array | BigInt64Array;
  const valid = validity(data);
  return (row) => (valid(row) ? Number(values[row]) : null);
}

/** Objects of a map<string, string> column, such as partitionValues. */
export function stringMapReader(data: Data | null): ColumnReader<Record<string, string | null>> {
  if (!data) return () => null;
  const offsets = int32Offsets(data);
  const entries = data.children[0];
  const keys = utf8Reader(entries.children[0]);
  const values = utf8Reader(entries.children[1]);
  const valid = validity(data);
  return (row) => {
    if (!valid(row)) return null;
    const out: Record<string, string | null> = {};
    for (let j = offsets[row]; j < offsets[row + 1]; j++) out[keys(j) as string] = values(j);
    return out;
  };
}
