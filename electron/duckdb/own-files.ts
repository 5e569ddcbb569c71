// A snapshot's own data files, offered by an export's row source (export/snapshot-rows.ts) where DuckDB reads them
// exactly as the reader does (parquet-view.ts), to a sink that reads them itself (the DuckDB sink): no row passes
// through JavaScript. The sink takes them in groups of whole files in the reader's order, so that an exactly-once
// job's committed prefix of rows is always a number of whole files.
import type { DuckDBConnection } from '@duckdb/node-api';

/** Files `from` up to `to` (not included) of the snapshot's, in the reader's order. */
export interface FileRange {
  from: number;
  to: number;
}

export interface OwnFiles {
  /** Each file's size in bytes, in the reader's order: the progress, and what a transaction's size is counted in. */
  bytes: number[];
  /** Whether each file has a deletion vector: a range whose rows must come in the reader's order has files all of
   * one kind (parquet-view.ts reads the two kinds apart). */
  deletionVectors: boolean[];
  /** Each file's rows as the reader reads them (its deletion vector applied). */
  rows(connection: DuckDBConnection): Promise<number[]>;
  /** Makes `view` (a temporary view, with helper tables named from it) read the rows of the files in `range`;
   * `ordered`: in the reader's order. */
  view(connection: DuckDBConnection, view: string, range: FileRange, ordered: boolean): Promise<void>;
}
