// The flags that choose what to read (--version, --timestamp, --columns, --where, --option), shared by the commands that
// read a table, turned into a source spec. Whether the values are right is the source's to say (one message each),
// --version and --timestamp together included; only a --version that is not a version stops here, as the spec holds a
// number.
import { versionFromText, type DeltaSourceSpec, type OptionValue } from '../../shared/source-spec.js';
import { isStoreUrl, parseStoreLocation, storeUrl } from '../../shared/store-location.js';
import type { FilterSkipping } from '../../shared/table-info.js';
import { engineFrom, type EngineContext } from '../delta/engine/engine-context.js';
import { DeltaTable } from '../delta/table.js';
import { storeOptionProblems, type StoreOptions } from '../storage/store-options.js';
import { listFlag, onePositional, UsageError, type FlagKind, type ParsedArgs } from './args.js';

export const TIME_TRAVEL_FLAGS: Record<string, FlagKind> = { version: 'value', timestamp: 'value' };
/** --where "condition": the rows to read (commands that read rows). */
export const FILTER_FLAGS: Record<string, FlagKind> = { where: 'value' };

/** --storage-option key=value (repeatable): settings of the cloud client for the table's bucket. */
export const STORAGE_FLAGS: Record<string, FlagKind> = { 'storage-option': 'list' };

/** The table a command reads and the engine it is read through (delta/engine/engine-context.ts). */
export interface TableArgument {
  tablePath: string;
  engine: EngineContext;
  /** Opens a table through the engine: what a source spec is opened with. */
  openTable(tablePath: string): Promise<DeltaTable>;
}

/** The table argument: a folder or a cloud URL, read through an engine made once for the command, whose settings are
 * the --storage-option ones for the table's bucket (each cloud's own credential chain for the rest). */
export function tableArgument(args: ParsedArgs): TableArgument {
  const tablePath = onePositional(args, 'the table folder or URL');
  const engine = engineFrom({ storeOptions: storeOptionsFor(tablePath, args) });
  return { tablePath, engine, openTable: (path) => DeltaTable.open(path, engine) };
}

function storeOptionsFor(table: string, args: ParsedArgs): { prefix: string; options: StoreOptions }[] {
  const options = keyValues(args.lists.get('storage-option') ?? [], '--storage-option');
  if (Object.keys(options).length === 0) return [];
  if (!isStoreUrl(table))
    throw new UsageError(`--storage-option applies to tables in the cloud (s3://, gs://, az://, abfss://), not to ${table}`);
  const problems = storeOptionProblems(options as StoreOptions);
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  let store;
  try {
    store = parseStoreLocation(table)!;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return [{ prefix: `${storeUrl({ ...store, key: '' })}/`, options: options as StoreOptions }];
}

export function sourceSpec(tablePath: string, args: ParsedArgs): DeltaSourceSpec {
  const spec: DeltaSourceSpec = { tablePath, settingNames: { versionAsOf: '--version', timestampAsOf: '--timestamp' } };
  const version = args.values.get('version');
  if (version !== undefined) {
    const number = versionFromText('--version', version);
    if (typeof number === 'string') throw new UsageError(number);
    spec.versionAsOf = number;
  }
  const timestamp = args.values.get('timestamp');
  if (timestamp !== undefined) spec.timestampAsOf = timestamp;
  const where = args.values.get('where');
  if (where !== undefined) spec.filter = where;
  const columns = listFlag(args, 'columns');
  if (columns !== undefined) spec.columnNames = columns;
  const options: Record<string, OptionValue> = keyValues(args.lists.get('option') ?? [], '--option');
  if (Object.keys(options).length > 0) spec.options = options;
  return spec;
}

function keyValues(pairs: string[], flag: string): Record<string, string> {
  const options: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} takes key=value, got '${pair}'`);
    options[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return options;
}

/** "filter skipped 3 of 10 files (1.2 MiB of 4.0 MiB) by partition values and statistics". */
export function skippingLine(s: FilterSkipping): string {
  return `filter skipped ${s.filesSkipped} of ${s.filesTotal} files (${formatBytes(s.bytesSkipped)} of ${formatBytes(s.bytesTotal)}) by partition values and statistics`;
}

/** "12 bytes", "1.2 MiB". */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}
