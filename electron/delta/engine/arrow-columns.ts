// Fast readers over one Arrow Data chunk, for checkpoints with hundreds of thousands of rows: apache-arrow's
// Vector.get() builds a proxy per struct or map row and decodes each string alone, which costs seconds at that size.
import type { Data, Struct } from 'apache-arrow';
import { int32Offsets, utf8Reader, validity, type RowReader } from './arrow-buffers.js';

export type ColumnReader<T> = (row: number) => T | null;

/** The child of a struct Data by field name, or null when the struct has no such field. */
export function structChild(data: Data, name: string): Data | null {
  const index = (data.type as Struct).children.findIndex((f) => f.name === name);
  return index < 0 ? null : data.children[index];
}

/** Null for a column the chunk lacks and for its null rows; otherwise what `read` (an arrow-buffers.ts reader,
 * which reads valid rows only) makes of the row. */
export function nullable<T>(data: Data | null, read: (data: Data) => RowReader<T>): ColumnReader<T> {
  if (!data) return () => null;
  const valid = validity(data);
  const value = read(data);
  return (row) => (valid(row) ? value(row) : null);
}

/** Numbers of an integer column (Int32 or Int64; Int64 log values such as sizes and epoch ms fit in 2^53). */
export function numberReader(data: Data | null): ColumnReader<number> {
  return nullable(data, (chunk) => {
    const values = chunk.values as Int32Array | BigInt64Array;
    return (row) => Number(values[row]);
  });
}

/** Objects of a map<string, string> column, such as partitionValues. */
export function stringMapReader(data: Data | null): ColumnReader<Record<string, string | null>> {
  if (!data) return () => null;
  const offsets = int32Offsets(data);
  const entries = data.children[0];
  const keys = utf8Reader(entries.children[0]);
  const values = nullable(entries.children[1], utf8Reader);
  const valid = validity(data);
  return (row) => {
    if (!valid(row)) return null;
    const out: Record<string, string | null> = {};
    for (let j = offsets[row]; j < offsets[row + 1]; j++) out[keys(j)] = values(j);
    return out;
  };
}
