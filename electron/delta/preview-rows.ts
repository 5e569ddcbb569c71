// The rows a preview shows, for the CLI and the app alike: the first limit + 1 rows (one more tells whether there are
// more) of the source in file order, or with an order the first over the whole snapshot after its filter
// (top-rows.ts); the sort columns are read even when not shown. With an offset, the rows before it are read and
// dropped: the next page of the same read, in the same order, for a grid that loads more as it is scrolled.
import type { RecordBatch } from 'apache-arrow';
import type { SortKey } from '../../shared/sort-spec.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import { openSource, type DeltaSource } from './source.js';
import type { DeltaTable } from './table.js';
import { columnsForOrder, topRows } from './top-rows.js';

export interface PreviewRows {
  source: DeltaSource;
  /** The columns shown, in order. */
  columns: string[];
  batches: AsyncIterable<RecordBatch> | RecordBatch[];
  order: { keys: SortKey[]; rowsSorted: number } | null;
}

export async function previewRows(
  spec: DeltaSourceSpec,
  opts: {
    limit: number;
    offset?: number;
    orderBy?: SortKey[];
    signal?: AbortSignal;
    openTable: (tablePath: string) => Promise<DeltaTable>;
  },
): Promise<PreviewRows> {
  const keys = opts.orderBy && opts.orderBy.length > 0 ? opts.orderBy : null;
  const offset = opts.offset ?? 0;
  const requested = spec.columnNames ?? undefined;
  const source = await openSource(keys && requested ? { ...spec, columnNames: columnsForOrder(requested, keys) } : spec, opts.openTable);
  const columns = requested ?? source.columns;
  const wanted = offset + opts.limit + 1;
  if (!keys) return { source, columns, batches: afterOffset(inFileOrder(source, wanted, opts.signal), offset), order: null };
  const top = await topRows(source, keys, wanted, columns, opts.signal);
  return { source, columns, batches: afterOffset(top.rows, offset), order: { keys, rowsSorted: top.rowsSorted } };
}

async function* inFileOrder(source: DeltaSource, limit: number, signal: AbortSignal | undefined): AsyncGenerator<RecordBatch> {
  for await (const { batch } of source.batches({ limit, signal })) yield batch;
}

async function* afterOffset(batches: AsyncIterable<RecordBatch> | RecordBatch[], offset: number): AsyncGenerator<RecordBatch> {
  let skip = offset;
  for await (const batch of batches) {
    if (skip >= batch.numRows) {
      skip -= batch.numRows;
      continue;
    }
    yield skip > 0 ? batch.slice(skip) : batch;
    skip = 0;
  }
}
