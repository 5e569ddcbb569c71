// The source spec: what to read from a Delta table. Shaped after Flink's bounded Delta source builder.
// Every rule that needs no table is in its schema (sourceSpecSchema), which the UI checks as the user types
// (validateSourceSpec, renderer/src/App.tsx), the host at its boundary (shared/api-schemas.ts), and the CLI and the
// builder where the source is opened (resolveSourceSpec, electron/delta/source.ts); checks that need the table
// itself (column names, version range, the filter's columns) happen there too, once the table is read.
import * as v from 'valibot';
import { filterSyntaxProblem } from './expression/index.js';
import { LIMITS, nonBlank, problemsOf, tableLocation, text } from './schema.js';
import type { PathRule } from './sink-spec.js';
import { parseTimestampAsOf } from './timestamp.js';

export type OptionValue = string | boolean | number;

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

/** No accepted form is longer. */
const TIMESTAMP_MAX = 64;

const OPTION_VALUE = 'an option value must be a string, a boolean or a finite number';
const optionValue = v.union([v.string(), v.boolean(), v.pipe(v.number(), v.finite(OPTION_VALUE))], OPTION_VALUE);

// Each setting's value as a number or epoch ms, or null when it is not one: the rule the schema checks and the
// conversion resolveSourceSpec makes, in one place. Options arrive as text from the CLI and forms, hence the digits.
const versionOf = integerFrom(0);
const batchSizeOf = integerFrom(1);
const timestampOf = (value: unknown): number | null =>
  typeof value === 'string' && value.length <= TIMESTAMP_MAX ? parseTimestampAsOf(value) : null;

/** `asText`: the value may be digits (an option's); a field's is a number. */
function versionProblem(name: string, value: unknown, asText: boolean): string | null {
  const ok = (asText || typeof value === 'number') && versionOf(value) !== null;
  return ok ? null : versionMessage(name, value);
}

const versionMessage = (name: string, value: unknown) => `${name} must be a non-negative integer, got ${show(value)}`;

function timestampProblem(name: string, value: unknown): string | null {
  if (typeof value !== 'string') return `${name} must be text in one of the forms ${TIMESTAMP_FORMS}, got ${show(value)}`;
  if (value.length > TIMESTAMP_MAX) return `${name} must be at most ${TIMESTAMP_MAX} characters`;
  if (timestampOf(value) === null) return `${name} ${show(value)} is not a valid UTC timestamp in one of the forms ${TIMESTAMP_FORMS}`;
  return null;
}

/** A version number (versionAsOf, a diff's ends), `name` naming it: the one rule and message wherever a version is
 * asked for. */
export function versionSchema(name: string) {
  return setting<number>((value) => versionProblem(name, value, false));
}

/** A version written as text (a command-line flag): its number, or the message the schema gives a wrong one. */
export function versionFromText(name: string, text: string): number | string {
  return versionOf(text) ?? versionMessage(name, text);
}

/** timestampAsOf, `name` naming it. */
export function timestampSchema(name: string) {
  return setting<string>((value) => timestampProblem(name, value));
}

/** A schema whose value is the one of type T that `problem` finds nothing wrong with; its message is the problem. */
function setting<T>(problem: (value: unknown) => string | null) {
  return v.custom<T>(
    (value) => problem(value) === null,
    (issue) => problem(issue.input) ?? '',
  );
}

const columnList = v.pipe(
  v.nullable(v.custom<string[]>(Array.isArray, 'the column list must be a list of names')),
  v.check((names) => names !== null, 'the column list is null: leave it out to read every column'),
  v.rawCheck<string[] | null>(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value) for (const message of columnListProblems(dataset.value)) addIssue({ message });
  }),
);

