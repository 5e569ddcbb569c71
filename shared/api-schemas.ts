// What each API method takes, as schemas: the host parses every payload with these (electron/app/ipc-validation.ts)
// before any handler sees it, so unknown fields are refused and sizes bounded in one place. Each schema yields what
// its method is declared to take (the `satisfies` below).
import * as v from 'valibot';
import { PREVIEW_MAX_OFFSET, PREVIEW_MAX_ROWS, type ApiMethod, type DeltaportApi } from './api.js';
import { changeSinkProblems, changeSourceSchema, isChangeSource, type ExportSource } from './change-source.js';
import { absolutePath, flag, LIMITS, location, nameList, nonBlank, tableLocation, text, wholeNumber, withRules } from './schema.js';
import { sinkSpecSchema } from './sink-spec.js';
import { sourceSpecSchema, timestampSchema, timeTravelRules, versionSchema as version } from './source-spec.js';

const HISTORY_MAX_ROWS = 1_000_000;

/** A table and, optionally, the version or time to read it at, by the source spec's rules; `path` is whatever the
 * method takes as a location. */
function tableRef(path: v.GenericSchema<unknown, string>) {
  return v.pipe(
    v.strictObject({ path, versionAsOf: v.optional(version('versionAsOf')), timestampAsOf: v.optional(timestampSchema('timestampAsOf')) }),
    timeTravelRules(),
  );
}

const tablePath = tableLocation('the table path');
const table = tableRef(tablePath);
const sink = sinkSpecSchema('absolute');
const profileName = nonBlank('the profile name', LIMITS.name);
const connectionName = nonBlank('the connection name', LIMITS.name);
/** A catalog connection's name is a part of its tables' names (uc://<name>/…): no slash, no space. */
const catalogConnectionName = v.pipe(
  connectionName,
  v.trim(),
  v.regex(/^[A-Za-z0-9_.-]+$/, "the connection name must be letters, digits, _, . and - (it begins its tables' names)"),
);
const connectionOptions = v.pipe(
  v.record(text('an option name', LIMITS.name), text('an option value', LIMITS.sql), 'the options must be an object of text values'),
  v.check((o) => Object.keys(o).length <= LIMITS.options, `the options must have at most ${LIMITS.options} entries`),
);
const jobId = v.strictObject({ id: nonBlank('the job id', 100) });

// A source naming `rows` is a table's changes or a query's result, any other a snapshot: each is checked by its own
// schema, so a problem is said in that schema's words rather than as a mismatch with all.
const exportSource: v.GenericSchema<unknown, ExportSource> = v.lazy((input) =>
  typeof input === 'object' && input !== null && 'rows' in input
    ? (input as { rows: unknown }).rows === 'sql'
      ? sqlSource
      : changeSourceSchema
    : sourceSpecSchema,
);
const exportShape = { source: exportSource, sink, profile: v.optional(profileName) };
const exportRequest = withRules(v.strictObject(exportShape), (req) => (isChangeSource(req.source) ? changeSinkProblems(req.sink) : []));

/** The caller's name for a read it may cancel (CancellableRead). */
const readId = nonBlank('the read id', 100);

const changeRows = v.strictObject({
  path: tablePath,
  from: version('from'),
  to: v.optional(version('to')),
  limit: wholeNumber('limit', 1, PREVIEW_MAX_ROWS),
  readId: v.optional(readId),
});

/** At most this many tables in one query. */
const SQL_MAX_TABLES = 32;
const queryId = nonBlank('the query id', 100);

