// The History tab's change feed helpers: the counts of a feed's rows by their _change_type, and the one line that
// says why a snapshot has no feed to show.
import { describe, expect, it } from 'vitest';
import type { PreviewColumn } from '../../shared/api.js';
import { changeTypeCounts, feedUnavailable } from '../../renderer/src/feed-rows.js';

const columns: PreviewColumn[] = [
  { name: 'id', type: 'integer', nullable: true },
  { name: '_change_type', type: 'string', nullable: false },
  { name: '_commit_version', type: 'long', nullable: false },
];

describe('changeTypeCounts', () => {
  it('counts each change type, an update once on each side', () => {
    const rows = [
      [1, 'insert', 0],
      [2, 'insert', 0],
      [2, 'update_preimage', 1],
      [2, 'update_postimage', 1],
      [1, 'delete', 2],
    ];
    expect(changeTypeCounts({ columns, rows })).toEqual({ insert: 2, delete: 1, update_preimage: 1, update_postimage: 1 });
  });

  it('counts nothing without the column, and skips values that are no change type', () => {
    expect(changeTypeCounts({ columns: columns.slice(0, 1), rows: [[1]] })).toEqual({
      insert: 0,
      delete: 0,
      update_preimage: 0,
      update_postimage: 0,
    });
    const odd = [
      [1, 'toString', 0],
      [2, null, 0],
      [3, 'added', 0],
    ];
    expect(changeTypeCounts({ columns, rows: odd })).toEqual({ insert: 0, delete: 0, update_preimage: 0, update_postimage: 0 });
  });
});

describe('feedUnavailable', () => {
  it('is null where the snapshot records a feed, else one line naming the property and the version', () => {
    expect(feedUnavailable({ 'delta.enableChangeDataFeed': 'true' }, 3)).toBeNull();
    expect(feedUnavailable({}, 4)).toBe('No change feed: the table does not record one at v4 (delta.enableChangeDataFeed is not true).');
    expect(feedUnavailable({ 'delta.enableChangeDataFeed': 'false' }, 0)).toMatch(/^No change feed: .* at v0 /);
  });
});
