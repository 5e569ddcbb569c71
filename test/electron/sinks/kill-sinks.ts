// The rows and sinks of the SIGKILL runs (kill-runs.ts), the same in the process that is killed (kill-child.ts) and
// in the test that resumes its export: 5,000 numbered rows in batches of 250, one batch to a transaction, so that a kill
// falls between many commits.
import type { SinkSpec } from '../../../shared/sink-spec.js';
import type { BatchSink } from '../../../electron/sinks/sink.js';
import { NUMBERED_FIELDS, numberedTable, streamOf, type TestStream } from './sink-harness.js';

export type KillSinkKind = 'mysql' | 'duckdb';

export const KILL_ROWS = 5000;
export const KILL_BATCH_ROWS = 250;

export function killRows(): TestStream {
  return streamOf(numberedTable(KILL_ROWS), NUMBERED_FIELDS, KILL_BATCH_ROWS);
}

/** The sink of a kind, imported only when chosen (the killed process loads one). A batch is more than 2 kB of
 * MySQL's rows or of DuckDB's Parquet, so a transaction of 2 kB holds one. */
export async function loadKillSink(kind: KillSinkKind): Promise<(spec: SinkSpec) => BatchSink> {
  switch (kind) {
    case 'mysql': {
      const { createMysqlSink } = await import('../../../electron/sinks/mysql/mysql-sink.js');
      return (spec) => createMysqlSink(narrow(spec, 'mysql'), { transactionBytes: 2 << 10 });
    }
    case 'duckdb': {
      const { createDuckdbSink } = await import('../../../electron/sinks/duckdb/duckdb-sink.js');
      return (spec) => createDuckdbSink(narrow(spec, 'duckdb'), { transactionBytes: 2 << 10 });
    }
    default:
      throw new Error(`no kill sink of kind ${String(kind)}`);
  }
}

function narrow<K extends KillSinkKind>(spec: SinkSpec, kind: K): Extract<SinkSpec, { kind: K }> {
  if (spec.kind !== kind) throw new Error(`a ${spec.kind} spec given to the ${kind} sink`);
  return spec as Extract<SinkSpec, { kind: K }>;
}