const sqlTables = v.pipe(
  v.record(
    v.pipe(text('a table name', LIMITS.name), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a table name must be letters, digits and _')),
    table,
    'the tables must be an object of name: table',
  ),
  v.check((t) => Object.keys(t).length <= SQL_MAX_TABLES, `at most ${SQL_MAX_TABLES} tables`),
);
const sqlText = nonBlank('the query', LIMITS.sql);
const sqlSource = v.strictObject({ rows: v.literal('sql'), tablePath, sql: sqlText, tables: sqlTables });

const sqlRequest = v.strictObject({
  sql: sqlText,
  tables: sqlTables,
  limit: wholeNumber('limit', 1, PREVIEW_MAX_ROWS),
  queryId: v.optional(queryId),
});

/** Methods that take no argument accept nothing but null or undefined. */
const nothing = v.pipe(
  v.nullish(v.unknown()),
  v.check((x) => x === null || x === undefined, 'takes no argument'),
  v.transform(() => undefined),
);

export const REQUEST_SCHEMAS = {
  // The table a user typed: its location is resolved (relative, ~, file://) by the host, see table-location.ts.
  openTable: tableRef(text('the table path', LIMITS.path)),
  history: v.strictObject({ path: tablePath, limit: v.optional(wholeNumber('limit', 1, HISTORY_MAX_ROWS)), readId: v.optional(readId) }),
  resolveVersion: table,
  latestVersion: v.strictObject({ path: tablePath }),
  preview: v.strictObject({
    source: sourceSpecSchema,
    limit: wholeNumber('limit', 1, PREVIEW_MAX_ROWS),
    offset: v.optional(wholeNumber('offset', 0, PREVIEW_MAX_OFFSET)),
    readId: v.optional(readId),
    orderBy: v.optional(
      v.pipe(
        v.array(
          v.strictObject({
            column: text('the sort column', LIMITS.name),
            descending: flag('descending'),
            nullsFirst: v.optional(flag('nullsFirst')),
          }),
          'the order must be a list',
        ),
        v.maxLength(LIMITS.columns, `the order must have at most ${LIMITS.columns} entries`),
      ),
    ),
  }),
  profile: v.strictObject({ table, exact: v.optional(flag('exact')), readId: v.optional(readId) }),
  partitions: table,
  diff: v.strictObject({ ...changeRows.entries, pairBy: v.optional(nameList('pairBy')) }),
  changes: changeRows,
  sql: sqlRequest,
  cancelSql: v.strictObject({ queryId }),
  planExport: exportRequest,
  testConnection: v.strictObject({ sink, profile: v.optional(profileName) }),
  exportSparkJob: v.strictObject({ ...exportShape, source: sourceSpecSchema, savePath: v.optional(absolutePath('the save path')) }),
  startExport: exportRequest,
  cancelJob: jobId,
  retryJob: v.strictObject({
    ...jobId.entries,
    choice: v.optional(v.picklist(['append', 'replace'], 'the choice must be append or replace')),
  }),
  listJobs: nothing,
  revealTarget: jobId,
  recentTables: nothing,
  sampleTable: nothing,
  listProfiles: nothing,
  saveProfile: v.strictObject({ name: profileName, sink }),
  deleteProfile: v.strictObject({ name: profileName }),
  listStorageConnections: nothing,
  // The options' names and their fit to the prefix's store are the host's to check (storage-connection-rules.ts).
  saveStorageConnection: v.strictObject({
    name: connectionName,
    prefix: nonBlank('the prefix', LIMITS.path),
    options: connectionOptions,
  }),
  deleteStorageConnection: v.strictObject({ name: connectionName }),
  chooseTableFolder: nothing,
  chooseSqliteFile: nothing,
  cancelRead: v.strictObject({ readId }),
  readProgress: v.strictObject({ readId }),
  chooseDuckdbFile: nothing,
  browse: v.strictObject({
    location: location('the folder'),
    page: v.optional(nonBlank('the page', LIMITS.path)),
    filter: v.optional(text('the filter', LIMITS.name)),
  }),
  listCatalogConnections: nothing,
  // The options' names and their fit to the kind of catalog are the host's to check (catalog-connections.ts).
  saveCatalogConnection: v.strictObject({
    name: catalogConnectionName,
    kind: v.picklist(['unity', 'glue'], 'the kind must be unity or glue'),
    options: connectionOptions,
  }),
  deleteCatalogConnection: v.strictObject({ name: catalogConnectionName }),
  browseCatalog: v.strictObject({
    location: nonBlank('the catalog location', LIMITS.path),
    page: v.optional(text('the page', LIMITS.path)),
    filter: v.optional(text('the filter', LIMITS.name)),
  }),
} satisfies { [M in ApiMethod]: v.GenericSchema<unknown, Parameters<DeltaportApi[M]>[0]> };
