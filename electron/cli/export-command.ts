// `deltaport export <table> ... --sink <target> [SQL sink options]`: one export, with progress on a terminal and a
// one-line summary at the end; with `--emit spark`, the same export written as a PySpark script instead.
import { LINE_ENDINGS, type CsvStyle, type LineEnding } from '../../shared/csv-style.js';
import { DeltaportError, validationError } from '../../shared/errors.js';
import { DEFAULT_EXECUTION, isExactlyOnce, validateSinkSpec, WRITE_MODES, type SinkSpec, type WriteMode } from '../../shared/sink-spec.js';
import { parseSinkTarget, SINK_TARGET_FORMS } from '../../shared/sink-target.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import { openRows } from '../export/open-rows.js';
import { scanForSink } from '../export/scan-batch-size.js';
import type { RowSource } from '../export/row-source.js';
import { runExport, type ExportProgress } from '../export/run-export.js';
import { saveSparkJob, sparkJobFor } from '../handoff/emit-spark-job.js';
import type { StorageResolver } from '../storage/storage.js';
import { tableNameOf } from '../catalog/catalog.js';
import { listFlag, numberFlag, parseArgs, UsageError, type ParsedArgs } from './args.js';
import type { CliIo } from './io.js';
import { CSV_FLAGS, SINK_FLAGS } from './sink-flags.js';
import {
  FILTER_FLAGS,
  skippingLine,
  sourceSpec,
  STORAGE_FLAGS,
  tableArgument,
  TIME_TRAVEL_FLAGS,
  type TableArgument,
} from './source-flags.js';

const FLAGS = {
  ...TIME_TRAVEL_FLAGS,
  ...STORAGE_FLAGS,
  ...FILTER_FLAGS,
  columns: 'value',
  option: 'list',
  ...SINK_FLAGS,
  emit: 'value',
  out: 'value',
} as const;

const SQL_ONLY = ['target', 'key', 'sql', 'batch-size', 'batch-interval-ms', 'max-retries', 'exactly-once'];
const PROGRESS_EVERY_MS = 200;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function exportCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, FLAGS, 'export');
  const { tablePath, engine, openTable } = tableArgument(args);
  const source = sourceSpec(tablePath, args);
  const sink = sinkSpec(tablePath, args);
  const emit = args.values.get('emit');
  if (emit !== undefined) return emitJob(emit, source, sink, args.values.get('out'), io, { engine, openTable });
  if (args.values.has('out')) throw new UsageError('--out applies only with --emit spark');
  const rows = await openRows(scanForSink(source, sink), { openTable });
  const result = await withProgress(io, (signal, onProgress) => runExport(rows, sink, { storage: engine.storage, signal, onProgress }));
  const resumed =
    result.resumedAfterRows !== undefined ? `; resumed after row ${result.resumedAfterRows}, which an earlier run had committed` : '';
  const skipped = result.skipping ? `; ${skippingLine(result.skipping)}` : '';
  io.stdout.write(
    `exported ${result.rows} rows in ${result.seconds.toFixed(1)} s (${Math.round(result.rowsPerSec)} rows/s)${resumed}${skipped}\n`,
  );
  return 0;
}

/** Rows that are not a snapshot's (a diff, a change feed, a query's result) into the sink the flags name, a file
 * target written through `storage` (the engine the rows were read through); one summary line. */
export async function exportRows(
  input: RowSource,
  storage: StorageResolver,
  tablePath: string,
  args: ParsedArgs,
  io: CliIo,
): Promise<void> {
  const sink = sinkSpec(tablePath, args);
  if (isExactlyOnce(sink)) throw new UsageError('--exactly-once applies only to snapshot exports');
  const { rows, seconds } = await withProgress(io, (signal, onProgress) => runExport(input, sink, { storage, signal, onProgress }));
  io.stdout.write(`exported ${rows} rows in ${seconds.toFixed(1)} s\n`);
}

/** Runs an export with progress on a terminal and Ctrl-C as a cancel. */
async function withProgress<T>(io: CliIo, run: (signal: AbortSignal, onProgress?: (p: ExportProgress) => void) => Promise<T>): Promise<T> {
  const progress = io.isTTY ? progressLine(io) : null;
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  io.signal?.addEventListener('abort', onInterrupt);
  // Ctrl-C and a polite kill both cancel: the sink then removes what it wrote (a SIGKILL's leftovers are swept by the
  // next export to the same target).
  if (!io.signal) for (const signal of STOP_SIGNALS) process.once(signal, onInterrupt);
  try {
    return await run(cancel.signal, progress?.update);
  } catch (err) {
    if (err instanceof DeltaportError && err.code === 'TARGET_EXISTS') {
      throw new DeltaportError(err.code, `${err.message}; give --force (or --mode overwrite) to replace it`);
    }
    throw err;
  } finally {
    progress?.clear();
    io.signal?.removeEventListener('abort', onInterrupt);
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onInterrupt);
  }
}

