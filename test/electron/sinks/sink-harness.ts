// Drives a BatchSink the way the export pipeline does, over batches the tests build themselves: positions are those
// of a scan over files of `rowsPerFile` rows, so a resumed sink can be fed from where it says it stopped.
import * as arrow from 'apache-arrow';
import type { StructField } from '../../../shared/delta-schema.js';
import type { ExecutionOptions, MysqlConnection, PostgresConnection, SinkSpec, SqlTargetOptions } from '../../../shared/sink-spec.js';
import type { ScanBatch, ScanPosition } from '../../../electron/delta/scan/scan-types.js';
import { checkSink } from '../../../electron/sinks/checked-sink.js';
import type { BatchSink } from '../../../electron/sinks/sink.js';
import { localReads } from '../../support/task-tables.js';

export interface TestStream {
  fields: StructField[];
  schema: arrow.Schema;
  batches: ScanBatch[];
}

/** Splits a table into scan batches of `perBatch` rows that never cross a file of `rowsPerFile` rows. */
export function streamOf(table: arrow.Table, fields: StructField[], perBatch: number, rowsPerFile = table.numRows): TestStream {
  if (table.batches.length !== 1) throw new Error('streamOf takes a table of one record batch');
  const whole = table.batches[0];
  const batches: ScanBatch[] = [];
  for (let start = 0; start < table.numRows;) {
    const fileIndex = Math.floor(start / rowsPerFile);
    const fileEnd = Math.min(table.numRows, (fileIndex + 1) * rowsPerFile);
    const end = Math.min(fileEnd, start + perBatch);
    batches.push({
      batch: whole.slice(start, end),
      end: { fileIndex, rowsInFile: end - fileIndex * rowsPerFile },
      bytesDone: 0,
      filesDone: fileIndex,
    });
    start = end;
  }
  return { fields, schema: table.schema, batches };
}

export function snapshotOf(tableId = 'test-table', version = 0) {
  return { tableId, tableRoot: '/nowhere', version };
}

/** Index of the first batch after a resume position. */
function resumeIndex(batches: ScanBatch[], at: ScanPosition | null): number {
  if (!at) return 0;
  const i = batches.findIndex((b) => b.end.fileIndex === at.fileIndex && b.end.rowsInFile === at.rowsInFile);
  if (i < 0) throw new Error(`resume position ${JSON.stringify(at)} is not a batch end`);
  return i + 1;
}

export interface DriveOptions {
  signal?: AbortSignal;
  snapshot?: ReturnType<typeof snapshotOf>;
  /** Called after each batch is written (for fault injection); its index in the stream. */
  afterBatch?: (index: number) => Promise<void> | void;
}

/** As an export does: the spec checked against the stream's columns (export/run-export.ts), then the sink made of it
 * and driven; bad input is refused before the sink exists. */
export async function driveChecked<S extends SinkSpec>(spec: S, make: (spec: S) => BatchSink, stream: TestStream): Promise<number> {
  await checkSink(
    spec,
    stream.fields.map((f) => f.name),
    localReads.storage,
  );
  return drive(make(spec), stream);
}

/** open, write every batch after the resume position, close; abort on failure. Returns the batches written. */
export async function drive(sink: BatchSink, stream: TestStream, options: DriveOptions = {}): Promise<number> {
  const signal = options.signal ?? new AbortController().signal;
  let written = 0;
  try {
    const at = await sink.open({ fields: stream.fields, schema: stream.schema, snapshot: options.snapshot ?? snapshotOf(), signal });
    for (let i = resumeIndex(stream.batches, at); i < stream.batches.length; i++) {
      await sink.write(stream.batches[i]);
      written++;
      await options.afterBatch?.(i);
    }
    await sink.close();
  } catch (err) {
    await sink.abort();
    throw err;
  }
  return written;
}

/** A table of `rows` rows: id (long) 0..rows-1 and label (string) "row <id>". */
export function numberedTable(rows: number, from = 0): arrow.Table {
  const ids = new BigInt64Array(rows);
  const labels: string[] = [];
  for (let i = 0; i < rows; i++) {
    ids[i] = BigInt(from + i);
    labels.push(`row ${from + i}`);
  }
  return new arrow.Table({ id: arrow.makeVector(ids), label: arrow.vectorFromArray(labels, new arrow.Utf8()) });
}

export const NUMBERED_FIELDS: StructField[] = [
  { name: 'id', type: 'long', nullable: false },
  { name: 'label', type: 'string', nullable: true },
];

type Options = Partial<SqlTargetOptions & ExecutionOptions & { connections: number }>;

function target(options: Options): SqlTargetOptions {
  return {
    table: options.table ?? 'target',
    mode: options.mode ?? 'append',
    keyColumns: options.keyColumns,
    sql: options.sql,
    execution: { batchSize: options.batchSize ?? 5000, batchIntervalMs: options.batchIntervalMs ?? 0, maxRetries: options.maxRetries ?? 3 },
    exactlyOnce: options.exactlyOnce ?? false,
  };
}

export function sqliteSpec(path: string, options: Options = {}): Extract<SinkSpec, { kind: 'sqlite' }> {
  return { kind: 'sqlite', path, ...target(options) };
}

export function duckdbSpec(path: string, options: Options = {}): Extract<SinkSpec, { kind: 'duckdb' }> {
  return { kind: 'duckdb', path, ...target(options) };
}

export function pgSpec(connection: PostgresConnection, options: Options = {}): Extract<SinkSpec, { kind: 'postgres' }> {
  return {
    kind: 'postgres',
    connection,
    ...target(options),
    ...(options.connections === undefined ? {} : { connections: options.connections }),
  };
}

export function mysqlSpec(connection: MysqlConnection, options: Options = {}): Extract<SinkSpec, { kind: 'mysql' }> {
  return { kind: 'mysql', connection, ...target(options) };
}
