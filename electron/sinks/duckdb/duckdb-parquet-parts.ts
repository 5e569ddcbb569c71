// A transaction's rows as temporary Parquet files, which DuckDB reads itself (read_parquet) in the transaction's
// INSERT: Arrow's types pass through Parquet unchanged (decimals, timestamps with and without a zone, structs, lists,
// maps; variants are already JSON text), and DuckDB's own Parquet reader fills its vectors in C++ on its threads
// while the next transaction is encoded here, instead of a JavaScript call per cell through the appender
// (docs/exporting.md, "The fastest path in, measured"). The files lie in a folder beside the database file (on its
// disk, not in a temporary folder that may be memory); each transaction's go once it commits, and the folder when
// the export ends. A killed export leaves it behind: the next export into the file removes it first.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Table, tableToIPC, type RecordBatch } from 'apache-arrow';
import { guarded, wasmInstance } from '../../delta/engine/parquet-wasm-instance.js';
import type { TransactionRows } from '../sql-sink.js';

/** Rows per file: each file crosses into WebAssembly whole (as IPC, then as Parquet), and the instance's memory
 * never shrinks, so a part is kept to the Parquet sink's feed size (parquet-sink.ts). */
const PART_ROWS = 16_384;

/** The temporary files of an export's transactions, in one folder. */
export class ParquetParts {
  private made = 0;

  /** `folder` is the export's own while it holds the database's lock. */
  constructor(private readonly folder: string) {}

  /** Makes the folder anew, without what a killed export left in it. Called once the database's lock is held, so
   * that no other export's files are there. */
  reset(): void {
    this.dispose();
    mkdirSync(this.folder);
  }

  /** A new transaction's rows: its batches are written out a part at a time as they come. */
  transaction(): TransactionRows<string[]> {
    const files: string[] = [];
    let pending: RecordBatch[] = [];
    let pendingRows = 0;
    /** The pending batches' size in memory, which stands for their Parquet bytes until they are written out: a
     * transaction of batches smaller than a part must end at its size too. */
    let pendingBytes = 0;
    let bytes = 0;
    const writePending = (): void => {
      if (pendingRows === 0) return;
      const data = parquetBytes(pending);
      pending = [];
      pendingRows = 0;
      pendingBytes = 0;
      const file = this.nextFile();
      files.push(file);
      bytes += data.length;
      // Written at once: the file is a few MB into the page cache, and finish() must hand over files that exist.
      writeFileSync(file, data);
    };
    return {
      accepts: () => true,
      add: async (chunks) => {
        for (const chunk of chunks) {
          if (chunk.numRows === 0) continue;
          pending.push(chunk);
          pendingRows += chunk.numRows;
          pendingBytes += chunk.data.byteLength;
          if (pendingRows >= PART_ROWS) writePending();
        }
      },
      get bytes() {
        return bytes + pendingBytes;
      },
      finish: () => {
        writePending();
        return files;
      },
    };
  }

  /** Removes a committed transaction's files. */
  remove(files: string[]): void {
    for (const file of files) rmSync(file, { force: true });
  }

  /** Removes the folder and whatever is left in it (the files of transactions that never committed). */
  dispose(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }

  private nextFile(): string {
    return path.join(this.folder, `part-${this.made++}.parquet`);
  }
}

/** Batches of one schema as one Parquet file's bytes: uncompressed and without dictionaries, since the file lives only
 * until DuckDB has read it once and either would cost the writer more CPU than the disk saves. */
function parquetBytes(batches: RecordBatch[]): Uint8Array {
  const on = wasmInstance();
  const wasm = on.api;
  return guarded(on, () => {
    const table = wasm.Table.fromIPCStream(tableToIPC(new Table(batches), 'stream'));
    const properties = new wasm.WriterPropertiesBuilder()
      .setCompression(wasm.Compression.UNCOMPRESSED)
      .setDictionaryEnabled(false)
      .setStatisticsEnabled(wasm.EnabledStatistics.None)
      .setMaxRowGroupSize(PART_ROWS)
      .build();
    return wasm.writeParquet(table, properties);
  });
}
