// The source spec: what to read from a Delta table. Shaped after Flink's bounded Delta source builder.
// Pure validation (sourceSpecSchema, validateSourceSpec) lives here: the UI validates with it as the user types
// (renderer/src/App.tsx), the host at its boundary (shared/api-schemas.ts); checks that need the table itself
// (column names, version range) happen in electron/delta/source.ts when the source is built.
import * as v from 'valibot';
import { filterSyntaxProblem } from './expression/index.js';
import { LIMITS, location, nameList, nonBlank, text, wholeNumber, withRules } from './schema.js';
import { parseTimestampAsOf } from './timestamp.js';

const OPTION_VALUE = 'an option value must be a string, a boolean or a finite number';
const optionValue = v.union([v.string(), v.boolean(), v.pipe(v.number(), v.finite(OPTION_VALUE))], OPTION_VALUE);

const sourceShape = v.strictObject({
  tablePath: location('the table path'),
  /** Columns to read, in this order; absent means every column in schema order. */
  columnNames: v.optional(v.nullable(nameList('the column list'))),
  versionAsOf: v.optional(wholeNumber('versionAsOf', 0)),
  /** One of the six accepted UTC formats, see shared/timestamp.ts. */
  timestampAsOf: v.optional(nonBlank('timestampAsOf', 64)),
  options: v.optional(
    v.pipe(
      v.custom<object>((o) => typeof o === 'object' && o !== null && !Array.isArray(o), 'the options must be an object'),
      v.record(text('an option name', LIMITS.name), optionValue),
      v.check((o) => Object.keys(o).length <= LIMITS.options, `the options must have at most ${LIMITS.options} entries`),
    ),
  ),
  /** Rows to keep, a SQL WHERE condition (shared/expression); blank means every row. Checked against the schema
   * when the source is opened. */
  filter: v.optional(text('the filter', LIMITS.filter)),
});

/** The spec as it crosses to the host: its shape and sizes, then every rule that needs no table. */
export const sourceSpecSchema = withRules(sourceShape, (spec) => validateSourceSpec(spec));

export type OptionValue = string | boolean | number;

export type DeltaSourceSpec = v.InferOutput<typeof sourceShape> & {
  /** How the user wrote versionAsOf and timestampAsOf, for messages: the CLI's `--version` and `--timestamp`. */
  settingNames?: SettingNames;
};

export interface SettingNames {
  versionAsOf?: string;
  timestampAsOf?: string;
}

/** Rows per emitted batch when parquetBatchSize is not set (Flink's default). */
export const DEFAULT_PARQUET_BATCH_SIZE = 2048;

/** The options a bounded source takes; versionAsOf and timestampAsOf may also be set as options, as in Flink. */
export const SOURCE_OPTIONS = ['versionAsOf', 'timestampAsOf', 'parquetBatchSize'] as const;

// Flink's continuous-source options: known names, so the message can say why they do not apply here.
const CONTINUOUS_ONLY_OPTIONS = new Set([
  'startingVersion',
  'startingTimestamp',
  'updateCheckIntervalMillis',
  'updateCheckDelayMillis',
  'ignoreDeletes',
  'ignoreChanges',
]);

export const TIMESTAMP_FORMS =
  '2022-02-24, 2022-02-24 04:55:00, 2022-02-24 04:55:00.001, 2022-02-24T04:55:00, 2022-02-24T04:55:00.001, ' + '2022-02-24T04:55:00.001Z';

/** A spec with its settings checked and put in their final form. */
export interface ResolvedSourceSpec {
  tablePath: string;
  /** Undefined = every column. */
  columns: string[] | undefined;
  versionAsOf: number | undefined;
  /** Epoch ms of timestampAsOf. */
  timestampMs: number | undefined;
  batchSize: number;
  /** Undefined = every row. */
  filter: string | undefined;
}

/** Every problem found in the spec without looking at the table, one message each. */
export function validateSourceSpec(spec: DeltaSourceSpec): string[] {
  return resolveSourceSpec(spec).problems;
}