function columnListProblems(names: unknown[]): string[] {
  if (names.length === 0) return ['the column list is empty: name at least one column'];
  if (names.length > LIMITS.columns) return [`the column list must have at most ${LIMITS.columns} entries`];
  const problems: string[] = [];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  names.forEach((name, i) => {
    const where = `column name ${i + 1} of ${names.length}`;
    if (name === null || name === undefined) problems.push(`${where} is null`);
    else if (typeof name !== 'string') problems.push(`${where} is not a string: ${show(name)}`);
    else if (name === '') problems.push(`${where} is empty`);
    else if (name.trim() === '') problems.push(`${where} is blank`);
    else if (name.length > LIMITS.name * 5) problems.push(`${where} is longer than ${LIMITS.name * 5} characters`);
    else if (seen.has(name)) repeated.add(name);
    else seen.add(name);
  });
  for (const name of repeated) problems.push(`column '${name}' is listed more than once`);
  return problems;
}

function optionsSchema(names: Required<SettingNames>) {
  return v.pipe(
    v.custom<object>((o) => typeof o === 'object' && o !== null && !Array.isArray(o), 'the options must be an object'),
    v.record(text('an option name', LIMITS.name), optionValue),
    v.check((o) => Object.keys(o).length <= LIMITS.options, `the options must have at most ${LIMITS.options} entries`),
    v.rawCheck<Record<string, OptionValue>>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      for (const message of optionProblems(dataset.value, names)) addIssue({ message });
    }),
  );
}

function optionProblems(options: Record<string, OptionValue>, names: Required<SettingNames>): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(options)) {
    if ((SOURCE_OPTIONS as readonly string[]).includes(name)) continue;
    problems.push(
      CONTINUOUS_ONLY_OPTIONS.has(name)
        ? `option '${name}' applies only to continuous (streaming) sources; this source reads one snapshot`
        : `unknown option '${name}' (known options: ${SOURCE_OPTIONS.join(', ')})`,
    );
  }
  const { versionAsOf, timestampAsOf, parquetBatchSize } = options;
  const valueProblems = [
    versionAsOf === undefined ? null : versionProblem(names.versionAsOf, versionAsOf, true),
    timestampAsOf === undefined ? null : timestampProblem(names.timestampAsOf, timestampAsOf),
    parquetBatchSize === undefined || batchSizeOf(parquetBatchSize) !== null
      ? null
      : `option parquetBatchSize must be a positive integer, got ${show(parquetBatchSize)}`,
  ];
  return [...problems, ...valueProblems.filter((p) => p !== null)];
}

const filterSchema = v.pipe(
  text('the filter', LIMITS.filter),
  v.rawCheck<string>(({ dataset, addIssue }) => {
    const problem = dataset.typed && dataset.value.trim() !== '' ? filterSyntaxProblem(dataset.value) : null;
    if (problem) addIssue({ message: problem });
  }),
);

/** The spec's schema. `paths`: 'absolute' where the spec crosses to the host, which has no folder to resolve a
 * relative path against; `names`: how the user wrote versionAsOf and timestampAsOf, for messages. */
function sourceSpecSchemaFor(paths: PathRule, names: Required<SettingNames>) {
  const blank = 'the table path is empty';
  const shape = v.strictObject({
    tablePath: paths === 'absolute' ? tableLocation('the table path', { blank }) : nonBlank('the table path', LIMITS.path, blank),
    /** Columns to read, in this order; absent means every column in schema order. */
    columnNames: v.optional(columnList),
    versionAsOf: v.optional(versionSchema(names.versionAsOf)),
    /** One of the six accepted UTC formats, see shared/timestamp.ts. */
    timestampAsOf: v.optional(timestampSchema(names.timestampAsOf)),
    options: v.optional(optionsSchema(names)),
    /** Rows to keep, a SQL WHERE condition (shared/expression); blank means every row. Its columns are checked
     * against the schema when the source is opened. */
    filter: v.optional(filterSchema),
  });
  return v.pipe(shape, timeTravelRules(names));
}

/** The rules across the time-travel fields of a source spec or a table reference, on whatever the fields hold: a
 * setting given both as a field and as an option counts once, and a version and a timestamp cannot both be asked
 * for, whether or not each is valid. */
export function timeTravelRules<T>(names: Required<SettingNames> = DEFAULT_NAMES) {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    const spec: unknown = dataset.value;
    if (typeof spec !== 'object' || spec === null) return;
    for (const message of settingProblems(spec as RawSpec, names)) addIssue({ message });
  });
}

