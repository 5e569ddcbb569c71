// The flags that choose what to read (--version, --timestamp, --columns, --option), shared by the commands that
// read a table, turned into a source spec. Whether the values are right is the source's to say (one message each).
import type { DeltaSourceSpec, OptionValue } from '../../shared/source-spec.js';
import { intFlag, listFlag, UsageError, type FlagKind, type ParsedArgs } from './args.js';

export const TIME_TRAVEL_FLAGS: Record<string, FlagKind> = { version: 'value', timestamp: 'value' };

export function sourceSpec(tablePath: string, args: ParsedArgs): DeltaSourceSpec {
  const spec: DeltaSourceSpec = { tablePath, settingNames: { versionAsOf: '--version', timestampAsOf: '--timestamp' } };
  const version = intFlag(args, 'version', 0, 'a version number (0 or more)');
  if (version !== undefined && args.values.has('timestamp')) {
    throw new UsageError('--version and --timestamp are mutually exclusive: give one of them');
  }
  if (version !== undefined) spec.versionAsOf = version;
  const timestamp = args.values.get('timestamp');
  if (timestamp !== undefined) spec.timestampAsOf = timestamp;
  const columns = listFlag(args, 'columns');
  if (columns !== undefined) spec.columnNames = columns;
  const options = optionFlags(args.lists.get('option') ?? []);
  if (Object.keys(options).length > 0) spec.options = options;
  return spec;
}

function optionFlags(pairs: string[]): Record<string, OptionValue> {
  const options: Record<string, OptionValue> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--option takes key=value, got '${pair}'`);
    options[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return options;
}
