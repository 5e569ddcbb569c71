// `deltaport history <table> [--limit N] [--json]`: the table's commits, newest first.
import type { CommitSummary } from '../../shared/table-info.js';
import { formatEpochMs } from '../../shared/timestamp.js';
import { intFlag, parseArgs } from './args.js';
import type { CliIo } from './io.js';
import { STORAGE_FLAGS, tableArgument } from './source-flags.js';
import { renderTable } from './text-table.js';

export async function historyCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { limit: 'value', json: 'switch', ...STORAGE_FLAGS }, 'history');
  const { tablePath, openTable } = tableArgument(args);
  const limit = intFlag(args, 'limit', 1, 'a positive whole number');
  const commits = await (await openTable(tablePath)).history({ limit });
  if (args.switches.has('json')) {
    io.stdout.write(`${JSON.stringify(commits, null, 2)}\n`);
    return 0;
  }
  const columns = [
    { title: 'version', alignRight: true },
    { title: 'committed' },
    { title: 'operation' },
    { title: 'parameters' },
    { title: 'metrics' },
    { title: 'engine' },
  ];
  io.stdout.write(renderTable(columns, commits.map(row), io.color ?? false));
  return 0;
}

function row(c: CommitSummary): (string | null)[] {
  return [
    String(c.version),
    formatEpochMs(c.timestamp),
    c.operation ?? '',
    pairs(c.operationParameters),
    pairs(c.operationMetrics),
    c.engineInfo ?? '',
  ];
}

function pairs(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}
