// Typed reads straight from one Arrow Data chunk's buffers (bitmaps, offsets, bytes), for the loops that read a
// column cell by cell: apache-arrow's Vector.get() and Data.getValid() re-derive the layout on every call (and build a
// proxy per struct or map row), which costs seconds over a checkpoint's or an export's hundreds of thousands of rows.
// Every reader is bound to one chunk and honours its offset into shared buffers.
import { isAscii } from 'node:buffer';
import { makeVector, Type, type Data } from 'apache-arrow';
import { DeltaportError } from '../../../shared/errors.js';

/** Reads row i of the chunk it was made for. */
export type RowReader<T> = (i: number) => T;

/** Bit `index` of an LSB-first bitmap (Arrow's validity bitmaps and boolean values). */
export function bitAt(bits: Uint8Array, index: number): boolean {
  return (bits[index >> 3] & (1 << (index & 7))) !== 0;
}

/** Whether row i has a value, from the validity bitmap (a chunk without one, or without nulls, is all valid). */
export function validity(data: Data): RowReader<boolean> {
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || !bitmap || bitmap.length === 0) return () => true;
  const offset = data.offset;
  return (i) => bitAt(bitmap, offset + i);
}

/** Whether row i is null: as validity() says, and every row of a Null column. */
export function isNullAt(data: Data): RowReader<boolean> {
  if (data.typeId === Type.Null) return () => true;
  const bitmap = data.nullBitmap;
  if (data.nullCount === 0 || !bitmap || bitmap.length === 0) return () => false;
  const offset = data.offset;
  return (i) => !bitAt(bitmap, offset + i);
}

/** Values of a Bool column (bit-packed like a bitmap). */
export function booleanReader(data: Data): RowReader<boolean> {
  const bits = valueUint8s(data);
  const offset = data.offset;
  return (i) => bitAt(bits, offset + i);
}

/** The 32-bit offsets of a Utf8, Binary, List or Map chunk: cell i spans [offsets[i], offsets[i + 1]). */
export function int32Offsets(data: Data): Int32Array {
  const offsets: unknown = data.valueOffsets;
  if (!(offsets instanceof Int32Array)) throw new DeltaportError('INTERNAL', `Arrow ${String(data.type)} has no 32-bit offsets`);
  return offsets;
}

/** The offsets of a chunk with 32- or 64-bit ones (LargeUtf8, LargeBinary, LargeList). */
export function anyOffsets(data: Data): Int32Array | BigInt64Array {
  const offsets: unknown = data.valueOffsets;
  if (offsets instanceof Int32Array || offsets instanceof BigInt64Array) return offsets;
  throw new DeltaportError('INTERNAL', `Arrow ${String(data.type)} has no offsets`);
}

/** The chunk's value bytes (Utf8, Binary, FixedSizeBinary) as a Buffer over the same memory. */
export function valueBytes(data: Data): Buffer {
  const bytes = valueUint8s(data);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function valueUint8s(data: Data): Uint8Array {
  const bytes: unknown = data.values;
  if (!(bytes instanceof Uint8Array)) throw new DeltaportError('INTERNAL', `Arrow ${String(data.type)} has no value bytes`);
  return bytes;
}

/**
 * Strings of a Utf8 or LargeUtf8 chunk (valid rows only). Decoding each value on its own costs a native call per
 * value; when the column's bytes are all ASCII (the common case) they are decoded once, and since byte offsets are
 * then character offsets, each value is a substring of that text. A Utf8View chunk, should a writer's Arrow schema ask
 * for one, is read through the generic accessor.
 */
export function utf8Reader(data: Data): RowReader<string> {
  if (data.typeId === Type.Utf8View) {
    const vector = makeVector(data);
    return (i) => vector.get(i) as string;
  }
  const bytes = valueBytes(data);
  const offsets = anyOffsets(data);
  const start = Number(offsets[0]);
  const used = bytes.subarray(start, Number(offsets[data.length]));
  if (offsets instanceof Int32Array) {
    if (!isAscii(used)) return (i) => bytes.toString('utf8', offsets[i], offsets[i + 1]);
    const text = used.toString('latin1');
    return (i) => text.substring(offsets[i] - start, offsets[i + 1] - start);
  }
  if (!isAscii(used)) return (i) => bytes.toString('utf8', Number(offsets[i]), Number(offsets[i + 1]));
  const text = used.toString('latin1');
  return (i) => text.substring(Number(offsets[i]) - start, Number(offsets[i + 1]) - start);
}
