// `deltaport profile <table> [--version N | --timestamp TS] [--exact] [--json]`: each column's null count, min and
// max from the log's statistics (nothing decoded) or, with --exact, counted over every row, with a line of histogram
// bins for each number, date and timestamp column; and
// `deltaport partitions <table> [--version N | --timestamp TS] [--json]`: each partition's files, rows and bytes.
import type { Histogram, TableProfile } from '../../shared/table-info.js';
import { partitionSummaries } from '../delta/profile/partitions.js';
import { openSource } from '../delta/source.js';
import { parseArgs } from './args.js';
import type { CliIo } from './io.js';
import { formatBytes, sourceSpec, STORAGE_FLAGS, tableArgument, TIME_TRAVEL_FLAGS } from './source-flags.js';
import { renderTable } from './text-table.js';

export async function profileCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { ...TIME_TRAVEL_FLAGS, ...STORAGE_FLAGS, exact: 'switch', json: 'switch' }, 'profile');
  const { tablePath, openTable } = tableArgument(args);
  const source = await openSource(sourceSpec(tablePath, args), openTable);
  const { statisticsProfile, scanProfile } = await import('../delta/profile/column-profile.js');
  const profile: TableProfile = args.switches.has('exact')
    ? await scanProfile(source.table, source.snapshot.version, io.signal)
    : statisticsProfile(source.snapshot, await source.table.fileStats(source.snapshot));
  if (args.switches.has('json')) {
    io.stdout.write(`${JSON.stringify(profile, null, 2)}\n`);
    return 0;
  }
  const exact = args.switches.has('exact');
  const heads = ['column', 'type', 'nulls', 'min', 'max', ...(exact ? ['distinct'] : [])].map((title) => ({
    title,
    alignRight: title === 'nulls' || title === 'distinct',
  }));
  const rows = profile.columns.map((c) => [
    c.name,
    c.type,
    c.nullCount === null ? '?' : String(c.nullCount),
    c.min,
    c.max,
    ...(c.distinct ? [`${c.distinct.atLeast ? '>= ' : ''}${c.distinct.count}`] : []),
  ]);
  io.stdout.write(renderTable(heads, rows, io.color ?? false));
  for (const c of profile.columns) if (c.histogram) io.stdout.write(`${histogramLine(c.name, c.histogram)}\n`);
  const count = profile.rowCount === null ? 'rows unknown (files without statistics)' : `${profile.rowCount} rows`;
  io.stdout.write(
    `(${count} in version ${profile.version}; ${exact ? 'counted over every row' : "from the log's statistics, nothing decoded: min and max are bounds"})\n`,
  );
  return 0;
}

/** "histogram of cases: 0..9: 12, 10..19: 3" (a bin of one value is that value); float bins run up to their upper
 * bound, the last one including it. */
function histogramLine(name: string, histogram: Histogram): string {
  const bins = histogram.bins.map((b) => `${b.from === b.to ? b.from : `${b.from}..${b.to}`}: ${b.count}`);
  return `histogram of ${name}: ${bins.join(', ')}`;
}

export async function partitionsCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { ...TIME_TRAVEL_FLAGS, ...STORAGE_FLAGS, json: 'switch' }, 'partitions');
  const { tablePath, openTable } = tableArgument(args);
  const source = await openSource(sourceSpec(tablePath, args), openTable);
  const partitions = partitionSummaries(source.snapshot, await source.table.fileStats(source.snapshot));
  if (args.switches.has('json')) {
    io.stdout.write(`${JSON.stringify(partitions, null, 2)}\n`);
    return 0;
  }
  const names = source.snapshot.partitionColumns;
  if (names.length === 0) {
    io.stdout.write(`(version ${source.snapshot.version} is not partitioned)\n`);
    return 0;
  }
  const heads = [
    ...names.map((title) => ({ title })),
    { title: 'files', alignRight: true },
    { title: 'rows', alignRight: true },
    { title: 'bytes', alignRight: true },
  ];
  const rows = partitions.map((p) => [
    ...names.map((n) => p.values[n]),
    String(p.files),
    p.rows === null ? '?' : String(p.rows),
    formatBytes(p.bytes),
  ]);
  io.stdout.write(renderTable(heads, rows, io.color ?? false));
  io.stdout.write(`(${partitions.length} partitions in version ${source.snapshot.version})\n`);
  return 0;
}
