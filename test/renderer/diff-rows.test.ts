// The History tab's diff helpers: the two ticked commits as a range, the pair-by keys as typed, and the counts of a
// diff's rows by their _change value.
import { describe, expect, it } from 'vitest';
import type { PreviewColumn } from '../../shared/api.js';
import { changeCounts, pairByKeys, togglePick, versionRange } from '../../renderer/src/diff-rows.js';

const columns: PreviewColumn[] = [
  { name: 'id', type: 'integer', nullable: true },
  { name: '_change', type: 'string', nullable: false },
];

describe('changeCounts', () => {
  it('counts added and removed rows, and an update once for its pair', () => {
    const rows = [
      [1, 'removed'],
      [2, 'added'],
      [3, 'updated_from'],
      [3, 'updated_to'],
      [4, 'added'],
    ];
    expect(changeCounts({ columns, rows })).toEqual({ added: 2, removed: 1, updated: 1 });
  });

  it('finds the change column wherever it is, and counts nothing without one', () => {
    expect(changeCounts({ columns: [...columns].reverse(), rows: [['removed', 1]] })).toEqual({ added: 0, removed: 1, updated: 0 });
    expect(changeCounts({ columns: columns.slice(0, 1), rows: [[1]] })).toEqual({ added: 0, removed: 0, updated: 0 });
  });
});

describe('picking two commits', () => {
  it('makes a range older first, only from two different versions', () => {
    expect(versionRange([7, 3])).toEqual({ from: 3, to: 7 });
    expect(versionRange([3])).toBeNull();
    expect(versionRange([])).toBeNull();
  });

  it('toggles a pick, and a third pick lets go of the earliest', () => {
    expect(togglePick([], 2)).toEqual([2]);
    expect(togglePick([2], 5)).toEqual([2, 5]);
    expect(togglePick([2, 5], 9)).toEqual([5, 9]);
    expect(togglePick([2, 5], 2)).toEqual([5]);
  });
});

describe('pairByKeys', () => {
  const names = ['id', 'name', 'birthday'];

  it('is no pairing when blank, and trims the names', () => {
    expect(pairByKeys('  ', names)).toEqual({ keys: [], problem: null });
    expect(pairByKeys(' id , birthday', names)).toEqual({ keys: ['id', 'birthday'], problem: null });
  });

  it('names the problem: an empty name, an unknown or the change column, a repeat', () => {
    expect(pairByKeys('id,', names).problem).toBe('Pair by: a key column name is empty; separate names with commas.');
    expect(pairByKeys('id, nope', names).problem).toBe("Pair by: no column 'nope' in this table.");
    expect(pairByKeys('_change', [...names, '_change']).problem).toBe("Pair by: no column '_change' in this table.");
    expect(pairByKeys('id, id', names).problem).toBe("Pair by: column 'id' is named twice.");
  });
});
