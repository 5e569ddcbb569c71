// Which rows of a data file its deletion vector keeps, in the file's physical row numbers. A deletion vector is a
// sorted list of the deleted rows (deletion-vectors.ts); everything here is arithmetic on that list, so a scan can
// find the runs to emit, resume after the k-th kept row, and count the rows of a row group it does not read.

/** The deletion vector of a file without one. */
export const NO_DELETIONS = new Float64Array(0);

/** The physical index of the k-th (0-based) row not deleted. */
export function physicalRowOfKept(k: number, deleted: Float64Array): number {
  let row = k;
  for (const d of deleted) {
    if (d > row) break;
    row++;
  }
  return row;
}

/** Maximal [from, to) runs of rows within [lo, hi) that are not deleted. */
export function keptRuns(deleted: Float64Array, lo: number, hi: number): [number, number][] {
  const runs: [number, number][] = [];
  let at = lo;
  for (let i = lowerBound(deleted, lo); i < deleted.length && deleted[i] < hi; i++) {
    if (deleted[i] > at) runs.push([at, deleted[i]]);
    at = deleted[i] + 1;
  }
  if (at < hi) runs.push([at, hi]);
  return runs;
}

/** Rows within [lo, hi) that are not deleted. */
export function keptCount(deleted: Float64Array, lo: number, hi: number): number {
  return hi - lo - (lowerBound(deleted, hi) - lowerBound(deleted, lo));
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
