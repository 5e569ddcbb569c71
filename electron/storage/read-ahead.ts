// Byte ranges fetched from a store before the reader asks for them, so that the next GET is already on its way while
// the decoder works on the bytes it has: a scan reading files one after another waits on each request otherwise, and
// an object store's first byte takes milliseconds where a disk's takes microseconds. What it holds is bounded: a
// fetch that would take it past its bound is not started, and the reader then asks the store as it would without it.
import { withRangeReads } from './ranged-file.js';
import type { Storage } from './storage.js';

interface Held {
  start: number;
  end: number;
  /** Settles to null when the fetch failed: the reader then asks the store itself, which reports the failure. */
  bytes: Promise<Uint8Array | null>;
}

export class ReadAhead {
  private readonly held = new Map<string, Held[]>();
  private heldBytes = 0;

  constructor(readonly boundBytes: number) {}

  /** Bytes fetched or being fetched and not yet released. */
  get bytesHeld(): number {
    return this.heldBytes;
  }

  /** Starts fetching `length` bytes of `location` from `start`, unless that would hold more than the bound; says
   * whether it did. */
  fetch(storage: Storage, location: string, start: number, length: number): boolean {
    if (length <= 0 || this.heldBytes + length > this.boundBytes) return false;
    this.heldBytes += length;
    const entry: Held = {
      start,
      end: start + length,
      bytes: storage.readRange(location, start, length).catch(() => null),
    };
    this.held.set(location, [...(this.held.get(location) ?? []), entry]);
    return true;
  }

  /** Forgets what is held of `location` (its reader is done with it). */
  release(location: string): void {
    for (const entry of this.held.get(location) ?? []) this.heldBytes -= entry.end - entry.start;
    this.held.delete(location);
  }

  /** `storage` with its ranged reads served from what is held where that covers them. */
  through(storage: Storage): Storage {
    const covered = async (location: string, offset: number, length: number): Promise<Uint8Array | null> => {
      const entry = this.held.get(location)?.find((e) => e.start <= offset && offset + length <= e.end);
      const bytes = await entry?.bytes;
      return bytes ? bytes.subarray(offset - entry!.start, offset - entry!.start + length) : null;
    };
    return withRangeReads(
      storage,
      async (location, offset, length) => (await covered(location, offset, length)) ?? storage.readRange(location, offset, length),
    );
  }
}
