// The pieces of a change data feed the History tab works out itself: whether the snapshot records one, and how many
// rows of each change type the feed's rows hold.
import type { ChangeRows } from '../../shared/api.js';
import { recordsChangeFeed } from '../../shared/change-source.js';

/** Delta's column that says what happened to a row of the feed, and its values in the order they are shown. */
export const CHANGE_TYPE_COLUMN = '_change_type';
export const CHANGE_TYPES = ['insert', 'delete', 'update_preimage', 'update_postimage'] as const;

export type ChangeType = (typeof CHANGE_TYPES)[number];

export function changeTypeCounts(result: Pick<ChangeRows, 'columns' | 'rows'>): Record<ChangeType, number> {
  const counts: Record<ChangeType, number> = { insert: 0, delete: 0, update_preimage: 0, update_postimage: 0 };
  const at = result.columns.findIndex((c) => c.name === CHANGE_TYPE_COLUMN);
  if (at < 0) return counts;
  for (const row of result.rows) {
    const type = row[at];
    if ((CHANGE_TYPES as readonly unknown[]).includes(type)) counts[type as ChangeType] += 1;
  }
  return counts;
}

/** Why the snapshot at `version` has no change feed to show, in one line; null when it records one. A range that
 * starts before the feed was turned on is the host's to refuse: it alone reads the older commits. */
export function feedUnavailable(configuration: Record<string, string>, version: number): string | null {
  return recordsChangeFeed(configuration)
    ? null
    : `No change feed: the table does not record one at v${version} (delta.enableChangeDataFeed is not true).`;
}
