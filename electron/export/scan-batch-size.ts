// An export into SQLite scans in batches of its sink's batch size where that is larger than the scan's default
// (2048 rows) and the source sets no parquetBatchSize: the sink then takes each scanned batch as one transaction of
// its own, instead of joining 2048-row batches into 5,000-row ones. On the benchmark's wide table that took 0.97x the
// CPU at the same peak (docs/benchmark.md, "an export's scan in the sink's batches"). PostgreSQL's COPY measured 0.94x
// the CPU but peaked 5-11 MiB higher, against the memory target: its scan keeps the default. Smaller sink batches are
// slices of the scan's, which cost nothing, where smaller scanned batches would each cost a crossing out of the
// decoder.
import { isChangeSource, type ExportSource } from '../../shared/change-source.js';
import type { SinkSpec } from '../../shared/sink-spec.js';
import { DEFAULT_PARQUET_BATCH_SIZE } from '../../shared/source-spec.js';
import { DECODE_ROWS } from '../delta/scan/scan-decode.js';

/** The source as an export into `sink` reads it. A scanned batch never spans more rows than a piece of the read
 * decodes at once: larger transactions are joined from those. */
export function scanForSink<T extends ExportSource>(source: T, sink: SinkSpec): T {
  // A table's changes and a query's result (both isChangeSource) read no snapshot with this option.
  if (isChangeSource(source) || sink.kind !== 'sqlite') return source;
  if (source.options?.parquetBatchSize !== undefined) return source;
  const rows = Math.min(sink.execution.batchSize, DECODE_ROWS);
  return rows <= DEFAULT_PARQUET_BATCH_SIZE ? source : { ...source, options: { ...source.options, parquetBatchSize: rows } };
}
