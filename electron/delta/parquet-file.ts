// The one door to parquet-wasm. Files are opened as lazy Blobs so that only the footer and the requested column
// chunks are read from disk; decoded data crosses into apache-arrow through the IPC stream format.
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tableFromIPC, type Schema, type Table } from 'apache-arrow';
import type * as ParquetWasm from 'parquet-wasm/node';
import { DeltaportError } from '../../shared/errors.js';

// Required, not imported: an ES import of this CommonJS module first has Node scan its 100 KB of glue code for export
// names, ~20 ms of a cold `deltaport preview`.
const wasm = createRequire(import.meta.url)('parquet-wasm/node') as typeof ParquetWasm;

export interface ReadRequest {
  /** Top-level names or dotted paths into structs ("add.path"); absent = every column. */
  columns?: string[];
  rowGroups?: number[];
  /** Rows per decoded batch. parquet-wasm's default (1024) is slow; decoding is cheapest with large batches. */
  batchSize?: number;
  limit?: number;
  offset?: number;
}

export interface ParquetHandle {
  readonly path: string;
  readonly numRows: number;
  /** Rows per row group, in file order. */
  readonly rowGroupRows: number[];
  /** The file's Arrow schema (field metadata carries Parquet field ids as PARQUET:field_id). */
  readonly schema: Schema;
  read(request?: ReadRequest): Promise<Table>;
  /** The same rows as read(), one table per decoded batch. parquet-wasm still decodes a whole row group at a time,
   * but each batch then crosses into JavaScript on its own: read() encodes the whole result as one IPC stream inside
   * WebAssembly memory, which only ever grows, so a large read sets its size for the rest of the process. */
  stream(request: ReadRequest & { batchSize: number }): AsyncGenerator<Table>;
  close(): void;
}

const LARGE_BATCH = 1 << 20;

export async function openParquet(path: string): Promise<ParquetHandle> {
  let file: ParquetWasm.ParquetFile;
  let rowGroupRows: number[];
  let schema: Schema;
  try {
    // openAsBlob reports a missing file only as a generic TypeError; stat names the cause (ENOENT).
    await stat(path);
    file = await wasm.ParquetFile.fromFile(await openAsBlob(path));
    const meta = file.metadata();
    rowGroupRows = meta.rowGroups().map((rg) => rg.numRows());
    meta.free();
    schema = tableFromIPC(file.schema().intoIPCStream()).schema;
  } catch (err) {
    throw parquetError(path, err);
  }
  return {
    path,
    numRows: rowGroupRows.reduce((a, b) => a + b, 0),
    rowGroupRows,
    schema,
    async read(request: ReadRequest = {}): Promise<Table> {
      try {
        const decoded = await file.read({ ...request, batchSize: request.batchSize ?? LARGE_BATCH });
        return tableFromIPC(decoded.intoIPCStream());
      } catch (err) {
        throw parquetError(path, err);
      }
    },
    async *stream(request: ReadRequest & { batchSize: number }): AsyncGenerator<Table> {
      let reader: ReadableStreamDefaultReader<ParquetWasm.RecordBatch>;
      try {
        reader = ((await file.stream(request)) as ReadableStream<ParquetWasm.RecordBatch>).getReader();
      } catch (err) {
        throw parquetError(path, err);
      }
      let done = false;
      try {
        for (;;) {
          const next = await reader.read().catch((err: unknown) => {
            throw parquetError(path, err);
          });
          done = next.done;
          if (next.done) return;
          yield tableFromIPC(next.value.intoIPCStream());
        }
      } finally {
        // A consumer that stops early (a cancel) leaves row groups undecoded: the stream is told so it drops them.
        if (!done) await reader.cancel().catch(() => undefined);
      }
    },
    close(): void {
      file.free();
    },
  };
}

function parquetError(path: string, err: unknown): DeltaportError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new DeltaportError('MISSING_FILE', `data file is missing: ${path}`);
  const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new DeltaportError('CORRUPT_DATA', `cannot read Parquet file ${path}: ${detail}`);
}
