// `deltaport preview <table> [--version N | --timestamp TS] [--columns a,b] [--where COND] [--limit N]
// [--format table|jsonl|csv]`: the first rows of a snapshot (that match the filter). Only the chosen columns of the first files are decoded.
import { Type } from 'apache-arrow';
import type { DeltaSource } from '../delta/source.js';
import { openSource } from '../delta/source.js';
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
  const flags = { ...TIME_TRAVEL_FLAGS, ...FILTER_FLAGS, columns: 'value', limit: 'value', format: 'value' } as const;
  const args = parseArgs(argv, flags, 'preview');
  const tablePath = onePositional(args, 'the table folder');
  const limit = intFlag(args, 'limit', 1, 'a positive whole number') ?? DEFAULT_LIMIT;
  const formatName = args.values.get('format') ?? 'table';
  if (!(formatName in FORMATS)) throw new UsageError(`--format must be table, jsonl or csv, got '${formatName}'`);
  const source = await openSource(sourceSpec(tablePath, args));
  const format = FORMATS[formatName];
  if (format) await writeText(source, format, limit, io);
  else await writeTable(source, limit, io);
  return 0;
}

async function writeText(source: DeltaSource, format: TextFormat, limit: number, io: CliIo): Promise<void> {
  if (format.header) io.stdout.write(format.header(source.columns));
  for await (const batch of source.batches({ limit, signal: io.signal })) io.stdout.write(format.body(batch));
}

async function writeTable(source: DeltaSource, limit: number, io: CliIo): Promise<void> {
  const rows: (string | null)[][] = [];
  // One row more than shown tells whether the snapshot has more.
  for await (const { batch } of source.batches({ limit: limit + 1, signal: io.signal })) {
    const cells = source.columns.map((_, c) => displayTextReader(batch.getChildAt(c)!));
    for (let r = 0; r < batch.numRows; r++) rows.push(cells.map((cell) => cell(r)));
  }
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const columns = source.schema.fields.map((f) => ({ title: f.name, alignRight: NUMERIC.has(f.type.typeId) }));
  io.stdout.write(renderTable(columns, shown, io.color ?? false));
  const count = `${shown.length} row${shown.length === 1 ? '' : 's'} of version ${source.snapshot.version}`;
  io.stdout.write(more ? `(${count}; more rows exist, see --limit)\n` : `(${count})\n`);
  if (source.filter) io.stdout.write(`(${skippingLine(source.filter.skipping)})\n`);
}
