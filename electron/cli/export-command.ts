// `deltaport export <table> ... --sink <target> [SQL sink options]`: one export, with progress on a terminal and a
// one-line summary at the end.
import path from 'node:path';
import { DEFAULT_EXECUTION, type SinkSpec, type WriteMode } from '../../shared/sink-spec.js';
import { parseSinkTarget, SINK_TARGET_FORMS } from '../../shared/sink-target.js';
import { runExport, type ExportProgress } from '../export/run-export.js';
import { intFlag, listFlag, onePositional, parseArgs, UsageError, type ParsedArgs } from './args.js';
import type { CliIo } from './io.js';
import { sourceSpec, TIME_TRAVEL_FLAGS } from './source-flags.js';

const FLAGS = {
  ...TIME_TRAVEL_FLAGS,
  columns: 'value',
  option: 'list',
  sink: 'value',
  target: 'value',
  mode: 'value',
  key: 'value',
  sql: 'value',
  'batch-size': 'value',
  'batch-interval-ms': 'value',
  'max-retries': 'value',
  'exactly-once': 'switch',
  'statement-timeout-ms': 'value',
} as const;

const SQL_ONLY = ['target', 'mode', 'key', 'sql', 'batch-size', 'batch-interval-ms', 'max-retries', 'exactly-once'];
const MODES: WriteMode[] = ['append', 'overwrite', 'upsert', 'sql'];
const PROGRESS_EVERY_MS = 200;

export async function exportCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, FLAGS, 'export');
  const tablePath = onePositional(args, 'the table folder');
  const source = sourceSpec(tablePath, args);
  const sink = sinkSpec(tablePath, args);

  const progress = io.isTTY ? progressLine(io) : null;
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  io.signal?.addEventListener('abort', onInterrupt);
  if (!io.signal) process.once('SIGINT', onInterrupt);
  try {
    const result = await runExport({ source, sink, signal: cancel.signal, onProgress: progress?.update });
    progress?.clear();
    const resumed = result.resumedAfterRows !== undefined ? `; resumed after row ${result.resumedAfterRows}, which an earlier run had committed` : '';
    io.stdout.write(`exported ${result.rows} rows in ${result.seconds.toFixed(1)} s (${Math.round(result.rowsPerSec)} rows/s)${resumed}\n`);
    return 0;
  } finally {
    progress?.clear();
    io.signal?.removeEventListener('abort', onInterrupt);
    process.removeListener('SIGINT', onInterrupt);
  }
}

export function sinkSpec(tablePath: string, args: ParsedArgs): SinkSpec {
  const text = args.values.get('sink');
  if (text === undefined) throw new UsageError(`--sink is required (${SINK_TARGET_FORMS})`);
  const target = parseSinkTarget(text);
  if (!target) throw new UsageError(`--sink must be one of ${SINK_TARGET_FORMS}, got '${text}'`);
  if (target.kind !== 'sqlite' && target.kind !== 'postgres') {
    const sqlFlag = SQL_ONLY.find((f) => args.values.has(f) || args.switches.has(f));
    if (sqlFlag) throw new UsageError(`--${sqlFlag} applies only to sqlite and postgres sinks`);
  }
  const statementTimeoutMs = intFlag(args, 'statement-timeout-ms', 1, 'a positive whole number of ms');
  if (statementTimeoutMs !== undefined && target.kind !== 'postgres') throw new UsageError('--statement-timeout-ms applies only to postgres sinks');
  if (target.kind !== 'sqlite' && target.kind !== 'postgres') return { kind: target.kind, path: target.path };
  const mode = (args.values.get('mode') ?? 'append') as WriteMode;
  if (!MODES.includes(mode)) throw new UsageError(`--mode must be one of ${MODES.join(', ')}, got '${mode}'`);
  const options = {
    table: args.values.get('target') ?? path.basename(path.resolve(tablePath)),
    mode,
    keyColumns: listFlag(args, 'key'),
    sql: args.values.get('sql'),
    execution: {
      batchSize: intFlag(args, 'batch-size', 1, 'a positive whole number') ?? DEFAULT_EXECUTION.batchSize,
      batchIntervalMs: intFlag(args, 'batch-interval-ms', 0, 'a whole number of ms') ?? DEFAULT_EXECUTION.batchIntervalMs,
      maxRetries: intFlag(args, 'max-retries', 0, 'a whole number') ?? DEFAULT_EXECUTION.maxRetries,
    },
    exactlyOnce: args.switches.has('exactly-once'),
  };
  if (target.kind === 'postgres') return { kind: 'postgres', connection: { url: target.url, ...(statementTimeoutMs !== undefined ? { statementTimeoutMs } : {}) }, ...options };
  return { kind: 'sqlite', path: target.path, ...options };
}

// One line on the terminal, redrawn at most every PROGRESS_EVERY_MS.
function progressLine(io: CliIo): { update: (p: ExportProgress) => void; clear: () => void } {
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = performance.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      const percent = p.bytesTotal > 0 ? Math.floor((100 * p.bytes) / p.bytesTotal) : 0;
      io.stderr.write(`\r\x1b[Kexporting: ${p.rows} rows, ${p.files}/${p.filesTotal} files, ${percent}%`);
      drawn = true;
    },
    clear() {
      if (drawn) io.stderr.write('\r\x1b[K');
      drawn = false;
    },
  };
}
