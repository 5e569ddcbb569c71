// The buffer both COPY encoders (text and binary) write into, the size of the chunks they hand out, and the pool
// their slabs come back to once the rows in them are committed.
import { putBytes, viewOf, type Bytes } from './bytes.js';

// Small enough that the server starts on a transaction's first rows while the rest are still being encoded (1 MiB
// chunks left it idle until a 5,000-row transaction was fully encoded: COVID-19_NYT ran at 193k rows/s, at 64 KiB 266k).
export const CHUNK_BYTES = 1 << 16;
const SLAB_BYTES = 1 << 20;

/** Slabs of transactions already committed, for the next ones. Every slab allocated is external memory, and V8
 * starts a full collection each time some tens of megabytes of it have been allocated: a 2M-row export allocated a
 * quarter of a gigabyte of slabs and ran 55 full collections, most of them for nothing else. */
export class SlabPool {
  private readonly free: Buffer[] = [];
  /** Slabs kept for reuse at most: about what the transactions alive at once fill. */
  private readonly capacity: number;

  constructor(bytes = 8 * SLAB_BYTES) {
    this.capacity = Math.ceil(bytes / SLAB_BYTES);
  }

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafe(SLAB_BYTES);
  }

  /** Slabs whose every chunk has been sent and answered: nothing reads them any more. */
  give(slabs: Buffer[]): void {
    for (const slab of slabs) if (slab.length === SLAB_BYTES && this.free.length < this.capacity) this.free.push(slab);
  }
}

/** The output buffer being filled: chunks are handed out as consecutive slices of one large slab, which they keep
 * alive until sent. One allocation per slab rather than per chunk halves the memory allocated and the collections
 * it triggers. */
export class CopyOutput implements Bytes {
  buf: Buffer;
  view: DataView;
  /** Where the chunk being written starts. */
  start = 0;
  pos = 0;
  /** Every slab the chunks handed out lie in, for the pool once they are no longer needed. */
  readonly slabs: Buffer[] = [];

  constructor(private readonly pool = new SlabPool()) {
    this.buf = this.slab(SLAB_BYTES);
    this.view = viewOf(this.buf);
  }

  ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const filled = this.pos - this.start;
    const next = this.slab(2 * (filled + bytes));
    this.buf.copy(next, 0, this.start, this.pos);
    this.buf = next;
    this.view = viewOf(next);
    this.start = 0;
    this.pos = filled;
  }

  /** Appends source[start, end) to room the caller has ensured. */
  put(source: Bytes, start: number, end: number): void {
    this.pos = putBytes(this, this.pos, source, start, end);
  }

  private slab(bytes: number): Buffer {
    const slab = bytes <= SLAB_BYTES ? this.pool.take() : Buffer.allocUnsafe(bytes);
    this.slabs.push(slab);
    return slab;
  }

  take(): Buffer {
    const chunk = this.buf.subarray(this.start, this.pos);
    this.start = this.pos;
    return chunk;
  }
}
