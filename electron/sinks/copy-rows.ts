// One transaction's COPY data, built batch by batch: the rows of every batch added go into one COPY stream (one
// header and trailer for binary), so that the server runs one COPY for the whole transaction.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordBatch } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { binaryCopyRows, endBinaryCopy, startBinaryCopy } from './copy-binary.js';
import { CopyOutput, type SlabPool } from './copy-output.js';
import { PG_TEXT, textCopyRows, type TextFlavor } from './copy-text.js';

export class CopyRows {
  /** The chunks handed out so far, in order. */
  readonly chunks: Buffer[] = [];
  private chunkBytes = 0;
  private readonly out: CopyOutput;

  constructor(
    readonly binary: boolean,
    private readonly fields: StructField[],
    pool: SlabPool,
    private readonly flavor: TextFlavor = PG_TEXT,
  ) {
    this.out = new CopyOutput(pool);
    if (binary) startBinaryCopy(this.out);
  }

  /** Bytes encoded so far, including those not yet handed out as a chunk. */
  get bytes(): number {
    return this.chunkBytes + this.out.pos - this.out.start;
  }

  /** Every slab the chunks lie in, for the pool once they are committed. */
  get slabs(): Buffer[] {
    return this.out.slabs;
  }

  async add(batches: RecordBatch[]): Promise<void> {
    const rows = this.binary ? binaryCopyRows(batches, this.fields, this.out) : textCopyRows(batches, this.fields, this.out, this.flavor);
    for (const chunk of rows) {
      this.push(chunk);
      // Replies for the transaction in flight are handled between chunks, not after the whole encoding.
      await nextTurn();
    }
  }

  /** The whole stream; nothing may be added after it. */
  finish(): Buffer[] {
    const last = this.binary ? endBinaryCopy(this.out) : this.out.take();
    if (last.length > 0) this.push(last);
    return this.chunks;
  }

  private push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.chunkBytes += chunk.length;
  }
}
