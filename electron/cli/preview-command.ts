// `deltaport preview <table> [--version N | --timestamp TS] [--columns a,b] [--where COND] [--order-by "a desc,b"]
// [--limit N] [--format table|jsonl|csv]`: the first rows of a snapshot (that match the filter), in file order or,
// with --order-by, the first in that order over the whole snapshot. Only the chosen columns are decoded.
import { orderByText, parseOrderBy } from '../../shared/sort-spec.js';
import { previewRows, type PreviewRows } from '../delta/preview-rows.js';
import { intFlag, parseArgs, UsageError } from './args.js';
import { formatFlag, writeRows } from './batch-output.js';
import type { CliIo } from './io.js';
import { FILTER_FLAGS, skippingLine, sourceSpec, STORAGE_FLAGS, tableArgument, TIME_TRAVEL_FLAGS } from './source-flags.js';

const DEFAULT_LIMIT = 20;

export async function previewCommand(argv: string[], io: CliIo): Promise<number> {
  const flags = {
    ...TIME_TRAVEL_FLAGS,
    ...STORAGE_FLAGS,
    ...FILTER_FLAGS,
    columns: 'value',
    limit: 'value',
    format: 'value',
    'order-by': 'value',
  } as const;
  const args = parseArgs(argv, flags, 'preview');
  const { tablePath, openTable } = tableArgument(args);
  const limit = intFlag(args, 'limit', 1, 'a positive whole number') ?? DEFAULT_LIMIT;
  const format = formatFlag(args);
  const orderBy = args.values.get('order-by');
  const parsed = orderBy === undefined ? null : parseOrderBy(orderBy);
  if (parsed && 'problem' in parsed) throw new UsageError(parsed.problem);

  const preview = await previewRows(sourceSpec(tablePath, args), { limit, orderBy: parsed?.keys, signal: io.signal, openTable });
  const { written, more } = await writeRows(preview.batches, preview.source.schema, preview.columns, format, limit, io);
  if (format === 'table') writeFooter(preview, written, more, io);
  return 0;
}

/** "ordered by cases desc over all 1111930 rows". */
function orderNote({ source, order }: PreviewRows): string | null {
  if (!order) return null;
  const over = source.filter ? `the ${order.rowsSorted} rows matching the filter` : `all ${order.rowsSorted} rows`;
  return `ordered by ${orderByText(order.keys)} over ${over}`;
}

function writeFooter(shown: PreviewRows, written: number, more: boolean, io: CliIo): void {
  const count = `${written} row${written === 1 ? '' : 's'} of version ${shown.source.snapshot.version}`;
  io.stdout.write(more ? `(${count}; more rows exist, see --limit)\n` : `(${count})\n`);
  const note = orderNote(shown);
  if (note) io.stdout.write(`(${note})\n`);
  if (shown.source.filter) io.stdout.write(`(${skippingLine(shown.source.filter.skipping)})\n`);
}
