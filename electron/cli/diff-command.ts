// `deltaport diff <table> --from V1 --to V2 [--limit N] [--format table|jsonl|csv] [--sink TARGET ...]`: what
// changed between two versions: schema, properties, protocol, files, and the rows added and removed
// (electron/delta/change/), printed or exported like a snapshot.
import type { VersionChange } from '../../shared/table-info.js';
import { diffSnapshots, pairedRows } from '../delta/change/snapshot-diff.js';
import { changeExportInput } from '../delta/change/change-export.js';
import { DeltaTable } from '../delta/table.js';
import { exportRows, SINK_FLAGS } from './export-command.js';
import { intFlag, listFlag, onePositional, parseArgs, UsageError } from './args.js';
import { formatFlag, writeRows } from './batch-output.js';
import type { CliIo } from './io.js';

const DEFAULT_LIMIT = 20;

export async function diffCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { from: 'value', to: 'value', limit: 'value', format: 'value', 'pair-by': 'value', ...SINK_FLAGS }, 'diff');
  const tablePath = onePositional(args, 'the table folder');
  const from = intFlag(args, 'from', 0, 'a version number (0 or more)');
  if (from === undefined) throw new UsageError('--from is required');
  const table = await DeltaTable.open(tablePath);
  const to = intFlag(args, 'to', 0, 'a version number (0 or more)') ?? (await table.versionRange()).latest;
  const format = formatFlag(args);
  const limit = intFlag(args, 'limit', 1, 'a positive whole number') ?? (format === 'table' ? DEFAULT_LIMIT : Infinity);
  const diff = await diffSnapshots(table, from, to);
  const pairBy = listFlag(args, 'pair-by');
  const rows = () => (pairBy ? pairedRows(diff, pairBy, io.signal) : diff.rows(io.signal));
  if (args.values.has('sink')) {
    await exportRows(changeExportInput(diff.fields, diff.rowSchema, diff.newer, rows), tablePath, args, io);
    return 0;
  }
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
