// A query's result as an export's row source (export/row-source.ts), so that it goes to every sink a snapshot goes to. It
// has no scan positions to resume from, so an exactly-once export of it is refused, and no files to count as progress.
import { DeltaportError } from '../../shared/errors.js';
import type { RowSource } from '../export/row-source.js';
import type { SqlResult } from './sql-engine.js';

export const SQL_NOT_EXACTLY_ONCE = 'a query result cannot be exported exactly once: it has no position to resume from';

export function sqlExportInput(result: SqlResult): RowSource {
  // The sink's record of where rows came from names the first table the query read.
  const first = result.snapshots[0];
  return {
    fields: result.fields,
    schema: result.schema,
    snapshot: { tableId: first?.tableId ?? '', tableRoot: first?.location ?? '', version: first?.version ?? 0 },
    filesTotal: 0,
    bytesTotal: 0,
    async *batches(resumeFrom) {
      if (resumeFrom) throw new DeltaportError('VALIDATION', SQL_NOT_EXACTLY_ONCE);
      let written = 0;
      for await (const batch of result.batches) {
        written += batch.numRows;
        yield { batch, end: { fileIndex: 0, rowsInFile: written }, bytesDone: 0, filesDone: 0 };
      }
    },
  };
}
