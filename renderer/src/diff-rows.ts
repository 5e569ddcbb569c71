// The pieces of a version diff the History tab works out itself: which two picked commits make the range, the
// pair-by keys as typed, and how many rows of each kind of change the diff's rows hold.
import type { ChangeRows } from '../../shared/api.js';
import { formatCount } from './format.js';

/** The engine's column that says what happened to a diff row. */
export const CHANGE_COLUMN = '_change';

export interface ChangeCounts {
  added: number;
  removed: number;
  /** Pairs of an updated_from and an updated_to row (only with pair-by keys). */
  updated: number;
}

export function changeCounts(result: Pick<ChangeRows, 'columns' | 'rows'>): ChangeCounts {
  const at = result.columns.findIndex((c) => c.name === CHANGE_COLUMN);
  const counts: ChangeCounts = { added: 0, removed: 0, updated: 0 };
  if (at < 0) return counts;
  for (const row of result.rows) {
    const change = row[at];
    if (change === 'added') counts.added += 1;
    else if (change === 'removed') counts.removed += 1;
    else if (change === 'updated_to') counts.updated += 1;
  }
  return counts;
}

/** Two commits' versions, older first. */
export interface VersionRange {
  from: number;
  to: number;
}

/** Two picked versions as a range; null until exactly two are picked. */
export function versionRange(picked: readonly number[]): VersionRange | null {
  if (picked.length !== 2 || picked[0] === picked[1]) return null;
  return { from: Math.min(picked[0], picked[1]), to: Math.max(picked[0], picked[1]) };
}

/** Picking a version toggles it; a third pick lets go of the earliest of the two already picked. */
export function togglePick(picked: readonly number[], version: number): number[] {
  if (picked.includes(version)) return picked.filter((v) => v !== version);
  return [...picked, version].slice(-2);
}

/** Key columns typed as "a, b": blank is no pairing; every name must be one of the table's columns, once. */
export function pairByKeys(text: string, columns: readonly string[]): { keys: string[]; problem: string | null } {
  if (text.trim() === '') return { keys: [], problem: null };
  const keys = text.split(',').map((k) => k.trim());
  if (keys.some((k) => k === '')) return { keys: [], problem: 'Pair by: a key column name is empty; separate names with commas.' };
  const unknown = keys.find((k) => !columns.includes(k) || k === CHANGE_COLUMN);
  if (unknown !== undefined) return { keys: [], problem: `Pair by: no column '${unknown}' in this table.` };
  const repeated = keys.find((k, i) => keys.indexOf(k) !== i);
  if (repeated !== undefined) return { keys: [], problem: `Pair by: column '${repeated}' is named twice.` };
  return { keys, problem: null };
}

/** Files kept but with rows deleted in place: said only when there are some. */
export function newDeletionsNote(files: number): string | undefined {
  if (files === 0) return undefined;
  return `and ${formatCount(files)} ${files === 1 ? 'file' : 'files'} with rows newly deleted`;
}
