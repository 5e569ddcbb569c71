// `deltaport changes <table> --from V1 [--to V2] [--limit N] [--format table|jsonl|csv] [--sink TARGET ...]`: the
// table's change data feed over those versions, with Delta's _change_type, _commit_version and _commit_timestamp,
// printed or exported like a snapshot.
import { changeFeed } from '../delta/change/change-feed.js';
import { changeExportInput } from '../delta/change/change-export.js';
import { DeltaTable } from '../delta/table.js';
import { exportRows, SINK_FLAGS } from './export-command.js';
import { intFlag, onePositional, parseArgs, UsageError } from './args.js';
import { formatFlag, writeRows } from './batch-output.js';
import type { CliIo } from './io.js';

const DEFAULT_LIMIT = 20;

export async function changesCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { from: 'value', to: 'value', limit: 'value', format: 'value', ...SINK_FLAGS }, 'changes');
  const tablePath = onePositional(args, 'the table folder');
  const from = intFlag(args, 'from', 0, 'a version number (0 or more)');
  if (from === undefined) throw new UsageError('--from is required');
  const table = await DeltaTable.open(tablePath);
  const to = intFlag(args, 'to', 0, 'a version number (0 or more)') ?? (await table.versionRange()).latest;
  const format = formatFlag(args);
  const limit = intFlag(args, 'limit', 1, 'a positive whole number') ?? (format === 'table' ? DEFAULT_LIMIT : Infinity);
  const feed = await changeFeed(table, from, to);
  if (args.values.has('sink')) {
    await exportRows(changeExportInput(feed.fields, feed.schema, feed.snapshot, () => feed.rows(io.signal)), tablePath, args, io);
    return 0;
  }
  const columns = feed.schema.fields.map((f) => f.name);
  const { written, more } = await writeRows(feed.rows(io.signal), feed.schema, columns, format, limit, io);
  if (format === 'table') {
    io.stdout.write(more ? `(${written} changes of versions ${from}..${to} shown; more exist, see --limit)\n` : `(${written} changes of versions ${from}..${to})\n`);
  }
  return 0;
}