interface RawSpec {
  versionAsOf?: unknown;
  timestampAsOf?: unknown;
  options?: unknown;
}

function settingProblems(spec: RawSpec, names: Required<SettingNames>): string[] {
  const options = optionsOf(spec);
  const problems: string[] = [];
  const twice = (field: unknown, option: unknown, name: string) => {
    if (field !== undefined && option !== undefined && String(field) !== String(option)) {
      problems.push(`${name} is set twice with different values (${show(field)} and ${show(option)})`);
    }
  };
  twice(spec.versionAsOf, options.versionAsOf, names.versionAsOf);
  twice(spec.timestampAsOf, options.timestampAsOf, names.timestampAsOf);
  if ((spec.versionAsOf ?? options.versionAsOf) !== undefined && (spec.timestampAsOf ?? options.timestampAsOf) !== undefined) {
    problems.push(`${names.versionAsOf} and ${names.timestampAsOf} are mutually exclusive: set one of them`);
  }
  return problems;
}

function optionsOf(spec: RawSpec): Record<string, unknown> {
  const options = spec.options;
  return typeof options === 'object' && options !== null && !Array.isArray(options) ? (options as Record<string, unknown>) : {};
}

const DEFAULT_NAMES: Required<SettingNames> = { versionAsOf: 'versionAsOf', timestampAsOf: 'timestampAsOf' };

/** The spec as it crosses to the host: its shape, its sizes and every rule that needs no table. */
export const sourceSpecSchema = sourceSpecSchemaFor('absolute', DEFAULT_NAMES);

export type DeltaSourceSpec = v.InferOutput<typeof sourceSpecSchema> & {
  /** How the user wrote versionAsOf and timestampAsOf, for messages: the CLI's `--version` and `--timestamp`. */
  settingNames?: SettingNames;
};

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

/** Every problem found in the spec without looking at the table, one message each, in the host's words. */
export function validateSourceSpec(spec: unknown): string[] {
  const result = v.safeParse(sourceSpecSchema, spec);
  return result.success ? [] : problemsOf(result.issues);
}

// Where a source is opened in this process (the CLI, the builder), its path may be relative to the working folder.
const localSchemas = new Map<string, ReturnType<typeof sourceSpecSchemaFor>>();

/** The spec's problems, and its settings in their final form as far as they are valid (the table is still opened
 * with a wrong spec, so that the problems it alone can find are listed with the others). */
export function resolveSourceSpec(spec: DeltaSourceSpec): { problems: string[]; resolved: ResolvedSourceSpec } {
  const { settingNames, ...fields } = spec;
  const names = { ...DEFAULT_NAMES, ...settingNames };
  const key = `${names.versionAsOf}\0${names.timestampAsOf}`;
  let schema = localSchemas.get(key);
  if (!schema) localSchemas.set(key, (schema = sourceSpecSchemaFor('any', names)));
  const result = v.safeParse(schema, fields);
  const options = optionsOf(spec);
  const version = spec.versionAsOf ?? options.versionAsOf;
  const timestamp = spec.timestampAsOf ?? options.timestampAsOf;
  const filter = typeof spec.filter === 'string' && spec.filter.trim() !== '' ? spec.filter : undefined;
  return {
    problems: result.success ? [] : problemsOf(result.issues),
    resolved: {
      tablePath: spec.tablePath,
      columns: Array.isArray(spec.columnNames) ? spec.columnNames : undefined,
      versionAsOf: version === undefined ? undefined : (versionOf(version) ?? undefined),
      timestampMs: timestamp === undefined ? undefined : (timestampOf(timestamp) ?? undefined),
      batchSize:
        options.parquetBatchSize === undefined
          ? DEFAULT_PARQUET_BATCH_SIZE
          : (batchSizeOf(options.parquetBatchSize) ?? DEFAULT_PARQUET_BATCH_SIZE),
      filter,
    },
  };
}

/** A safe integer of at least `min` from a number or from decimal digits, else null. */
function integerFrom(min: number): (value: unknown) => number | null {
  return (value) => {
    const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= min ? n : null;
  };
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