export function resolveSourceSpec(spec: DeltaSourceSpec): { problems: string[]; resolved: ResolvedSourceSpec } {
  const problems: string[] = [];
  if (typeof spec.tablePath !== 'string' || spec.tablePath.trim() === '') problems.push('the table path is empty');

  const columns = checkColumns(spec, problems);
  const options = spec.options ?? {};
  for (const name of Object.keys(options)) {
    if ((SOURCE_OPTIONS as readonly string[]).includes(name)) continue;
    problems.push(
      CONTINUOUS_ONLY_OPTIONS.has(name)
        ? `option '${name}' applies only to continuous (streaming) sources; this source reads one snapshot`
        : `unknown option '${name}' (known options: ${SOURCE_OPTIONS.join(', ')})`,
    );
  }

  const versionName = spec.settingNames?.versionAsOf ?? 'versionAsOf';
  const timestampName = spec.settingNames?.timestampAsOf ?? 'timestampAsOf';
  const versionSetting = pickSetting(spec.versionAsOf, options.versionAsOf, versionName, problems);
  const versionAsOf = versionSetting === undefined ? undefined : checkVersion(versionSetting, versionName, problems);
  const timestampSetting = pickSetting(spec.timestampAsOf, options.timestampAsOf, timestampName, problems);
  const timestampMs = timestampSetting === undefined ? undefined : checkTimestamp(timestampSetting, timestampName, problems);
  if (versionSetting !== undefined && timestampSetting !== undefined) {
    problems.push(`${versionName} and ${timestampName} are mutually exclusive: set one of them`);
  }

  let batchSize = DEFAULT_PARQUET_BATCH_SIZE;
  if (options.parquetBatchSize !== undefined) {
    const n = integerOf(options.parquetBatchSize);
    if (n === null || n < 1) {
      problems.push(`option parquetBatchSize must be a positive integer, got ${show(options.parquetBatchSize)}`);
    } else {
      batchSize = n;
    }
  }

  let filter: string | undefined;
  if (spec.filter !== undefined && spec.filter !== null) {
    if (typeof spec.filter !== 'string') problems.push(`the filter must be text, got ${show(spec.filter)}`);
    else if (spec.filter.trim() !== '') {
      filter = spec.filter;
      const problem = filterSyntaxProblem(filter);
      if (problem) problems.push(problem);
    }
  }

  return {
    problems,
    resolved: { tablePath: spec.tablePath, columns, versionAsOf, timestampMs, batchSize, filter },
  };
}

function checkColumns(spec: DeltaSourceSpec, problems: string[]): string[] | undefined {
  if (!('columnNames' in spec) || spec.columnNames === undefined) return undefined;
  const names: unknown = spec.columnNames;
  if (names === null) {
    problems.push('the column list is null: leave it out to read every column');
    return undefined;
  }
  if (!Array.isArray(names)) {
    problems.push('the column list must be a list of names');
    return undefined;
  }
  if (names.length === 0) problems.push('the column list is empty: name at least one column');
  const seen = new Set<string>();
  const repeated = new Set<string>();
  names.forEach((name: unknown, i) => {
    const where = `column name ${i + 1} of ${names.length}`;
    if (name === null || name === undefined) problems.push(`${where} is null`);
    else if (typeof name !== 'string') problems.push(`${where} is not a string: ${show(name)}`);
    else if (name === '') problems.push(`${where} is empty`);
    else if (name.trim() === '') problems.push(`${where} is blank`);
    else if (seen.has(name)) repeated.add(name);
    else seen.add(name);
  });
  for (const name of repeated) problems.push(`column '${name}' is listed more than once`);
  return names as string[];
}

// A setting given both as a field and as an option counts once; two different values are an error.
function pickSetting(field: unknown, option: OptionValue | undefined, name: string, problems: string[]): unknown {
  if (field !== undefined && option !== undefined && String(field) !== String(option)) {
    problems.push(`${name} is set twice with different values (${show(field)} and ${show(option)})`);
  }
  return field ?? option;
}

function checkVersion(value: unknown, name: string, problems: string[]): number | undefined {
  const n = integerOf(value);
  if (n === null || n < 0) {
    problems.push(`${name} must be a non-negative integer, got ${show(value)}`);
    return undefined;
  }
  return n;
}

function checkTimestamp(value: unknown, name: string, problems: string[]): number | undefined {
  if (typeof value !== 'string') {
    problems.push(`${name} must be text in one of the forms ${TIMESTAMP_FORMS}, got ${show(value)}`);
    return undefined;
  }
  const ms = parseTimestampAsOf(value);
  if (ms === null) {
    problems.push(`${name} ${show(value)} is not a valid UTC timestamp in one of the forms ${TIMESTAMP_FORMS}`);
    return undefined;
  }
  return ms;
}

/** A safe integer from a number or from decimal digits (option values arrive as text from the CLI and forms). */
function integerOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : null;
  }
  return null;
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
