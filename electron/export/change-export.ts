// A diff's or a change feed's rows as an export's row source (export/row-source.ts), so that they go to every sink a
// snapshot goes to, with the files they read (of `toRead`, when known) as the progress. They have no scan positions
// to resume from: an exactly-once export of them is refused.
import type { RecordBatch, Schema } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { CHANGES_NOT_EXACTLY_ONCE } from '../../shared/change-source.js';
import { DeltaportError } from '../../shared/errors.js';
import type { RowSource } from './row-source.js';
import type { Snapshot } from '../delta/snapshot.js';

export function changeExportInput(
  fields: StructField[],
  schema: Schema,
  snapshot: Snapshot,
  rows: (signal: AbortSignal, onFileRead: (bytes: number) => void) => AsyncIterable<RecordBatch>,
  toRead: { files: number; bytes: number } = { files: 0, bytes: 0 },
): RowSource {
  return {
    fields,
    schema,
    snapshot: { tableId: snapshot.metadata.id, tableRoot: snapshot.tableRoot, version: snapshot.version },
    filesTotal: toRead.files,
    bytesTotal: toRead.bytes,
    async *batches(resumeFrom, signal) {
      if (resumeFrom) throw new DeltaportError('VALIDATION', CHANGES_NOT_EXACTLY_ONCE);
      let written = 0;
      const read = { files: 0, bytes: 0 };
      const onFileRead = (bytes: number) => {
        read.files += 1;
        read.bytes += bytes;
      };
      for await (const batch of rows(signal, onFileRead)) {
        written += batch.numRows;
        yield { batch, end: { fileIndex: 0, rowsInFile: written }, bytesDone: read.bytes, filesDone: read.files };
      }
    },
  };
}
