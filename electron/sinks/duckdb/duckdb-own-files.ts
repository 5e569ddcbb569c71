// A DuckDB export that reads the snapshot's own data files (duckdb/own-files.ts) instead of taking the reader's
// batches: each transaction inserts the rows of a range of whole files, read by DuckDB's Parquet reader through the
// view parquet-view.ts makes (no row passes through JavaScript). A range ends once its files reach the transaction's
// bytes, and where files with deletion vectors meet files without (an upsert reads a range's rows in the reader's
// order, which the view gives for files of one kind). The first few ranges are smaller, so that DuckDB's work and the
// first progress start sooner: an eighth, a quarter, a half of the bytes, as for batches (batching.ts
// transactionBytesAt), and at most 1, 2, 4, … files (a table's files may be far smaller than that). Each transaction
// is committed with the stream's position after its last file, so an exactly-once job's ledger means what it means for
// batches: these rows are in, and a resume starts with the next file.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FileRange, OwnFiles } from '../../duckdb/own-files.js';
import { transactionBytesAt, type StreamProgress } from '../batching.js';
import type { WrittenRows } from '../sink.js';
import type { SqlBatchSink } from '../sql-sink.js';

/** A transaction's rows: the Parquet parts its batches were written to, or a range of the snapshot's own files. */
export type DuckdbRows = string[] | FileRange;

/** The steps of the export over the offered files, or null where it must take the batches: an earlier run of its
 * exactly-once job stopped inside a file (it took the batches then). `connection` counts rows the log does not. */
export async function ownFileWrites(
  sink: SqlBatchSink<DuckdbRows>,
  files: OwnFiles,
  connection: () => Promise<DuckDBConnection>,
  transactionBytes: number,
): Promise<AsyncIterable<WrittenRows> | null> {
  const { progress, done } = sink.resumed();
  if (done) return (async function* () {})();
  if (progress === null) return null;
  const opened = await connection();
  let rows: number[];
  try {
    rows = await files.rows(opened);
  } finally {
    opened.closeSync();
  }
  const start = firstFile(progress, rows);
  return start === null ? null : transactions(sink, files, rows, start, transactionBytes);
}

/** The file the stream resumes with, or null where it resumes inside one. */
function firstFile({ position, rowsAfter }: StreamProgress, rows: number[]): number | null {
  if (rowsAfter > 0) return null;
  if (position === null) return 0;
  if (position.rowsInFile === 0) return position.fileIndex;
  return position.rowsInFile === rows[position.fileIndex] ? position.fileIndex + 1 : null;
}

async function* transactions(
  sink: SqlBatchSink<DuckdbRows>,
  files: OwnFiles,
  rows: number[],
  start: number,
  transactionBytes: number,
): AsyncGenerator<WrittenRows> {
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  let bytesDone = sum(files.bytes.slice(0, start));
  for (let from = start, index = 0; from < rows.length; index++) {
    const budget = transactionBytesAt(transactionBytes, index);
    let to = from + 1;
    let bytes = files.bytes[from];
    const most = from + 2 ** index;
    while (to < rows.length && to < most && bytes < budget && files.deletionVectors[to] === files.deletionVectors[from]) {
      bytes += files.bytes[to++];
    }
    const count = sum(rows.slice(from, to));
    await sink.writeTransaction({ from, to }, count, { position: { fileIndex: to, rowsInFile: 0 }, rowsAfter: 0 });
    bytesDone += bytes;
    yield { rows: count, filesDone: to, bytesDone };
    from = to;
  }
}
