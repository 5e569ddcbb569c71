// `deltaport sql "<query>" --table name=location[@version] ... [--format table|jsonl|csv] [--limit N] [--sink ...]`,
// or `deltaport sql <table> "<query>"` with the one table named t: a query over the named snapshots (electron/sql/),
// its rows printed, or exported to any sink as a snapshot is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isCatalogName } from '../../shared/catalog-name.js';
import { parseTimestampAsOf } from '../../shared/timestamp.js';
import { engineFrom } from '../delta/engine/engine-context.js';
import { TableCache } from '../delta/table-cache.js';
import type { DeltaTable } from '../delta/table.js';
import { memoryLimitProblem } from '../sql/limits.js';
import { DEFAULT_MEMORY_LIMIT, SqlEngine, type SqlResult, type SqlTable } from '../sql/sql-engine.js';
import { SQL_NOT_EXACTLY_ONCE, sqlExportInput } from '../sql/sql-export.js';
import { parseArgs, UsageError, type ParsedArgs } from './args.js';
import { formatFlag, limitFlag, writeRows } from './batch-output.js';
import { SINK_FLAGS } from './sink-flags.js';
import type { CliIo } from './io.js';
import { catalogTableOpener } from './catalog-table.js';
import { catalogOptionsOf, skippingLine } from './source-flags.js';

const FLAGS = {
  table: 'list',
  format: 'value',
  limit: 'value',
  'memory-limit': 'value',
  'catalog-option': 'list',
  ...SINK_FLAGS,
} as const;

/** The name of the one table given before the query. */
export const SINGLE_TABLE_NAME = 't';

export async function sqlCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, FLAGS, 'sql');
  const { sql, tables } = queryAndTables(args);
  const format = formatFlag(args);
  const limit = limitFlag(args, format);
  if (args.values.has('sink') && args.switches.has('exactly-once')) throw new UsageError(SQL_NOT_EXACTLY_ONCE);
  const memoryLimit = args.values.get('memory-limit') ?? DEFAULT_MEMORY_LIMIT;
  const problem = memoryLimitProblem(memoryLimit);
  if (problem) throw new UsageError(`--memory-limit: ${problem}`);
  const tempDirectory = mkdtempSync(path.join(tmpdir(), 'deltaport-sql-'));
  // A query's tables may be in several stores: each cloud's own credential chain finds their credentials; a table
  // named in a catalog is read with the catalog's, the catalog being the one --catalog-option describes.
  const base = engineFrom({ storeOptions: [] });
  const opened = new TableCache(base);
  const catalogTables = new Map<string, (tablePath: string) => Promise<DeltaTable>>();
  const catalogOptions = catalogOptionsOf(args);
  const openTable = (location: string): Promise<DeltaTable> => {
    if (!isCatalogName(location)) return opened.open(location);
    let open = catalogTables.get(location);
    if (!open) catalogTables.set(location, (open = catalogTableOpener(location, catalogOptions, base)));
    return open(location);
  };
  const engine = await SqlEngine.open({ memoryLimit, tempDirectory }, openTable);
  try {
    const started = performance.now();
    const result = await engine.query({ sql, tables, signal: io.signal });
    if (args.values.has('sink')) {
      // The export's code is loaded only for an export: printing rows needs none of it.
      const { exportRows } = await import('./export-command.js');
      await exportRows(sqlExportInput(result), opened.engine.storage, Object.values(tables)[0].location, args, io);
      return 0;
    }
    const columns = result.schema.fields.map((f) => f.name);
    const { written, more } = await writeRows(result.batches, result.schema, columns, format, limit, io);
    if (format === 'table') {
      const count = `${written} row${written === 1 ? '' : 's'}`;
      io.stdout.write(more ? `(${count}; more rows exist, see --limit)\n` : `(${count})\n`);
      io.stdout.write(`(${scannedLine(result, (performance.now() - started) / 1000)})\n`);
    }
    return 0;
  } finally {
    await engine.close();
    rmSync(tempDirectory, { recursive: true, force: true });
  }
}

/** "scanned 3245 rows (t: version 0) in 0.1 s; filter skipped 7 of 8 files (5.0 MiB of 5.9 MiB) by ...". */
function scannedLine(result: SqlResult, seconds: number): string {
  const rows = result.snapshots.reduce((n, s) => n + s.rows, 0);
  const which = result.snapshots.map((s) => `${s.name}: version ${s.version}`).join(', ');
  const skipped = result.snapshots.map((s) => (s.skipping ? `; ${skippingLine(s.skipping)}` : '')).join('');
  return `scanned ${rows} rows${which ? ` (${which})` : ''} in ${seconds.toFixed(1)} s${skipped}`;
}

function queryAndTables(args: ParsedArgs): { sql: string; tables: Record<string, SqlTable> } {
  const tables: Record<string, SqlTable> = {};
  for (const text of args.lists.get('table') ?? []) {
    const { name, table } = tableFlag(text);
    if (name in tables) throw new UsageError(`--table ${name} is given more than once`);
    tables[name] = table;
  }
  const [first, second, extra] = args.positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  if (first === undefined) throw new UsageError('missing the query');
  if (second !== undefined) {
    if (SINGLE_TABLE_NAME in tables) throw new UsageError(`--table ${SINGLE_TABLE_NAME} names the table given before the query again`);
    tables[SINGLE_TABLE_NAME] = tableAt(first);
  }
  if (Object.keys(tables).length === 0) throw new UsageError('give a table and a query: sql <table> "<query>", or --table name=location');
  return { sql: second ?? first, tables };
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** --table name=location, the location optionally ending in @version (@12, @v12) or @timestamp. */
function tableFlag(text: string): { name: string; table: SqlTable } {
  const eq = text.indexOf('=');
  const name = text.slice(0, Math.max(eq, 0)).trim();
  if (eq <= 0 || !NAME.test(name) || eq === text.length - 1) {
    throw new UsageError(`--table takes name=location (a name of letters, digits and _), got '${text}'`);
  }
  return { name, table: tableAt(text.slice(eq + 1)) };
}

/** A location, with the snapshot its last @ names when what follows it is a version or a timestamp. */
function tableAt(text: string): SqlTable {
  const at = text.lastIndexOf('@');
  if (at <= 0) return { location: text };
  const suffix = text.slice(at + 1).replace(/^'(.*)'$/, '$1');
  const location = text.slice(0, at);
  const version = /^v?(\d+)$/.exec(suffix);
  if (version) return { location, version: Number(version[1]) };
  if (parseTimestampAsOf(suffix) !== null) return { location, timestamp: suffix };
  return { location: text };
}
