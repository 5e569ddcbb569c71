// Deletion vectors (PROTOCOL.md "Deletion Vectors"): where a descriptor's bitmap lives, how it is framed in a
// deletion vector file, and the inverse, for writers of test and benchmark tables.
//   'u': <tableRoot>/<random prefix>/deletion_vector_<uuid>.bin, the UUID Z85-encoded after the prefix
//   'i': the bitmap itself, Z85-encoded in the log
//   'p': an absolute path or file: URI
// A file is a version byte (1) followed by entries: size (u32 big-endian), bitmap, CRC-32 of the bitmap (big-endian).
import { crc32 } from 'node:zlib';
import { DeltaportError } from '../../../shared/errors.js';
import { isNotFound, joinLocation, StorageError, type Storage } from '../../storage/storage.js';
import { absoluteLocation } from '../log/log-paths.js';
import type { DeletionVectorDescriptor } from '../log/actions.js';
import { concat, parseRoaringBitmapArray, serializeRoaringBitmapArray } from './roaring.js';
import { z85Decode, z85Encode } from './z85.js';

const FORMAT_VERSION = 1;
const UUID_Z85_LENGTH = 20;

/** The deleted row indexes of one data file, sorted; the checksum and cardinality are verified. */
export async function loadDeletionVector(storage: Storage, tableRoot: string, dv: DeletionVectorDescriptor): Promise<Float64Array> {
  const bitmap = dv.storageType === 'i' ? inlineBitmap(dv) : await storedBitmap(storage, deletionVectorPath(tableRoot, dv), dv);
  const rows = parseRoaringBitmapArray(bitmap);
  if (rows.length !== dv.cardinality) {
    throw new DeltaportError(
      'CORRUPT_DATA',
      `deletion vector ${dv.pathOrInlineDv} holds ${rows.length} rows but the log says ${dv.cardinality}`,
    );
  }
  return rows;
}

/** The file a 'u' or 'p' descriptor points to. */
export function deletionVectorPath(tableRoot: string, dv: DeletionVectorDescriptor): string {
  if (dv.storageType === 'p') return absoluteLocation(dv.pathOrInlineDv);
  if (dv.storageType !== 'u') {
    throw new DeltaportError('CORRUPT_LOG', `unknown deletion vector storage type '${String(dv.storageType)}'`);
  }
  const text = dv.pathOrInlineDv;
  if (text.length < UUID_Z85_LENGTH) {
    throw new DeltaportError('CORRUPT_LOG', `invalid deletion vector path '${text}'`);
  }
  const prefix = text.slice(0, text.length - UUID_Z85_LENGTH);
  const uuid = bytesToUuid(z85Decode(text.slice(-UUID_Z85_LENGTH)));
  return joinLocation(tableRoot, `${prefix}/${deletionVectorFileName(uuid)}`);
}

export function deletionVectorFileName(uuid: string): string {
  return `deletion_vector_${uuid}.bin`;
}

function inlineBitmap(dv: DeletionVectorDescriptor): Uint8Array {
  const bytes = z85Decode(dv.pathOrInlineDv);
  if (bytes.length < dv.sizeInBytes) {
    throw new DeltaportError('CORRUPT_LOG', `inline deletion vector is shorter than its sizeInBytes ${dv.sizeInBytes}`);
  }
  return bytes.subarray(0, dv.sizeInBytes);
}

async function storedBitmap(storage: Storage, file: string, dv: DeletionVectorDescriptor): Promise<Uint8Array> {
  const offset = dv.offset ?? 1;
  let frame: Uint8Array;
  try {
    frame = await storage.readRange(file, offset, dv.sizeInBytes + 8);
  } catch (err) {
    if (isNotFound(err)) throw new DeltaportError('MISSING_FILE', `deletion vector file is missing: ${file}`);
    if (err instanceof StorageError && err.reason === 'truncated') throw badFile(file, 'the file ends before the deletion vector does');
    throw new DeltaportError('CORRUPT_DATA', `cannot read deletion vector file ${file}: ${(err as Error).message}`);
  }
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const size = view.getUint32(0);
  if (size !== dv.sizeInBytes) throw badFile(file, `stored size ${size} differs from sizeInBytes ${dv.sizeInBytes}`);
  const bitmap = frame.subarray(4, 4 + size);
  if (crc32(bitmap) !== view.getUint32(4 + size)) throw badFile(file, 'checksum mismatch');
  return bitmap;
}

function badFile(file: string, detail: string): DeltaportError {
  return new DeltaportError('CORRUPT_DATA', `deletion vector file ${file} is invalid: ${detail}`);
}

function bytesToUuid(b: Uint8Array): string {
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---- writing -------------------------------------------------------------------------------------------------------

export interface StoredEntry {
  offset: number;
  sizeInBytes: number;
  cardinality: number;
}

/** Frames deleted-row sets (each sorted) as one deletion vector file; entries say where each one landed. */
export function deletionVectorFile(rowSets: ArrayLike<number>[]): { bytes: Uint8Array; entries: StoredEntry[] } {
  const parts: Uint8Array[] = [Uint8Array.of(FORMAT_VERSION)];
  const entries: StoredEntry[] = [];
  let at = 1;
  for (const rows of rowSets) {
    const bitmap = serializeRoaringBitmapArray(rows);
    const size = new DataView(new ArrayBuffer(4));
    size.setUint32(0, bitmap.length);
    const sum = new DataView(new ArrayBuffer(4));
    sum.setUint32(0, crc32(bitmap));
    parts.push(new Uint8Array(size.buffer), bitmap, new Uint8Array(sum.buffer));
    entries.push({ offset: at, sizeInBytes: bitmap.length, cardinality: rows.length });
    at += bitmap.length + 8;
  }
  return { bytes: concat(parts), entries };
}

/** The 'u' descriptor of an entry in the file deletionVectorFileName(uuid), stored under prefix in the table. */
export function storedDescriptor(uuid: string, entry: StoredEntry, prefix = ''): DeletionVectorDescriptor {
  const bytes = Buffer.from(uuid.replace(/-/g, ''), 'hex');
  if (bytes.length !== 16) throw new RangeError(`not a UUID: ${uuid}`);
  return { storageType: 'u', pathOrInlineDv: prefix + z85Encode(bytes), ...entry };
}

/** An 'i' descriptor carrying the bitmap of sorted rows in the log itself. */
export function inlineDescriptor(rows: ArrayLike<number>): DeletionVectorDescriptor {
  const bitmap = serializeRoaringBitmapArray(rows);
  return { storageType: 'i', pathOrInlineDv: z85Encode(bitmap), sizeInBytes: bitmap.length, cardinality: rows.length };
}
