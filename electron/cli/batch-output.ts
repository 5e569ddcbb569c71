// Rows of record batches on stdout, for the commands that print rows (preview, diff, changes): an aligned table
// (NULL for nulls), JSON Lines or CSV. At most `limit` rows; one more row read tells whether there were more.
import { Type, type RecordBatch, type Schema } from 'apache-arrow';
import { CSV_FORMAT, JSONL_FORMAT, type TextFormat } from '../sinks/line-formats.js';
import { displayTextReader } from '../values/text-formats.js';
import type { DeltaTable } from '../delta/table.js';
import { intFlag, UsageError, type ParsedArgs } from './args.js';
import type { CliIo } from './io.js';
import { tableArgument } from './source-flags.js';
import { renderTable } from './text-table.js';

export type OutputFormat = 'table' | 'jsonl' | 'csv';
const FORMATS: Record<OutputFormat, TextFormat | null> = { table: null, jsonl: JSONL_FORMAT, csv: CSV_FORMAT };
const NUMERIC = new Set([Type.Int, Type.Float, Type.Decimal]);

export function formatFlag(args: ParsedArgs): OutputFormat {
  const name = args.values.get('format') ?? 'table';
  if (!(name in FORMATS)) throw new UsageError(`--format must be table, jsonl or csv, got '${name}'`);
  return name as OutputFormat;
}

/** Rows printed as a table unless --limit says otherwise; jsonl and csv print every row. */
const DEFAULT_TABLE_LIMIT = 20;

/** What diff and changes read and print: the table, --from (required) and --to (default: the latest version),
 * --format and --limit. */
export async function versionRangeFlags(
  args: ParsedArgs,
): Promise<{ tablePath: string; table: DeltaTable; from: number; to: number; format: OutputFormat; limit: number }> {
  const { tablePath, openTable } = tableArgument(args);
  const from = intFlag(args, 'from', 0, 'a version number (0 or more)');
  if (from === undefined) throw new UsageError('--from is required');
  const table = await openTable(tablePath);
  const to = intFlag(args, 'to', 0, 'a version number (0 or more)') ?? (await table.versionRange()).latest;
  const format = formatFlag(args);
  return { tablePath, table, from, to, format, limit: limitFlag(args, format) };
}

/** --limit: at most this many rows (default 20 as a table; every row as jsonl or csv). */
export function limitFlag(args: ParsedArgs, format: OutputFormat): number {
  return intFlag(args, 'limit', 1, 'a positive whole number') ?? (format === 'table' ? DEFAULT_TABLE_LIMIT : Infinity);
}

/** Writes the rows of `columns` (names in `schema`); returns how many were written and whether more were left. */
export async function writeRows(
  batches: AsyncIterable<RecordBatch> | RecordBatch[],
  schema: Schema,
  columns: string[],
  format: OutputFormat,
  limit: number,
  io: CliIo,
): Promise<{ written: number; more: boolean }> {
  const text = FORMATS[format];
  const rows: (string | null)[][] = [];
  let written = 0;
  let more = false;
  if (text?.header) io.stdout.write(text.header(columns));
  for await (const batch of batches) {
    if (written >= limit) {
      more ||= batch.numRows > 0;
      if (more) break;
      continue;
    }
    const part = batch.numRows > limit - written ? batch.slice(0, limit - written) : batch;
    more = part.numRows < batch.numRows;
    written += part.numRows;
    if (text) {
      io.stdout.write(text.body({ batch: part.select(columns) }));
    } else {
      const cells = columns.map((name) => displayTextReader(part.getChild(name)!));
      for (let r = 0; r < part.numRows; r++) rows.push(cells.map((cell) => cell(r)));
    }
  }
  if (!text) {
    const types = new Map(schema.fields.map((f) => [f.name, f.type.typeId]));
    const heads = columns.map((name) => ({ title: name, alignRight: NUMERIC.has(types.get(name)!) }));
    io.stdout.write(renderTable(heads, rows, io.color ?? false));
  }
  return { written, more };
}
