// Picks the sink for a spec. Each sink is imported only when chosen, so that a CSV export or a preview never loads
// pg or better-sqlite3 (and the CLI starts fast). The spec was checked where the export started (checked-sink.ts).
import { csvStyleOf } from '../../shared/csv-style.js';
import type { CheckedSink } from './checked-sink.js';
import type { StorageResolver } from '../storage/storage.js';
import type { BatchSink } from './sink.js';

/** `storage`: where a file target is written (the export's engine's storage). */
export async function createSink(spec: CheckedSink, storage: StorageResolver): Promise<BatchSink> {
  switch (spec.kind) {
    case 'sqlite':
      return (await import('./sqlite-sink.js')).createSqliteSink(spec);
    case 'postgres':
      return (await import('./postgres-sink.js')).createPostgresSink(spec);
    case 'parquet':
      return (await import('./parquet-sink.js')).createParquetSink(spec.path, storage);
    case 'csv':
      return (await import('./csv-sink.js')).createCsvSink(spec.path, csvStyleOf(spec), storage);
    case 'jsonl':
      return (await import('./jsonl-sink.js')).createJsonlSink(spec.path, storage);
  }
}
