// `deltaport schema <table> [--version N | --timestamp TS] [--json]`: what the table is at a version.
import type { TableInfo } from '../../shared/table-info.js';
import { formatEpochMs } from '../../shared/timestamp.js';
import { openSpecSnapshot } from '../delta/source-snapshot.js';
import { parseArgs } from './args.js';
import type { CliIo } from './io.js';
import { schemaTree } from './schema-tree.js';
import { formatBytes, sourceSpec, STORAGE_FLAGS, tableArgument, TIME_TRAVEL_FLAGS } from './source-flags.js';

export async function schemaCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { ...TIME_TRAVEL_FLAGS, ...STORAGE_FLAGS, json: 'switch' }, 'schema');
  const { tablePath, openTable } = tableArgument(args);
  const { table, snapshot } = await openSpecSnapshot(sourceSpec(tablePath, args), openTable);
  const info = await table.tableInfo(snapshot);
  io.stdout.write(args.switches.has('json') ? `${JSON.stringify(info, null, 2)}\n` : describe(info));
  return 0;
}

function describe(info: TableInfo): string {
  const { protocol, versionRange } = info;
  const features = [...new Set([...protocol.readerFeatures, ...protocol.writerFeatures])];
  const lines = [
    ['table', info.name ? `${info.path} (${info.name})` : info.path],
    ['version', `${info.version} of ${versionRange.earliest}..${versionRange.latest}, committed ${formatEpochMs(info.timestamp)}`],
    [
      'protocol',
      `reader ${protocol.minReaderVersion}, writer ${protocol.minWriterVersion}` +
        (features.length > 0 ? `; features: ${features.join(', ')}` : ''),
    ],
    ['partitions', info.partitionColumns.length > 0 ? info.partitionColumns.join(', ') : 'none'],
    [
      'data',
      `${info.numFiles} file${info.numFiles === 1 ? '' : 's'}, ${formatBytes(info.sizeBytes)}` +
        (info.numRecords === null ? '' : `, ${info.numRecords} row${info.numRecords === 1 ? '' : 's'}`),
    ],
  ];
  if (info.description) lines.push(['about', info.description]);
  const label = Math.max(...lines.map(([k]) => k.length));
  const head = lines.map(([k, v]) => `${k.padEnd(label)}  ${v}`);
  return `${[...head, 'schema', ...schemaTree(info.schema.fields, info.partitionColumns)].join('\n')}\n`;
}
