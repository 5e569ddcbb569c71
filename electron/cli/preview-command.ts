// `deltaport preview <table> [--version N | --timestamp TS] [--columns a,b] [--where COND] [--order-by "a desc,b"]
// [--limit N] [--format table|jsonl|csv]`: the first rows of a snapshot (that match the filter), in file order or,
// with --order-by, the first in that order over the whole snapshot. Only the chosen columns are decoded.
import { Type } from 'apache-arrow';
import { orderByText, parseOrderBy } from '../../shared/sort-spec.js';
import { previewRows, type PreviewRows } from '../delta/preview-rows.js';
import { CSV_FORMAT } from '../sinks/csv-sink.js';
import { JSONL_FORMAT } from '../sinks/jsonl-sink.js';
import type { TextFormat } from '../sinks/text-file-sink.js';
import { displayTextReader } from '../values/text-formats.js';
import { intFlag, onePositional, parseArgs, UsageError } from './args.js';
import type { CliIo } from './io.js';
import { FILTER_FLAGS, skippingLine, sourceSpec, TIME_TRAVEL_FLAGS } from './source-flags.js';
import { renderTable } from './text-table.js';

const DEFAULT_LIMIT = 20;
const FORMATS: Record<string, TextFormat | null> = { table: null, jsonl: JSONL_FORMAT, csv: CSV_FORMAT };
const NUMERIC = new Set([Type.Int, Type.Float, Type.Decimal]);

export async function previewCommand(argv: string[], io: CliIo): Promise<number> {
  const flags = { ...TIME_TRAVEL_FLAGS, ...FILTER_FLAGS, columns: 'value', limit: 'value', format: 'value', 'order-by': 'value' } as const;
  const args = parseArgs(argv, flags, 'preview');
  const tablePath = onePositional(args, 'the table folder');
  const limit = intFlag(args, 'limit', 1, 'a positive whole number') ?? DEFAULT_LIMIT;
  const formatName = args.values.get('format') ?? 'table';
  if (!(formatName in FORMATS)) throw new UsageError(`--format must be table, jsonl or csv, got '${formatName}'`);
  const orderBy = args.values.get('order-by');
  const parsed = orderBy === undefined ? null : parseOrderBy(orderBy);
  if (parsed && 'problem' in parsed) throw new UsageError(parsed.problem);

  const preview = await previewRows(sourceSpec(tablePath, args), { limit, orderBy: parsed?.keys, signal: io.signal });
  const format = FORMATS[formatName];
  if (format) await writeText(preview, format, limit, io);
  else await writeTable(preview, limit, io);
  return 0;
}

/** "ordered by cases desc over all 1111930 rows". */
function orderNote({ source, order }: PreviewRows): string | null {
  if (!order) return null;
  const over = source.filter ? `the ${order.rowsSorted} rows matching the filter` : `all ${order.rowsSorted} rows`;
  return `ordered by ${orderByText(order.keys)} over ${over}`;
}

async function writeText(shown: PreviewRows, format: TextFormat, limit: number, io: CliIo): Promise<void> {
  if (format.header) io.stdout.write(format.header(shown.columns));
  let left = limit;
  for await (const batch of shown.batches) {
    if (left <= 0) break;
    const part = batch.numRows > left ? batch.slice(0, left) : batch;
    left -= part.numRows;
    io.stdout.write(format.body({ batch: part }));
  }
}

async function writeTable(shown: PreviewRows, limit: number, io: CliIo): Promise<void> {
  const { source } = shown;
  const rows: (string | null)[][] = [];
  for await (const batch of shown.batches) {
    const cells = shown.columns.map((name) => displayTextReader(batch.getChild(name)!));
    for (let r = 0; r < batch.numRows; r++) rows.push(cells.map((cell) => cell(r)));
  }
  const more = rows.length > limit;
  const visible = rows.slice(0, limit);
  const types = new Map(source.schema.fields.map((f) => [f.name, f.type.typeId]));
  const columns = shown.columns.map((name) => ({ title: name, alignRight: NUMERIC.has(types.get(name)!) }));
  io.stdout.write(renderTable(columns, visible, io.color ?? false));
  const count = `${visible.length} row${visible.length === 1 ? '' : 's'} of version ${source.snapshot.version}`;
  io.stdout.write(more ? `(${count}; more rows exist, see --limit)\n` : `(${count})\n`);
  const note = orderNote(shown);
  if (note) io.stdout.write(`(${note})\n`);
  if (source.filter) io.stdout.write(`(${skippingLine(source.filter.skipping)})\n`);
}
