// The filter applied to decoded rows: which rows of a record batch it keeps (where it is true), as runs.
import type { Data, RecordBatch } from 'apache-arrow';
import { compileExpr } from '../../../shared/expression/evaluate.js';
import type { Expr } from '../../../shared/expression/index.js';
import { validity } from '../engine/arrow-buffers.js';
import { structChild } from '../engine/arrow-columns.js';
import { valueReader } from './arrow-values.js';

/** Maximal [from, to) runs of the rows of `batch` the filter keeps. */
export function keptRows(expr: Expr, batch: RecordBatch): [number, number][] {
  const test = compileExpr(expr, (path) => columnReader(batch, path));
  const runs: [number, number][] = [];
  let start = -1;
  for (let row = 0; row < batch.numRows; row++) {
    const keep = test(row) === true;
    if (keep && start < 0) start = row;
    else if (!keep && start >= 0) {
      runs.push([start, row]);
      start = -1;
    }
  }
  if (start >= 0) runs.push([start, batch.numRows]);
  return runs;
}

/** Values at a path of names into structs; null where the value or any struct above it is null. */
function columnReader(batch: RecordBatch, path: string[]): (row: number) => ReturnType<ReturnType<typeof valueReader>> {
  const index = batch.schema.fields.findIndex((f) => f.name === path[0]);
  let data: Data | null = index < 0 ? null : batch.data.children[index];
  const parents: ((row: number) => boolean)[] = [];
  for (const name of path.slice(1)) {
    if (!data) break;
    parents.push(validity(data));
    data = structChild(data, name);
  }
  if (!data) return () => null;
  const read = valueReader(data);
  if (parents.length === 0) return read;
  return (row) => (parents.every((valid) => valid(row)) ? read(row) : null);
}
