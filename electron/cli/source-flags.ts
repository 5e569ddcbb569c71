// The flags that choose what to read (--version, --timestamp, --columns, --where, --option), shared by the commands that
// read a table, turned into a source spec. Whether the values are right is the source's to say (one message each),
// --version and --timestamp together included; only a --version that is not a version stops here, as the spec holds a
// number.
import { versionFromText, type DeltaSourceSpec, type OptionValue } from '../../shared/source-spec.js';
import { isCatalogName } from '../../shared/catalog-name.js';
import { isStoreUrl, parseStoreLocation } from '../../shared/store-location.js';
import type { FilterSkipping } from '../../shared/table-info.js';
import { engineFrom, type EngineContext } from '../delta/engine/engine-context.js';
import { DeltaTable } from '../delta/table.js';
import { catalogTableOpener } from './catalog-table.js';
import { bucketPrefix, storeOptionProblems, type PrefixedStoreOptions, type StoreOptions } from '../storage/store-options.js';
import { listFlag, onePositional, UsageError, type FlagKind, type ParsedArgs } from './args.js';

export const TIME_TRAVEL_FLAGS: Record<string, FlagKind> = { version: 'value', timestamp: 'value' };
/** --where "condition": the rows to read (commands that read rows). */
export const FILTER_FLAGS: Record<string, FlagKind> = { where: 'value' };

/** --storage-option key=value (repeatable): settings of the cloud client for the table's bucket; --catalog-option
 * key=value (repeatable): how to reach the catalog of a table named in one (uc://, glue://). */
export const STORAGE_FLAGS: Record<string, FlagKind> = { 'storage-option': 'list', 'catalog-option': 'list' };

/** The table a command reads and the engine it is read through (delta/engine/engine-context.ts). */
export interface TableArgument {
  tablePath: string;
  engine: EngineContext;
  /** Opens a table through the engine: what a source spec is opened with. */
  openTable(tablePath: string): Promise<DeltaTable>;
}

/** The table argument: a folder, a cloud URL or a catalog name, read through an engine made once for the command,
 * whose settings are the --storage-option ones for the table's bucket (each cloud's own credential chain for the
 * rest); a catalog table's files are read with the catalog's credentials where it vends them. */
export function tableArgument(args: ParsedArgs): TableArgument {
  const tablePath = onePositional(args, 'the table folder, URL or catalog name');
  const catalogOptions = catalogOptionsOf(args);
  if (isCatalogName(tablePath)) {
    const engine = engineFrom({ storeOptions: catalogStoreOptions(args) });
    return { tablePath, engine, openTable: catalogTableOpener(tablePath, catalogOptions, engine) };
  }
  if (Object.keys(catalogOptions).length > 0)
    throw new UsageError(`--catalog-option applies to tables named in a catalog (uc://, glue://), not to ${tablePath}`);
  const engine = engineFrom({ storeOptions: storeOptionsFor(tablePath, args) });
  return { tablePath, engine, openTable: (path) => DeltaTable.open(path, engine) };
}

/** The --catalog-option flags. */
export function catalogOptionsOf(args: ParsedArgs): Record<string, string> {
  return keyValues(args.lists.get('catalog-option') ?? [], '--catalog-option');
}

/** A catalog table's bucket is known only once the catalog answers: --storage-option then applies to every store. */
function catalogStoreOptions(args: ParsedArgs): PrefixedStoreOptions {
  const options = storageOptionsOf(args);
  if (Object.keys(options).length === 0) return [];
  return ['s3://', 'gs://', 'az://', 'abfss://'].map((prefix) => ({ prefix, options }));
}

function storageOptionsOf(args: ParsedArgs): StoreOptions {
  const options = keyValues(args.lists.get('storage-option') ?? [], '--storage-option');
  const problems = storeOptionProblems(options);
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  return options;
}

function storeOptionsFor(table: string, args: ParsedArgs): PrefixedStoreOptions {
  const options = storageOptionsOf(args);
  if (Object.keys(options).length === 0) return [];
  if (!isStoreUrl(table))
    throw new UsageError(`--storage-option applies to tables in the cloud (s3://, gs://, az://, abfss://), not to ${table}`);
  let store;
  try {
    store = parseStoreLocation(table)!;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return [{ prefix: bucketPrefix(store), options }];
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
