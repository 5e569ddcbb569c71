// Fast readers over one Arrow Data chunk, for checkpoints with hundreds of thousands of rows: apache-arrow's
// Vector.get() builds a proxy per struct or map row and decodes each string alone, which costs seconds at that size.
import { makeVector, type Data, type Struct } from 'apache-arrow';

export type ColumnReader<T> = (row: number) => T | null;

/** The child of a struct Data by field name, or null when the struct has no such field. */
export function structChild(data: Data, name: string): Data | null {
  const index = (data.type as Struct).children.findIndex((f) => f.name === name);
  return index < 0 ? null : data.children[index];
}

const decoder = new TextDecoder();

/** Row validity; Data.getValid() re-derives nullability on every call, which dominates a tight loop. */
export function validity(data: Data): (row: number) => boolean {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || !bitmap || bitmap.length === 0) return () => true;
  const offset = data.offset;
  return (row) => {
    const bit = offset + row;
    return (bitmap[bit >> 3] & (1 << (bit & 7))) !== 0;
  };
}

/** Strings of a Utf8 column. Log paths are mostly ASCII: then the whole buffer is decoded once and sliced. Slicing
 * by byte offsets is exact when the text has one UTF-16 unit per byte: a multi-byte character or a replaced invalid
 * sequence of several bytes always yields fewer units than bytes. */
export function utf8Reader(data: Data | null): ColumnReader<string> {
  if (!data) return () => null;
  // LargeUtf8 (64-bit offsets) or Utf8View, should a writer's Arrow schema ask for them: the generic accessor.
  if (!(data.valueOffsets instanceof Int32Array)) {
    const vector = makeVector(data);
    return (row) => vector.get(row) as string | null;
  }
  const offsets = data.valueOffsets;
  const bytes = data.values as Uint8Array;
  const valid = validity(data);
  const start = offsets[0];
  const end = offsets[data.length];
  const text = decoder.decode(bytes.subarray(start, end));
  if (text.length === end - start) {
    return (row) => (valid(row) ? text.slice(offsets[row] - start, offsets[row + 1] - start) : null);
  }
  return (row) => (valid(row) ? decoder.decode(bytes.subarray(offsets[row], offsets[row + 1])) : null);
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
  const offsets = data.valueOffsets as Int32Array;
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
