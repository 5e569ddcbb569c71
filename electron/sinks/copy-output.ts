// The buffer both COPY encoders (text and binary) write into, and the size of the chunks they hand out.

// Small enough that the server starts on a transaction's first rows while the rest are still being encoded (1 MiB
// chunks left it idle until a 5,000-row transaction was fully encoded: COVID-19_NYT ran at 193k rows/s, at 64 KiB 266k).
export const CHUNK_BYTES = 1 << 16;
const SLAB_BYTES = 1 << 20;
/** Runs longer than this are copied by one native call. */
const SHORT_COPY = 24;

/** The output buffer being filled: chunks are handed out as consecutive slices of one large slab, which they keep
 * alive until sent. One allocation per slab rather than per chunk halves the memory allocated and the collections
 * it triggers. */
export class CopyOutput {
  buf = Buffer.allocUnsafe(SLAB_BYTES);
  /** Where the chunk being written starts. */
  start = 0;
  pos = 0;

  ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const filled = this.pos - this.start;
    const next = Buffer.allocUnsafe(Math.max(SLAB_BYTES, 2 * (filled + bytes)));
    this.buf.copy(next, 0, this.start, this.pos);
    this.buf = next;
    this.start = 0;
    this.pos = filled;
  }

  /** Appends source[start, end) to room the caller has ensured. Short runs are copied byte by byte, which costs
   * less than the native call. */
  put(source: Buffer, start: number, end: number): void {
    if (end - start > SHORT_COPY) {
      this.pos += source.copy(this.buf, this.pos, start, end);
      return;
    }
    const buf = this.buf;
    let pos = this.pos;
    for (let k = start; k < end; k++) buf[pos++] = source[k];
    this.pos = pos;
  }

  take(): Buffer {
    const chunk = this.buf.subarray(this.start, this.pos);
    this.start = this.pos;
    return chunk;
  }
}
