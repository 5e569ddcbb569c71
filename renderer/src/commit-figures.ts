// What a commit changed, read from its operationMetrics. Engines name the same figure differently per operation
// (WRITE, MERGE, UPDATE, DELETE, OPTIMIZE...), so each figure is the first of its names that the commit records.
import type { CommitSummary } from '../../shared/table-info.js';
import { formatCount } from './format.js';

export type ChartMetric = 'rows' | 'bytes';

const ADDED: Record<ChartMetric, string[]> = {
  rows: ['numOutputRows', 'numTargetRowsInserted', 'numInsertedRows', 'numUpdatedRows'],
  bytes: ['numOutputBytes', 'numAddedBytes'],
};
const REMOVED: Record<ChartMetric, string[]> = {
  rows: ['numDeletedRows', 'numTargetRowsDeleted'],
  bytes: ['numRemovedBytes'],
};
const FILES_ADDED = ['numFiles', 'numAddedFiles', 'numTargetFilesAdded'];
const FILES_REMOVED = ['numRemovedFiles', 'numTargetFilesRemoved'];

function firstMetric(metrics: Record<string, unknown>, names: string[]): number | null {
  for (const name of names) {
    const n = Number(metrics[name]);
    if (metrics[name] !== undefined && Number.isFinite(n)) return n;
  }
  return null;
}

export function commitFigures(commit: CommitSummary, metric: ChartMetric): { added: number | null; removed: number | null } {
  return {
    added: firstMetric(commit.operationMetrics, ADDED[metric]),
    removed: firstMetric(commit.operationMetrics, REMOVED[metric]),
  };
}

const INSERTED = ['numOutputRows', 'numTargetRowsInserted', 'numInsertedRows'];
const UPDATED = ['numUpdatedRows', 'numTargetRowsUpdated'];

/** "+1,000 ~5 −20 rows · +3 −1 files": inserted, updated and removed rows, added and removed files; zeros left out,
 * "" when the commit records none of them. */
export function commitSummaryText(commit: CommitSummary): string {
  const m = commit.operationMetrics;
  const signed = (sign: string, n: number | null) => (n ? `${sign}${formatCount(n)}` : '');
  const rows = [
    signed('+', firstMetric(m, INSERTED)),
    signed('~', firstMetric(m, UPDATED)),
    signed('−', firstMetric(m, REMOVED.rows)),
  ].filter(Boolean);
  const files = [signed('+', firstMetric(m, FILES_ADDED)), signed('−', firstMetric(m, FILES_REMOVED))].filter(Boolean);
  return [rows.length ? `${rows.join(' ')} rows` : '', files.length ? `${files.join(' ')} files` : ''].filter(Boolean).join(' · ');
}
