// `deltaport diff <table> --from V1 --to V2 [--limit N] [--format table|jsonl|csv] [--sink TARGET ...]`: what
// changed between two versions: schema, properties, protocol, files, and the rows added and removed
// (electron/delta/change/), printed or exported like a snapshot.
import { rowsFromText, type VersionChange } from '../../shared/table-info.js';
import { openChangeSource } from '../export/change-source.js';
import { checkPairKeys, diffSnapshots, pairedRows } from '../delta/change/snapshot-diff.js';
import { exportRows } from './export-command.js';
import { SINK_FLAGS } from './sink-flags.js';
import { listFlag, parseArgs } from './args.js';
import { versionRangeFlags, writeRows } from './batch-output.js';
import type { CliIo } from './io.js';
import { STORAGE_FLAGS } from './source-flags.js';

export async function diffCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(
    argv,
    { from: 'value', to: 'value', limit: 'value', format: 'value', 'pair-by': 'value', ...SINK_FLAGS, ...STORAGE_FLAGS },
    'diff',
  );
  const { tablePath, table, from, to, format, limit } = await versionRangeFlags(args);
  const pairBy = listFlag(args, 'pair-by');
  if (args.values.has('sink')) {
    const input = await openChangeSource(
      { rows: 'diff', tablePath, from, to, pairBy },
      { openTable: async () => table, pairBySetting: '--pair-by' },
    );
    await exportRows(input, table.engine.storage, tablePath, args, io);
    return 0;
  }
  const diff = await diffSnapshots(table, from, to);
  checkPairKeys(diff, pairBy ?? [], '--pair-by');
  const rows = () => (pairBy ? pairedRows(diff, pairBy, io.signal) : diff.rows(io.signal));
  const columns = diff.rowSchema.fields.map((f) => f.name);
  if (format !== 'table') {
    await writeRows(rows(), diff.rowSchema, columns, format, limit, io);
    return 0;
  }
  io.stdout.write(`version ${from} -> ${to}\n`);
  section(io, 'schema', diff.schema);
  section(io, 'properties', diff.properties);
  section(io, 'protocol', diff.protocol);
  io.stdout.write(
    `files: ${diff.filesAdded.length} added, ${diff.filesRemoved.length} removed, ${diff.filesWithNewDeletions.length} with rows newly deleted\n`,
  );
  const { written, more } = await writeRows(rows(), diff.rowSchema, columns, format, limit, io);
  io.stdout.write(more ? `(${written} changed rows shown; more exist, see --limit)\n` : `(${written} changed rows)\n`);
  io.stdout.write(`${rowsFromText(diff.rowsFrom)}\n`);
  return 0;
}

function section(io: CliIo, title: string, changes: VersionChange[]): void {
  if (changes.length === 0) return;
  io.stdout.write(`${title}:\n`);
  for (const c of changes) {
    const line = c.from === null ? `+ ${c.name}: ${c.to}` : c.to === null ? `- ${c.name}: ${c.from}` : `~ ${c.name}: ${c.from} -> ${c.to}`;
    io.stdout.write(`  ${line}\n`);
  }
}
