// Writes Arrow tables as Parquet through parquet-wasm; the data crosses into wasm as an Arrow IPC stream.
import { tableToIPC, type Table } from 'apache-arrow';
import * as wasm from 'parquet-wasm/node';

export type ParquetCompression = 'snappy' | 'zstd' | 'uncompressed';

export interface ParquetWriteOptions {
  compression?: ParquetCompression;
  /** Rows per row group; parquet-wasm's default is about a million. */
  rowGroupRows?: number;
  /**
   * Dictionary encoding: on for every column (default), off, or on only for the named columns. It pays for
   * low-cardinality columns and costs a lot of write time (and some size) on unique ones.
   */
  dictionary?: boolean | string[];
}

const CODECS: Record<ParquetCompression, wasm.Compression> = {
  snappy: wasm.Compression.SNAPPY,
  zstd: wasm.Compression.ZSTD,
  uncompressed: wasm.Compression.UNCOMPRESSED,
};

export function encodeParquet(table: Table, options: ParquetWriteOptions = {}): Uint8Array {
  let builder = new wasm.WriterPropertiesBuilder()
    .setCompression(CODECS[options.compression ?? 'snappy'])
    .setCreatedBy('deltaport delta-writer');
  if (options.rowGroupRows) builder = builder.setMaxRowGroupSize(options.rowGroupRows);
  const dictionary = options.dictionary ?? true;
  if (Array.isArray(dictionary)) {
    builder = builder.setDictionaryEnabled(false);
    for (const column of dictionary) builder = builder.setColumnDictionaryEnabled(column, true);
  } else {
    builder = builder.setDictionaryEnabled(dictionary);
  }
  const wasmTable = wasm.Table.fromIPCStream(tableToIPC(table, 'stream'));
  // writeParquet takes ownership of the wasm table and the properties.
  return wasm.writeParquet(wasmTable, builder.build());
}
