// A snapshot's rows (an opened source: delta/source.ts) as an export's row source: its scan, resumable from any
// position, with the files it reads as the progress and its NULL upsert keys as a refusal. It offers its own data files
// to a sink that reads them itself (the DuckDB sink), unless the reader's filter keeps only some of their rows.
import { scannedSnapshot, type DeltaSource } from '../delta/source.js';
import type { SinkOpenContext } from '../sinks/sink.js';
import { nullKeyProblem } from './null-keys.js';
import type { RowSource } from './row-source.js';

export function snapshotRows(source: DeltaSource): RowSource {
  // Progress counts the files read: with a filter, those it could not skip, and says how many it skipped.
  const snapshot = scannedSnapshot(source);
  const skipping = source.filter?.skipping;
  return {
    fields: source.fields,
    schema: source.schema,
    snapshot: sinkSnapshot(source),
    filesTotal: snapshot.files.length,
    bytesTotal: snapshot.files.reduce((sum, f) => sum + f.add.size, 0),
    ...(skipping ? { skipping } : {}),
    batches: (resumeFrom, signal, reuseBuffers) => source.batches({ signal, resumeFrom, reuseBuffers }),
    sinkProblem: (sink, signal) => nullKeyProblem(source, sink, signal),
    ownFiles: async () => (source.filter ? null : (await import('../duckdb/parquet-view.js')).ownFiles(source)),
  };
}

/** The snapshot a sink is told it receives (what an exactly-once job's key names): the filtered one with a filter. */
export function sinkSnapshot(source: DeltaSource): SinkOpenContext['snapshot'] {
  const snapshot = scannedSnapshot(source);
  return { tableId: snapshot.metadata.id, tableRoot: snapshot.tableRoot, version: snapshot.version };
}
