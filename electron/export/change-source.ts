// The rows a change source names (shared/change-source.ts), opened on the table as an export's row source: a diff's
// (updates paired by key when asked) or a change feed's. Opening checks what needs the table (the versions are
// readable, the feed is recorded over the range, the key columns exist) before a row is read, so a job, a plan or
// the check before a job starts says what is wrong at once.
import type { ChangeSourceSpec } from '../../shared/change-source.js';
import type { RowSource } from './row-source.js';
import { DeltaTable } from '../delta/table.js';
import { changeExportInput } from './change-export.js';

export interface OpenChangeOptions {
  /** For an export's progress: a change feed's files are then counted from its commits up front. */
  measure?: boolean;
  openTable: (tablePath: string) => Promise<DeltaTable>;
  /** What the caller's user calls the pair-by keys, for the message about a wrong one (default pairBy). */
  pairBySetting?: string;
}

export async function openChangeSource(spec: ChangeSourceSpec, options: OpenChangeOptions): Promise<RowSource> {
  const { openTable } = options;
  const table = await openTable(spec.tablePath);
  if (spec.rows === 'changes') {
    const { changeFeed } = await import('../delta/change/change-feed.js');
    const feed = await changeFeed(table, spec.from, spec.to);
    return changeExportInput(
      feed.fields,
      feed.schema,
      feed.snapshot,
      (signal, onFileRead) => feed.rows(signal, onFileRead),
      options.measure ? await feed.toRead() : undefined,
    );
  }
  const { checkPairKeys, diffSnapshots, pairedRows } = await import('../delta/change/snapshot-diff.js');
  const diff = await diffSnapshots(table, spec.from, spec.to);
  const keys = spec.pairBy ?? [];
  checkPairKeys(diff, keys, options.pairBySetting ?? 'pairBy');
  return changeExportInput(
    diff.fields,
    diff.rowSchema,
    diff.newer,
    (signal, onFileRead) => (keys.length > 0 ? pairedRows(diff, keys, signal, onFileRead) : diff.rows(signal, onFileRead)),
    diff.toRead,
  );
}
