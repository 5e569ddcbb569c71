// Sorting in the preview grid: typed comparisons, nulls last in both directions, stable, three-state headers.
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../shared/api.js';
import { nextSort, sortedOrder } from '../../renderer/src/grid/sorting.js';

const rows: JsonValue[][] = [
  [null, 'b'],
  ['9007199254740993', 'a'],
  ['10', 'c'],
  [null, 'd'],
  ['-3', 'e'],
];

describe('sortedOrder', () => {
  it('orders long integers sent as text by value, with nulls last', () => {
    expect(sortedOrder(rows, { column: 0, direction: 'ascending' })).toEqual([4, 2, 1, 0, 3]);
    expect(sortedOrder(rows, { column: 0, direction: 'descending' })).toEqual([1, 2, 4, 0, 3]);
  });

  it('keeps the read order when unsorted', () => {
    expect(sortedOrder(rows, null)).toEqual([0, 1, 2, 3, 4]);
  });

  it('compares numbers, booleans and nested values', () => {
    const mixed: JsonValue[][] = [[2.5], [-1], [10]];
    expect(sortedOrder(mixed, { column: 0, direction: 'ascending' })).toEqual([1, 0, 2]);
    const flags: JsonValue[][] = [[true], [false]];
    expect(sortedOrder(flags, { column: 0, direction: 'ascending' })).toEqual([1, 0]);
    const nested: JsonValue[][] = [[{ a: 2 }], [{ a: 1 }]];
    expect(sortedOrder(nested, { column: 0, direction: 'ascending' })).toEqual([1, 0]);
  });
});

describe('nextSort', () => {
  it('cycles a header through ascending, descending and off', () => {
    const asc = nextSort(null, 1);
    expect(asc).toEqual({ column: 1, direction: 'ascending' });
    const desc = nextSort(asc, 1);
    expect(desc).toEqual({ column: 1, direction: 'descending' });
    expect(nextSort(desc, 1)).toBeNull();
    expect(nextSort(desc, 0)).toEqual({ column: 0, direction: 'ascending' });
  });
});
