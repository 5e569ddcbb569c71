// A query's result as an export's row source (export/row-source.ts), so that it goes to every sink a snapshot goes to. It
// has no scan positions to resume from, so an exactly-once export of it is refused, and no files to count as progress.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SqlSourceSpec } from '../../shared/change-source.js';
import { DeltaportError } from '../../shared/errors.js';
import type { RowSource } from '../export/row-source.js';
import { DEFAULT_MEMORY_LIMIT, SqlEngine, sqlTables, type OpenTable, type SqlResult } from './sql-engine.js';

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

/** Runs the query of an export's source (the app's Export these rows) in an engine of its own, its tables opened by
 * `openTable`, which `use` reads the result from; the engine and its spill folder are gone when `use` ends, whatever the outcome. */
export async function withSqlSource<T>(
  spec: SqlSourceSpec,
  openTable: OpenTable,
  signal: AbortSignal | undefined,
  use: (rows: RowSource) => Promise<T>,
): Promise<T> {
  const tempDirectory = mkdtempSync(path.join(tmpdir(), 'deltaport-sql-export-'));
  try {
    const engine = await SqlEngine.open({ memoryLimit: DEFAULT_MEMORY_LIMIT, tempDirectory }, openTable);
    try {
      const result = await engine.query({ sql: spec.sql, tables: sqlTables(spec.tables), signal });
      return await use(sqlExportInput(result));
    } finally {
      await engine.close();
    }
  } finally {
    rmSync(tempDirectory, { recursive: true, force: true });
  }
}
