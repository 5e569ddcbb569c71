// The rows and sinks of the SIGKILL runs (kill-runs.ts), the same in the process that is killed (kill-child.ts) and
// in the test that resumes its export: 5,000 numbered rows in batches of 250, one batch to a transaction, so that a kill
// falls between many commits. The 'duckdb-files' runs export the same rows from a Delta table of 20 files of 250 rows
// (partitioned, so that the reader's order of its files, by path, is the order of their ids), whose own files the
// DuckDB sink reads itself, one file to a transaction.
import path from 'node:path';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { openRows } from '../../../electron/export/open-rows.js';
import type { BatchSink } from '../../../electron/sinks/sink.js';
import { DeltaTableWriter } from '../../support/delta-writer/table-writer.js';
import { openLocal } from '../../support/task-tables.js';
import { drive, NUMBERED_FIELDS, numberedTable, streamOf, type TestStream } from './sink-harness.js';

export type KillSinkKind = 'mysql' | 'duckdb' | 'duckdb-files';

export const KILL_ROWS = 5000;
export const KILL_BATCH_ROWS = 250;
/** Where the 'duckdb-files' runs' Delta table is (written by writeKillTable), for the processes they start. */
const KILL_TABLE = 'DELTAPORT_KILL_TABLE';

export function killRows(): TestStream {
  return streamOf(numberedTable(KILL_ROWS), NUMBERED_FIELDS, KILL_BATCH_ROWS);
}

/** Writes the 'duckdb-files' runs' table into `folder` and tells the processes started from now on where it is. */
export async function writeKillTable(folder: string): Promise<void> {
  const root = path.join(folder, 'numbered');
  const fields = [...NUMBERED_FIELDS, { name: 'file', type: 'string' as const, nullable: false }];
  const writer = await DeltaTableWriter.create(root, { schema: { type: 'struct', fields }, partitionColumns: ['file'] });
  const files = KILL_ROWS / KILL_BATCH_ROWS;
  await writer.append(
    Array.from({ length: files }, (_, f) => ({
      data: numberedTable(KILL_BATCH_ROWS, f * KILL_BATCH_ROWS),
      partitionValues: { file: String(f).padStart(2, '0') },
    })),
  );
  process.env[KILL_TABLE] = root;
}

/** The export of a kind, its sink imported only when chosen (the killed process loads one): it writes the rows after
 * those an earlier run committed, calls `afterStep` after each transaction (or batch) it hands the sink, and returns
 * how many it handed. A batch is more than 2 kB of MySQL's rows or of DuckDB's Parquet, and so is each of the Delta
 * table's files, so a transaction of 2 kB holds one. */
export async function loadKillExport(kind: KillSinkKind): Promise<(spec: SinkSpec, afterStep?: (i: number) => void) => Promise<number>> {
  const stream = killRows();
  switch (kind) {
    case 'mysql': {
      const { createMysqlSink } = await import('../../../electron/sinks/mysql/mysql-sink.js');
      return (spec, afterStep) =>
        drive(createMysqlSink(narrow(spec, 'mysql'), { transactionBytes: 2 << 10 }), stream, { afterBatch: afterStep });
    }
    case 'duckdb': {
      const { createDuckdbSink } = await import('../../../electron/sinks/duckdb/duckdb-sink.js');
      return (spec, afterStep) =>
        drive(createDuckdbSink(narrow(spec, 'duckdb'), { transactionBytes: 2 << 10 }), stream, { afterBatch: afterStep });
    }
    case 'duckdb-files': {
      const { createDuckdbSink } = await import('../../../electron/sinks/duckdb/duckdb-sink.js');
      const table = process.env[KILL_TABLE];
      if (!table) throw new Error(`${KILL_TABLE} is not set: writeKillTable writes the table first`);
      return (spec, afterStep) =>
        driveOwnFiles(
          createDuckdbSink(narrow(spec, 'duckdb'), { transactionBytes: 2 << 10, fileTransactionBytes: 2 << 10 }),
          table,
          afterStep,
        );
    }
    default:
      throw new Error(`no kill sink of kind ${String(kind)}`);
  }
}

/** open with the table's own files offered, the transactions the sink reads them in, close (abort on failure), as
 * runExport drives a sink; fails where the sink takes the batches instead. Returns the transactions written. */
async function driveOwnFiles(sink: BatchSink, table: string, afterStep?: (i: number) => void): Promise<number> {
  const rows = await openRows({ tablePath: table }, { openTable: openLocal });
  const signal = new AbortController().signal;
  let written = 0;
  try {
    await sink.open({ fields: rows.fields, schema: rows.schema, snapshot: rows.snapshot, signal, ownFiles: () => rows.ownFiles!() });
    const steps = sink.readsOwnFiles?.();
    if (!steps) throw new Error("the DuckDB sink took the batches, not the table's own files");
    for await (const step of steps) {
      if (step.rows === 0) continue;
      afterStep?.(written);
      written++;
    }
    await sink.close();
  } catch (err) {
    await sink.abort();
    throw err;
  }
  return written;
}

function narrow<K extends SinkSpec['kind']>(spec: SinkSpec, kind: K): Extract<SinkSpec, { kind: K }> {
  if (spec.kind !== kind) throw new Error(`a ${spec.kind} spec given to the ${kind} sink`);
  return spec as Extract<SinkSpec, { kind: K }>;
}
