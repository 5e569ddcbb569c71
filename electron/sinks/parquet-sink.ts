// Parquet through parquet-wasm's streaming writer: each Arrow batch crosses into WebAssembly as an IPC stream and
// is fed to transformParquetStream, which emits the file row group by row group; only the open row group is held
// in memory. Arrow types pass through unchanged, so decimals, UTC vs local timestamps and nested types keep their
// exact Parquet logical types. The writer runs on the reader's instance of parquet-wasm (parquet-wasm-instance.ts):
// an instance's memory only grows, and two of them each kept their own high-water mark (the export of the
// benchmark's 2M-row table to Parquet, its young generation capped: 43 MB for the writer beside 27 MB for the reader,
// 51 MB in one; peak RSS 257 -> 243 MB), and the package's own instance compiled the 5 MB module a second time.
import { makeData, RecordBatch, Struct, Table, tableToIPC, vectorFromArray, type Schema } from 'apache-arrow';
import type * as ParquetWasm from 'parquet-wasm/node';
import { cancelledError, DeltaportError } from '../../shared/errors.js';
import { joinBatches } from '../delta/engine/concat-batches.js';
import { openParquet } from '../delta/engine/parquet-file.js';
import { localDisk } from '../storage/local-storage.js';
import type { StorageResolver } from '../storage/storage.js';
import { guarded, untilTrap, wasmInstance, type WasmInstance } from '../delta/engine/parquet-wasm-instance.js';
import type { ScanBatch } from '../delta/scan/scan-types.js';
import { AtomicFile } from './atomic-file.js';
import type { BatchSink, SinkOpenContext } from './sink.js';

// DuckDB's row group size: big enough for good compression, small enough to bound the writer's memory.
const ROW_GROUP_ROWS = 122_880;
// Batches are fed to the writer joined up to this many rows: each crossing into WebAssembly costs an IPC encoding
// and a decoding, and a scan over deletion vectors yields thousands of batches of a few rows. No more: each feed is
// held several times over in WebAssembly memory, which never shrinks (64k rows left it at 62 MB, 32k at 47-49 MB,
// 16k at 43 MB: the benchmark's 2M-row export peaked 6 MB lower at the same wall and CPU time; 8k saved no more and
// cost CPU).
const FEED_ROWS = 16_384;

export function createParquetSink(target: string, storage: StorageResolver): BatchSink {
  let file: AtomicFile | null = null;
  let instance: WasmInstance | null = null;
  let schema: Schema | null = null;
  let input: BatchFeed | null = null;
  let pump: Promise<void> | null = null;
  let writerError: DeltaportError | null = null;
  let rowsFed = 0;
  let pending: RecordBatch[] = [];
  let pendingRows = 0;

  async function feedPending(): Promise<void> {
    if (pending.length === 0) return;
    const batches = pending;
    const rows = pendingRows;
    pending = [];
    pendingRows = 0;
    for (const batch of joinBatches(batches, FEED_ROWS)) await feed(batch);
    rowsFed += rows;
  }

  async function feed(batch: RecordBatch): Promise<void> {
    const on = instance!;
    const table = guarded(on, () => on.api.Table.fromIPCStream(tableToIPC(new Table([batch]), 'stream')));
    try {
      for (const rb of guarded(on, () => table.recordBatches())) await input!.push(rb);
    } catch (err) {
      // Once the writer has failed, its input is closed: its own error says why, the closed stream does not.
      throw writerError ?? err;
    } finally {
      if (!on.broken) table.free();
    }
  }

  return {
    async open(ctx: SinkOpenContext) {
      file = await AtomicFile.create(target, storage);
      schema = ctx.schema;
      const batches = new BatchFeed();
      input = batches;
      const out = file;
      const on = wasmInstance();
      instance = on;
      const wasm = on.api;
      const properties = new wasm.WriterPropertiesBuilder()
        .setCompression(wasm.Compression.SNAPPY)
        // Dictionary pages cost the writer three times the CPU of plain ones (100k rows x 8 columns: 704 vs 207 ms);
        // Snappy already shrinks repeated values, and the file came out smaller without them.
        .setDictionaryEnabled(false)
        .setMaxRowGroupSize(ROW_GROUP_ROWS)
        .setCreatedBy('Deltaport')
        .build();
      pump = (async () => {
        const reader = (await untilTrap(on, () => wasm.transformParquetStream(batches.stream, properties))).getReader();
        for (;;) {
          const { done, value } = await untilTrap(on, () => reader.read());
          if (done) return;
          await out.write(value as Uint8Array);
        }
      })().catch((err: unknown) => {
        const detail = err instanceof Error ? err.message : String(err);
        writerError =
          err instanceof DeltaportError
            ? err
            : new DeltaportError('SINK_WRITE', `cannot write Parquet file ${out.target}: ${detail.split('\n')[0]}`);
        throw writerError;
      });
      batches.failOn(pump);
      return null;
    },

    async write({ batch }: ScanBatch) {
      if (batch.numRows === 0) return;
      pending.push(batch);
      pendingRows += batch.numRows;
      if (pendingRows >= FEED_ROWS) await feedPending();
    },

    async close() {
      await feedPending();
      // The writer learns the schema from its first batch, so an empty export still sends one (empty) batch.
      if (rowsFed === 0) await feed(emptyBatch(schema!));
      input!.end();
      await pump;
      await checkRowCount(file!, rowsFed);
      await file!.commit();
    },

    async abort() {
      pending = [];
      input?.cancel();
      await pump?.catch(() => undefined);
      await file?.discard();
    },
  };
}

/** A pull-driven stream of batches for the writer: push() waits while the writer is busy, so memory stays bounded. */
class BatchFeed {
  readonly stream: ReadableStream<ParquetWasm.RecordBatch>;
  private controller!: ReadableStreamDefaultController<ParquetWasm.RecordBatch>;
  private wanted: (() => void) | null = null;
  private failure: Promise<never> | null = null;

  constructor() {
    this.stream = new ReadableStream<ParquetWasm.RecordBatch>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => {
          this.wanted?.();
          this.wanted = null;
        },
      },
      { highWaterMark: 1 },
    );
  }

  /** Makes push() fail as soon as the writer does, instead of waiting for a pull that will never come. */
  failOn(writer: Promise<void>): void {
    this.failure = writer.then(() => {
      throw new DeltaportError('INTERNAL', 'the Parquet writer stopped early');
    });
    this.failure.catch(() => undefined);
  }

  async push(batch: ParquetWasm.RecordBatch): Promise<void> {
    while ((this.controller.desiredSize ?? 0) <= 0) {
      await Promise.race([new Promise<void>((resolve) => (this.wanted = resolve)), this.failure]);
    }
    this.controller.enqueue(batch);
  }

  end(): void {
    this.controller.close();
  }

  cancel(): void {
    try {
      this.controller.error(cancelledError('export'));
    } catch {
      // already closed or errored
    }
  }
}

// parquet-wasm's streaming writer skips a batch it fails to write without saying so; the footer's row count
// catches that before the file is renamed into place.
async function checkRowCount(file: AtomicFile, expected: number): Promise<void> {
  const written = await openParquet(localDisk, file.partialPath, 'Parquet file');
  const rows = written.numRows;
  written.close();
  if (rows !== expected) {
    throw new DeltaportError('SINK_WRITE', `cannot write Parquet file ${file.target}: it holds ${rows} of ${expected} rows`);
  }
}

function emptyBatch(schema: Schema): RecordBatch {
  const children = schema.fields.map((f) => vectorFromArray([], f.type).data[0]);
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 0, nullCount: 0, children }));
}
