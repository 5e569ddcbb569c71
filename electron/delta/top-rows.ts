// The first rows of a snapshot in an order over all of it (after the source's filter): every batch streams past,
// and only the best `limit` rows so far are kept, so memory stays bounded by the limit whatever the table's size.
// Candidates are one-row slices; when there are twice the limit of them, they are sorted, cut to the limit and
// copied into one batch, which lets the scanned batches go. Rows tied on every key keep their scan order.
import type { RecordBatch } from 'apache-arrow';
import type { DeltaValue } from '../../shared/delta-values.js';
import { comparator } from '../../shared/expression/compare.js';
import { DeltaportError } from '../../shared/errors.js';
import { sortKeysProblem, type SortKey } from '../../shared/sort-spec.js';
import { canConcat, concatBatches } from './engine/concat-batches.js';
import { valueReader } from './filter/arrow-values.js';
import type { DeltaSource } from './source.js';

interface Candidate {
  keys: DeltaValue[];
  /** Scan order, for ties. */
  ordinal: number;
  row: RecordBatch;
}

export interface TopRows {
  /** The rows in order, at most `limit`; the source's columns. */
  rows: RecordBatch[];
  /** Rows the order was taken over: the whole snapshot, or the rows its filter kept. */
  rowsSorted: number;
}

/** Columns to read for `columns` sorted by `keys`: those, then the sort columns. */
export function columnsForOrder(columns: string[], keys: SortKey[]): string[] {
  return [...new Set([...columns, ...keys.map((k) => k.column)])];
}

export async function topRows(
  source: DeltaSource,
  keys: SortKey[],
  limit: number,
  columns: string[],
  signal?: AbortSignal,
): Promise<TopRows> {
  const problem = sortKeysProblem(keys, source.fields, `in version ${source.snapshot.version}`);
  if (problem) throw new DeltaportError('VALIDATION', problem);
  const fields = keys.map((key) => source.fields.find((f) => f.name === key.column)!);
  const orders = fields.map((f) => comparator(f.type, f.type));
  const compare = (a: Candidate, b: Candidate): number => {
    for (let k = 0; k < keys.length; k++) {
      const [x, y] = [a.keys[k], b.keys[k]];
      if (x === null || y === null) {
        if (x !== y) return (x === null ? 1 : -1) * (keys[k].nullsFirst ? -1 : 1);
        continue;
      }
      const order = orders[k](x, y);
      if (order !== 0) return keys[k].descending ? -order : order;
    }
    return a.ordinal - b.ordinal;
  };

  let candidates: Candidate[] = [];
  // The worst row kept at the last cut: a row not better than it can never make the result.
  let threshold: Candidate | null = null;
  let rowsSorted = 0;
  const cut = () => {
    candidates.sort(compare);
    candidates = candidates.slice(0, limit);
    threshold = candidates.length === limit ? candidates[limit - 1] : null;
    const joined = candidates.length > 0 && canConcat(candidates[0].row.schema) ? concatBatches(candidates.map((c) => c.row)) : null;
    if (joined) candidates.forEach((c, i) => (c.row = joined.slice(i, i + 1)));
  };
  for await (const { batch } of source.batches({ signal })) {
    const readers = keys.map((k) => valueReader(batch.getChild(k.column)!.data[0]));
    const projected = batch.select(columns);
    for (let r = 0; r < batch.numRows; r++) {
      const candidate: Candidate = { keys: readers.map((read) => read(r)), ordinal: rowsSorted++, row: projected };
      if (threshold && compare(candidate, threshold) >= 0) continue;
      candidate.row = projected.slice(r, r + 1);
      candidates.push(candidate);
      if (candidates.length >= 2 * limit) cut();
    }
  }
  cut();
  return { rows: candidates.map((c) => c.row), rowsSorted };
}
