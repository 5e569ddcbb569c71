// The benchmark's two Delta tables, written at run time by the project's writer: a wide table (rows x 8 columns in
// a few appends, then a delete through a deletion vector) and a long log (many small commits, checkpointed).
import path from 'node:path';
import type { StructType } from '../../shared/delta-schema.js';
import { dataFileSchema, dataTable } from '../support/delta-writer/data-columns.js';
import { DeltaTableWriter } from '../support/delta-writer/table-writer.js';
import { WIDE_SCHEMA, wideArrowTable, wideChunk } from './wide-data.js';

export const SEED = 20240101;
const APPEND_COMMITS = 4;
/** Every DELETED_EVERY-th row of the first file is deleted through a deletion vector. */
const DELETED_EVERY = 10;

export interface WideTable {
  root: string;
  /** Rows in the data files. */
  writtenRows: number;
  /** Rows of the latest snapshot (written minus deleted). */
  liveRows: number;
  files: number;
  bytes: number;
  version: number;
}

// Dictionary encoding in parquet-wasm costs about five times the write time on these mostly unique columns.
const WRITE_OPTIONS = { dictionary: false as const };

export async function writeWideTable(dir: string, rows: number, files: number): Promise<WideTable> {
  const root = path.join(dir, 'wide');
  const writer = await DeltaTableWriter.create(root, {
    schema: WIDE_SCHEMA,
    deletionVectors: true,
    ...WRITE_OPTIONS,
  });
  const perFile = Math.ceil(rows / files);
  const filesPerCommit = Math.ceil(files / APPEND_COMMITS);
  for (let first = 0; first < files; first += filesPerCommit) {
    const parts = [];
    for (let f = first; f < Math.min(files, first + filesPerCommit); f++) {
      const start = f * perFile;
      const length = Math.min(perFile, rows - start);
      if (length > 0) parts.push({ data: wideArrowTable(wideChunk(start, length, SEED)) });
    }
    await writer.append(parts);
  }
  const firstFile = writer.files()[0];
  const firstRows = Math.min(perFile, rows);
  const deleted = Array.from({ length: Math.ceil(firstRows / DELETED_EVERY) }, (_, k) => k * DELETED_EVERY);
  await writer.deleteRows(firstFile.path, deleted, { predicate: `id % ${DELETED_EVERY} = 0 AND id < ${firstRows}` });
  const live = writer.files();
  return {
    root,
    writtenRows: rows,
    liveRows: rows - deleted.length,
    files: live.length,
    bytes: live.reduce((n, f) => n + f.size, 0),
    version: writer.version,
  };
}

const LONG_SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: false, metadata: {} },
    { name: 'reading', type: 'double', nullable: true, metadata: {} },
    { name: 'sensor', type: 'string', nullable: true, metadata: {} },
  ],
};
const LONG_FILE_SCHEMA = dataFileSchema(LONG_SCHEMA);
const ROWS_PER_COMMIT = 10;
/** Every COMPACT_EVERY-th commit rewrites an earlier file instead of appending, so the log carries removes too. */
const COMPACT_EVERY = 25;
const MINUTE = 60_000;

export interface LongLog {
  root: string;
  commits: number;
  /** Commit time of version v, epoch ms. */
  timeOf(version: number): number;
}

export async function writeLongLog(dir: string, commits: number, checkpointInterval: number): Promise<LongLog> {
  const root = path.join(dir, 'long-log');
  const start = Date.UTC(2024, 0, 1);
  const timeOf = (version: number) => start + version * MINUTE;
  const writer = await DeltaTableWriter.create(root, {
    schema: LONG_SCHEMA,
    checkpointInterval,
    timestamp: timeOf(0),
    ...WRITE_OPTIONS,
  });
  const rowsFrom = (first: number) => {
    const ids = Array.from({ length: ROWS_PER_COMMIT }, (_, k) => first + k);
    return dataTable(LONG_FILE_SCHEMA, {
      id: ids.map(BigInt),
      reading: ids.map((i) => ((i * 37) % 1000) / 10),
      sensor: ids.map((i) => `sensor-${i % 16}`),
    });
  };
  for (let v = 1; v < commits; v++) {
    if (v % COMPACT_EVERY === 0) {
      const [oldest] = writer.files();
      await writer.replaceFile(oldest.path, rowsFrom(v * ROWS_PER_COMMIT), {
        predicate: 'true',
        updatedRows: ROWS_PER_COMMIT,
        timestamp: timeOf(v),
      });
    } else {
      await writer.append([{ data: rowsFrom(v * ROWS_PER_COMMIT) }], { timestamp: timeOf(v) });
    }
  }
  return { root, commits, timeOf };
}
