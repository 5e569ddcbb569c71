// Row order for a sorted column, computed once per sort and kept as indices so rows themselves are never copied.
import type { JsonValue } from '../../../shared/api.js';
import { compareCells } from '../format.js';

export interface SortState {
  column: number;
  direction: 'ascending' | 'descending';
}

export function sortedOrder(rows: JsonValue[][], sort: SortState | null): number[] {
  const order = rows.map((_, i) => i);
  if (!sort) return order;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return order.sort((a, b) => {
    const av = rows[a][sort.column];
    const bv = rows[b][sort.column];
    // Nulls stay last in both directions.
    if (av === null || bv === null) return compareCells(av, bv) || a - b;
    return sign * compareCells(av, bv) || a - b;
  });
}

/** ascending -> descending -> unsorted, as in most data tools. */
export function nextSort(current: SortState | null, column: number): SortState | null {
  if (!current || current.column !== column) return { column, direction: 'ascending' };
  return current.direction === 'ascending' ? { column, direction: 'descending' } : null;
}
