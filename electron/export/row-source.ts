// What an export writes: rows from anywhere (a snapshot's scan, a diff, a change feed, a query's result), with what
// the sink needs to know of them. export/run-export.ts takes any of them; export/open-rows.ts opens the ones an
// export request names.
import type { Schema } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import type { SinkSpec } from '../../shared/sink-spec.js';
import type { FilterSkipping } from '../../shared/table-info.js';
import type { ScanBatch, ScanPosition } from '../delta/scan/scan-types.js';
import type { OwnFiles } from '../duckdb/own-files.js';
import type { SinkOpenContext } from '../sinks/sink.js';

export interface RowSource {
  fields: StructField[];
  schema: Schema;
  /** The snapshot the sink is told it receives (what an exactly-once job's key names). */
  snapshot: SinkOpenContext['snapshot'];
  /** The files and bytes reading the rows takes, as the export's progress (0 when unknown). */
  filesTotal: number;
  bytesTotal: number;
  /** With a filter: the files it let the read skip (filesTotal counts only the others). */
  skipping?: FilterSkipping;
  /** The rows from the start, or after `resumeFrom` (an exactly-once job's last committed position). `reuseBuffers`:
   * the consumer takes batches whose buffers the scan reuses (ScanOptions.reuseBuffers, BatchSink.takesReusedBuffers);
   * a source that cannot tell that safe ignores it. */
  batches(resumeFrom: ScanPosition | undefined, signal: AbortSignal, reuseBuffers?: boolean): AsyncIterable<ScanBatch>;
  /** What the rows refuse for this sink that only reading them can tell (a snapshot's NULL upsert keys), asked
   * after the sink spec is checked and before the sink is made; null when nothing. */
  sinkProblem?(sink: SinkSpec, signal?: AbortSignal): Promise<string | null>;
  /** A snapshot's own data files, where DuckDB reads them exactly as the reader reads the rows: a sink that can read
   * them itself does, instead of taking the batches (duckdb/own-files.ts). Null where it cannot; asked only by such
   * a sink, so that no other export loads DuckDB. */
  ownFiles?(): Promise<OwnFiles | null>;
}
