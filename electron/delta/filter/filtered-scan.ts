// A filtered read: the files the log shows cannot match are left out before anything is opened (file-skipping.ts),
// the rest are scanned with the filter's columns added, and each decoded batch keeps only the rows where the filter
// is true (row-filter.ts), projected back to the requested columns and joined into batches of up to batchSize
// rows (slice-joiner.ts). Positions stay those of the unfiltered scan of the kept files, so a resumed export filters
// the same rows.
import { filterColumns, type Expr } from '../../../shared/expression/index.js';
import type { FilterSkipping } from '../../../shared/table-info.js';
import { columnMappingMode } from '../column-mapping.js';
import { canConcat } from '../engine/concat-batches.js';
import type { ScanBatch } from '../scan/scan-types.js';
import { SliceJoiner } from '../scan/slice-joiner.js';
import type { Snapshot } from '../snapshot.js';
import { fileMayMatch } from './file-skipping.js';
import type { FileStats } from './file-stats.js';
import { keptRows } from './row-filter.js';

export interface FilterPlan {
  expr: Expr;
  /** The snapshot with only the files that may hold matching rows. */
  snapshot: Snapshot;
  skipping: FilterSkipping;
}

/** `stats` holds each file's statistics in snapshot.files order. */
export function planFilter(snapshot: Snapshot, expr: Expr, stats: (FileStats | null)[]): FilterPlan {
  const table = {
    fields: snapshot.schema.fields,
    partitionColumns: new Set(snapshot.partitionColumns),
    mode: columnMappingMode(snapshot.metadata),
  };
  const files = snapshot.files.filter((file, i) => fileMayMatch(expr, file, stats[i], table));
  const bytes = (list: typeof files) => list.reduce((n, f) => n + f.add.size, 0);
  const bytesTotal = bytes(snapshot.files);
  return {
    expr,
    snapshot: { ...snapshot, files },
    skipping: {
      filesTotal: snapshot.files.length,
      filesSkipped: snapshot.files.length - files.length,
      bytesTotal,
      bytesSkipped: bytesTotal - bytes(files),
    },
  };
}

/** The columns to scan for a filtered read of `columns`: those, then the filter's own. */
export function scanColumns(columns: string[], expr: Expr): string[] {
  return [...new Set([...columns, ...filterColumns(expr)])];
}

/** The rows of `batches` (read with scanColumns) where the filter is true, as batches of `columns`. */
export async function* filterBatches(
  batches: AsyncIterable<ScanBatch>,
  expr: Expr,
  columns: string[],
  batchSize: number,
  limit = Infinity,
): AsyncGenerator<ScanBatch> {
  let remaining = limit;
  const joiner = new SliceJoiner(batchSize);
  let joinable: boolean | null = null;
  let last: ScanBatch | null = null;
  for await (const scanned of batches) {
    last = scanned;
    const projected = scanned.batch.select(columns);
    joinable ??= canConcat(projected.schema);
    // Scan batches never straddle files: the batch's first row is this many rows into its file.
    const first = scanned.end.rowsInFile - scanned.batch.numRows;
    for (const [from, to] of keptRows(expr, scanned.batch)) {
      for (let at = from; at < to && remaining > 0;) {
        const length = Math.min(to - at, joiner.room, remaining);
        remaining -= length;
        at += length;
        yield* joiner.add({
          batch: projected.slice(at - length, at),
          end: { fileIndex: scanned.end.fileIndex, rowsInFile: first + at },
          bytesDone: scanned.bytesDone,
          filesDone: scanned.filesDone,
        });
        if (!joinable || remaining === 0) yield* joiner.flush();
      }
    }
    if (remaining <= 0) return;
  }
  // The last batch ends where the scan did: the rows after its last kept one were read and filtered out.
  if (last) for (const batch of joiner.flush()) yield { ...batch, end: last.end, bytesDone: last.bytesDone, filesDone: last.filesDone };
}
