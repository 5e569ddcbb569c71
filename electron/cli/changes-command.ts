// `deltaport changes <table> --from V1 [--to V2] [--limit N] [--format table|jsonl|csv] [--sink TARGET ...]`: the
// table's change data feed over those versions, with Delta's _change_type, _commit_version and _commit_timestamp,
// printed or exported like a snapshot.
import { changeFeed } from '../delta/change/change-feed.js';
import { openChangeSource } from '../export/change-source.js';
import { exportRows } from './export-command.js';
import { SINK_FLAGS } from './sink-flags.js';
import { parseArgs } from './args.js';
import { versionRangeFlags, writeRows } from './batch-output.js';
import type { CliIo } from './io.js';
import { STORAGE_FLAGS } from './source-flags.js';

export async function changesCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { from: 'value', to: 'value', limit: 'value', format: 'value', ...SINK_FLAGS, ...STORAGE_FLAGS }, 'changes');
  const { tablePath, table, from, to, format, limit } = await versionRangeFlags(args);
  if (args.values.has('sink')) {
    const input = await openChangeSource({ rows: 'changes', tablePath, from, to }, { measure: true, openTable: async () => table });
    await exportRows(input, table.engine.storage, tablePath, args, io);
    return 0;
  }
  const feed = await changeFeed(table, from, to);
  const columns = feed.schema.fields.map((f) => f.name);
  const { written, more } = await writeRows(feed.rows(io.signal), feed.schema, columns, format, limit, io);
  if (format === 'table') {
    io.stdout.write(
      more
        ? `(${written} changes of versions ${from}..${to} shown; more exist, see --limit)\n`
        : `(${written} changes of versions ${from}..${to})\n`,
    );
  }
  return 0;
}
