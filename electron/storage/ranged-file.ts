// A stored file as the two Parquet readers read it, a Blob for parquet-wasm and an AsyncBuffer for hyparquet: both ask
// for the size and for slices, so a Parquet file in a bucket is read as a few ranged GETs (the footer, then the chosen
// column chunks), never whole.
import type { Storage } from './storage.js';

class RangeSlice {
  constructor(
    private readonly storage: Storage,
    private readonly location: string,
    private readonly start: number,
    readonly size: number,
  ) {}

  slice(start = 0, end = this.size): RangeSlice {
    const from = clamp(start, this.size);
    return new RangeSlice(this.storage, this.location, this.start + from, Math.max(0, clamp(end, this.size) - from));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return ownBuffer(await this.storage.readRange(this.location, this.start, this.size));
  }
}

/** Blob.slice's index rules: negative counts from the end. */
function clamp(index: number, size: number): number {
  return index < 0 ? Math.max(size + index, 0) : Math.min(index, size);
}

export function rangeBlob(storage: Storage, location: string, size: number): Blob {
  // parquet-wasm uses only size, slice() and arrayBuffer(); the cast names the Blob it takes.
  return new RangeSlice(storage, location, 0, size) as unknown as Blob;
}

/** `storage` with its ranged reads, those of its blobs included, made by `readRange`; its other calls are its own. */
export function withRangeReads(storage: Storage, readRange: Storage['readRange']): Storage {
  const reader: Storage = {
    list: (folder, startAfter) => storage.list(folder, startAfter),
    listFolder: (folder, options) => storage.listFolder(folder, options),
    read: (location) => storage.read(location),
    readRange,
    stat: (location) => storage.stat(location),
    blob: async (location, size) => rangeBlob(reader, location, size),
    hasFolder: (folder) => storage.hasFolder(folder),
  };
  return reader;
}

/** hyparquet's AsyncBuffer over a stored file of `size` bytes. */
export function rangeBuffer(
  storage: Storage,
  location: string,
  size: number,
): { byteLength: number; slice(start: number, end?: number): Promise<ArrayBuffer> } {
  return {
    byteLength: size,
    async slice(start: number, end = size): Promise<ArrayBuffer> {
      return ownBuffer(await storage.readRange(location, start, end - start));
    },
  };
}

/** The bytes as an ArrayBuffer of their own (a Buffer from a pool shares a larger one). Copied through Uint8Array's
 * constructor: Buffer's own slice() copies nothing and would hand back the whole pool. */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (new Uint8Array(bytes).buffer as ArrayBuffer);
}
