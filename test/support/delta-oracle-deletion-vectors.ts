// The oracle's own reader of a deletion vector (PROTOCOL.md "Deletion Vector Format"), which imports nothing of
// electron/: the descriptor's bytes are found and unframed here, and each 32-bit bucket of the 64-bit bitmap is
// decoded by CRoaring (the `roaring` package), so that the rows a test expects deleted do not come from our decoder.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { RoaringBitmap32 } from 'roaring';
import type { Json } from './delta-oracle.js';

const Z85_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const BITMAP_MAGIC = 1681511377;
const FILE_FORMAT_VERSION = 1;
/** A 'u' descriptor ends in its UUID: 16 bytes, Z85-encoded. */
const UUID_CHARS = 20;

/** Z85 (ZeroMQ RFC 32): each 5 characters are a big-endian 32-bit word in base 85. */
function z85Decode(text: string): Buffer {
  if (text.length % 5 !== 0) throw new Error(`Z85 text must have a multiple of 5 characters, got ${text.length}`);
  const bytes = Buffer.alloc((text.length / 5) * 4);
  for (let group = 0; group < text.length / 5; group++) {
    let word = 0;
    for (const char of text.slice(group * 5, group * 5 + 5)) {
      const digit = Z85_ALPHABET.indexOf(char);
      if (digit < 0) throw new Error(`'${char}' is not a Z85 character`);
      word = word * 85 + digit;
    }
    bytes.writeUInt32BE(word, group * 4);
  }
  return bytes;
}

/** The file a stored ('u' or 'p') deletion vector is in. */
function deletionVectorFilePath(root: string, dv: Json): string {
  const where = dv.pathOrInlineDv as string;
  if (dv.storageType === 'p') return where.startsWith('file:') ? fileURLToPath(where) : where;
  const hex = z85Decode(where.slice(-UUID_CHARS)).toString('hex');
  const uuid = [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
  return path.join(root, where.slice(0, -UUID_CHARS), `deletion_vector_${uuid}.bin`);
}

/** The serialized bitmap a descriptor names: inline in the log, or framed in a file by a size and a CRC-32. */
async function bitmapBytes(root: string, dv: Json): Promise<Buffer> {
  const size = dv.sizeInBytes as number;
  if (dv.storageType === 'i') return z85Decode(dv.pathOrInlineDv as string).subarray(0, size);
  const file = await readFile(deletionVectorFilePath(root, dv));
  if (file[0] !== FILE_FORMAT_VERSION) throw new Error(`deletion vector file format ${file[0]}, expected ${FILE_FORMAT_VERSION}`);
  const offset = (dv.offset as number | undefined) ?? 1;
  const dataSize = file.readUInt32BE(offset);
  if (dataSize !== size) throw new Error(`deletion vector at ${offset} has ${dataSize} bytes, the log says ${size}`);
  const bitmap = file.subarray(offset + 4, offset + 4 + dataSize);
  if (crc32(bitmap) !== file.readUInt32BE(offset + 4 + dataSize)) throw new Error(`deletion vector at ${offset} fails its CRC-32`);
  return bitmap;
}

/** The row indexes a deletion vector deletes, ascending. */
export async function deletedRows(root: string, dv: Json): Promise<number[]> {
  const bytes = await bitmapBytes(root, dv);
  if (bytes.readUInt32LE(0) !== BITMAP_MAGIC) throw new Error(`not a deletion vector bitmap: magic ${bytes.readUInt32LE(0)}`);
  const buckets = Number(bytes.readBigUInt64LE(4));
  const rows: number[] = [];
  let at = 12;
  for (let b = 0; b < buckets; b++) {
    const high = bytes.readUInt32LE(at) * 2 ** 32;
    const bucket = RoaringBitmap32.deserialize(bytes.subarray(at + 4), 'portable');
    at += 4 + bucket.getSerializationSizeInBytes('portable');
    for (const low of bucket) rows.push(high + low);
  }
  if (at !== bytes.length) throw new Error(`deletion vector bitmap has ${bytes.length - at} bytes after its ${buckets} buckets`);
  return rows;
}