/** `--emit spark`: the same export as a PySpark script, on stdout or in the --out file; nothing is exported. */
async function emitJob(
  emit: string,
  source: DeltaSourceSpec,
  sink: SinkSpec,
  out: string | undefined,
  io: CliIo,
  { engine, openTable }: Pick<TableArgument, 'engine' | 'openTable'>,
): Promise<number> {
  if (emit !== 'spark') throw new UsageError(`--emit must be spark, got '${emit}'`);
  const script = await sparkJobFor(source, sink, openTable);
  if (out === undefined) {
    io.stdout.write(script);
    return 0;
  }
  io.stdout.write(`wrote the Spark job to ${await saveSparkJob(script, out, engine.storage)}\n`);
  return 0;
}

/** The sink the flags name, checked with the sink spec's own schema before anything is read. */
export function sinkSpec(tablePath: string, args: ParsedArgs): SinkSpec {
  const spec = sinkSpecOf(tablePath, args);
  const problems = validateSinkSpec(spec);
  if (problems.length > 0) throw validationError(problems);
  return spec;
}

function sinkSpecOf(tablePath: string, args: ParsedArgs): SinkSpec {
  const text = args.values.get('sink');
  if (text === undefined) throw new UsageError(`--sink is required (${SINK_TARGET_FORMS})`);
  const target = parseSinkTarget(text);
  if (!target) throw new UsageError(`--sink must be one of ${SINK_TARGET_FORMS}, got '${text}'`);
  const statementTimeoutMs = numberFlag(args, 'statement-timeout-ms');
  if (statementTimeoutMs !== undefined && target.kind !== 'postgres' && target.kind !== 'mysql')
    throw new UsageError('--statement-timeout-ms applies only to postgres and mysql sinks');
  const connections = numberFlag(args, 'connections');
  if (connections !== undefined && target.kind !== 'postgres') throw new UsageError('--connections applies only to postgres sinks');
  const csvFlag = Object.keys(CSV_FLAGS).find((f) => args.values.has(f));
  if (csvFlag && target.kind !== 'csv') throw new UsageError(`--${csvFlag} applies only to csv sinks`);
  if ('path' in target && target.kind !== 'sqlite' && target.kind !== 'duckdb') {
    const sqlFlag = SQL_ONLY.find((f) => args.values.has(f) || args.switches.has(f));
    if (sqlFlag) throw new UsageError(`--${sqlFlag} applies only to sqlite, postgres, mysql and duckdb sinks`);
    const fileMode = args.values.get('mode');
    if (fileMode !== undefined && fileMode !== 'overwrite') {
      throw new UsageError(`--mode for a ${target.kind} file can only be overwrite, got '${fileMode}'`);
    }
    const overwrite = args.switches.has('force') || fileMode === 'overwrite';
    const file = { path: target.path, ...(overwrite ? { overwrite } : {}) };
    return target.kind === 'csv' ? { kind: 'csv', ...file, ...csvStyleFlags(args) } : { kind: target.kind, ...file };
  }
  if (args.switches.has('force')) throw new UsageError('--force applies only to file sinks (use --mode overwrite for a table)');
  const mode = (args.values.get('mode') ?? 'append') as WriteMode;
  if (!WRITE_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${WRITE_MODES.join(', ')}, got '${mode}'`);
  const options = {
    table: args.values.get('target') ?? tableNameOf(tablePath),
    mode,
    keyColumns: listFlag(args, 'key'),
    sql: args.values.get('sql'),
    execution: {
      batchSize: numberFlag(args, 'batch-size') ?? DEFAULT_EXECUTION.batchSize,
      batchIntervalMs: numberFlag(args, 'batch-interval-ms') ?? DEFAULT_EXECUTION.batchIntervalMs,
      maxRetries: numberFlag(args, 'max-retries') ?? DEFAULT_EXECUTION.maxRetries,
    },
    exactlyOnce: args.switches.has('exactly-once'),
  };
  if ('url' in target) {
    const connection = { url: target.url, ...(statementTimeoutMs !== undefined ? { statementTimeoutMs } : {}) };
    if (target.kind === 'mysql') return { kind: target.kind, connection, ...options };
    return { kind: target.kind, connection, ...options, ...(connections !== undefined ? { connections } : {}) };
  }
  return { kind: target.kind, path: target.path, ...options };
}

function csvStyleFlags(args: ParsedArgs): Partial<CsvStyle> {
  const header = args.values.get('csv-header');
  if (header !== undefined && header !== 'true' && header !== 'false')
    throw new UsageError(`--csv-header must be true or false, got '${header}'`);
  const lineEnding = args.values.get('csv-line-ending');
  if (lineEnding !== undefined && !LINE_ENDINGS.includes(lineEnding as LineEnding))
    throw new UsageError(`--csv-line-ending must be ${LINE_ENDINGS.join(' or ')}, got '${lineEnding}'`);
  const style: Partial<CsvStyle> = {
    delimiter: args.values.get('csv-delimiter'),
    quote: args.values.get('csv-quote'),
    header: header === undefined ? undefined : header === 'true',
    nullText: args.values.get('csv-null'),
    lineEnding: lineEnding as LineEnding | undefined,
  };
  return Object.fromEntries(Object.entries(style).filter(([, value]) => value !== undefined));
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
