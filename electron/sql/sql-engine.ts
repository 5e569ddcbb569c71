// SQL over Delta snapshots: DuckDB runs the query, over tables our reader defines. Each table the query names (an
// opened table, or one at a version: `t@12`) is the snapshot our reader sees (deletion vectors, column mapping, type
// widening and every other rule of electron/delta/), only the columns the query mentions: a view over the snapshot's
// own Parquet files where DuckDB reads them as the reader does (duckdb/parquet-view.ts), else the reader's rows copied into
// DuckDB (arrow-to-duckdb.ts). DuckDB can read nothing else: no files but those snapshots' data files, no network, no
// extensions, no settings changes from SQL (external access off, configuration locked), its memory bounded and
// spilling into a folder the caller owns.
import { mkdirSync } from 'node:fs';
import type { RecordBatch, Schema } from 'apache-arrow';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { cancelledError, DeltaportError } from '../../shared/errors.js';
import type { TableRef as TableRefOfApi } from '../../shared/api.js';
import type { StructField } from '../../shared/delta-schema.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import type { FilterSkipping } from '../../shared/table-info.js';
import { DeltaSourceValidationError, openSource, type DeltaSource } from '../delta/source.js';
import type { DeltaTable } from '../delta/table.js';
import { memoized } from '../delta/memo-cache.js';
export { DEFAULT_MEMORY_LIMIT } from './limits.js';
import { appendBatch, createTableSql } from '../duckdb/arrow-to-duckdb.js';
import { createParquetView, parquetFiles, viewRows } from '../duckdb/parquet-view.js';
import { chunkToBatch, resultSchema } from './duckdb-to-arrow.js';
import { queryShape, type QueryShape } from './query-shape.js';
import { quoteName, quoteText } from '../../shared/sql-quote.js';
import { lineColumn, positionIn, rewriteVersionedNames, type TableRef } from './table-names.js';

/** Shapes kept: enough for the queries a user runs again from the SQL tab's history, or a host's callers. */
const SHAPES_KEPT = 32;

/** A table the query may use: where it is, and the snapshot its plain name stands for (the latest without either). */
export interface SqlTable {
  location: string;
  version?: number;
  timestamp?: string;
}

/** Opens a table at a path through an engine context (delta/engine/engine-context.ts). */
export type OpenTable = (tablePath: string) => Promise<DeltaTable>;

/** The API's tables (shared/api.ts TableRef) as the engine takes them. */
export function sqlTables(refs: Readonly<Record<string, TableRefOfApi>>): Record<string, SqlTable> {
  const tables: Record<string, SqlTable> = {};
  for (const [name, t] of Object.entries(refs)) tables[name] = { location: t.path, version: t.versionAsOf, timestamp: t.timestampAsOf };
  return tables;
}

export interface SqlLimits {
  /** DuckDB's memory_limit, e.g. '1GB'. */
  memoryLimit: string;
  /** Where DuckDB spills what does not fit; made if missing. */
  tempDirectory: string;
  /** DuckDB's worker threads; its default (every core) when absent. */
  threads?: number;
}

export interface SqlQuery {
  sql: string;
  /** The tables by the names the query uses. */
  tables: Readonly<Record<string, SqlTable>>;
  signal?: AbortSignal;
}

/** A snapshot the query read: its name in the query and the version it resolved to. */
export interface SqlSnapshot {
  name: string;
  /** The table's id (its metaData.id). */
  tableId: string;
  location: string;
  version: number;
  /** The columns read: those the query mentions (all with a `*`). */
  columns: string[];
  /** The rows read into the query: of a view over the snapshot's files, the snapshot's rows in the files it reads
   * (those the query's conditions do not rule out); of the reader's rows, those copied. */
  rows: number;
  /** The query's conditions the scan applied (query-shape.ts), and the files they let it skip. */
  filter?: string;
  skipping?: FilterSkipping;
  /** How DuckDB read it: its own Parquet scan over the snapshot's files (duckdb/parquet-view.ts), or the reader's rows copied
   * in (arrow-to-duckdb.ts). */
  readBy: 'parquet' | 'feed';
}

export interface SqlResult {
  schema: Schema;
  /** The result's columns as Delta fields: the types a sink creates them as. */
  fields: StructField[];
  /** The snapshots read, with their rows: the rows the query scanned. */
  snapshots: SqlSnapshot[];
  /** The result's rows; read them once. A cancel through the query's signal stops DuckDB mid-query. */
  batches: AsyncGenerator<RecordBatch>;
}

export class SqlEngine {
  /** Snapshots already in DuckDB, by location, version and columns: a table's version never changes. */
  private readonly loaded = new Map<string, { table: string; rows: number; readBy: SqlSnapshot['readBy'] }>();
  /** The snapshot table each name of a query is a view of now, so that a query again over the same needs no new view. */
  private readonly views = new Map<string, string>();
  /** Recent queries' shapes by their text: a query run again is not parsed again. */
  private readonly shapes = new Map<string, Promise<QueryShape>>();
  /** The data files DuckDB may read: those of the snapshots queries have read through duckdb/parquet-view.ts. */
  private readonly allowed = new Set<string>();
  /** Whether DuckDB's file access is limited to `allowed` and its configuration locked. Until then it has run
   * nothing but the parse of a query (query-shape.ts, the query given as a value): the list is set once the first
   * query's tables are known, sparing that query a second DuckDB. */
  private restricted = false;
  private busy = false;

  private constructor(
    /** DuckDB as it starts: the first query opens its snapshots meanwhile (query). */
    private duckdb: Promise<DuckDB>,
    private readonly limits: SqlLimits,
    private readonly openTable: OpenTable,
  ) {}

  /** `openTable` opens a query's tables, through the caller's engine context: the storage connections of the app, a
   * task worker's tables, the CLI's. DuckDB is started, not waited for: a DuckDB that cannot start fails the first
   * query. */
  static async open(limits: SqlLimits, openTable: OpenTable): Promise<SqlEngine> {
    mkdirSync(limits.tempDirectory, { recursive: true });
    const duckdb = createDuckDB(limits);
    duckdb.catch(() => undefined);
    return new SqlEngine(duckdb, limits, openTable);
  }

  /** Runs one query. One at a time per engine: a second while the first runs is refused. */
  async query(query: SqlQuery): Promise<SqlResult> {
    if (this.busy) throw new DeltaportError('VALIDATION', 'a query is already running; cancel it or wait for it to finish');
    if (query.sql.trim() === '') throw new DeltaportError('VALIDATION', 'the query is empty');
    this.busy = true;
    let handedOver = false;
    try {
      const names = new Map(Object.entries(query.tables).map(([name, table]) => [name.toLowerCase(), { name, table }]));
      const rewritten = rewriteVersionedNames(query.sql, new Set(Object.keys(query.tables)));
      const where = positionIn(query.sql, rewritten.shifts);
      const opening = new Map<string, OpeningSnapshot>();
      const open = (ref: TableRef) =>
        opening.set(ref.name.toLowerCase(), openSnapshot(ref, query.tables[ref.table].location, this.openTable));
      // The snapshots the query may name are opened while DuckDB (starting, in a new engine) parses it; those it does
      // not name after all are left unused.
      for (const ref of rewritten.refs) open(ref);
      for (const { name, table } of names.values()) if (namedIn(rewritten.sql, name)) open({ name, table: name, ...timeOf(table) });
      for (const opened of opening.values()) opened.whole.catch(() => undefined);
      const { connection: parser } = await this.duckdb;
      const shape = await memoized(this.shapes, rewritten.sql, () => queryShape(parser, rewritten.sql, where), SHAPES_KEPT);
      for (const name of shape.tables) {
        const table = names.get(name);
        if (table && !opening.has(name)) open({ name: table.name, table: table.name, ...timeOf(table.table) });
      }
      const planned: Planned[] = [];
      for (const [name, opened] of opening) {
        if (!shape.tables.has(name)) continue;
        checkCancelled(query.signal);
        planned.push(await this.plan(opened, shape.columns, shape.filters.get(name)));
      }
      const connection = await this.allow(planned.flatMap((p) => p.files ?? []));
      const snapshots: SqlSnapshot[] = [];
      for (const p of planned) {
        checkCancelled(query.signal);
        snapshots.push(await this.load(connection, p, query.signal));
      }
      checkCancelled(query.signal);
      const result = await run(connection, rewritten.sql, query.signal);
      handedOver = true;
      return { schema: result.schema, fields: result.fields, snapshots, batches: this.drain(connection, result, query.signal) };
    } finally {
      if (!handedOver) this.busy = false;
    }
  }

  /** Closes DuckDB once it has started (or failed to). */
  async close(): Promise<void> {
    const started = await this.duckdb.catch(() => null);
    started?.connection.closeSync();
    started?.instance.closeSync();
  }

  /** The snapshot a name in the query stands for, its columns the query may mean, and how DuckDB is to read it. */
  private async plan(
    { ref, spec, whole: opening }: OpeningSnapshot,
    columns: Set<string> | null,
    filter: string | undefined,
  ): Promise<Planned> {
    const whole = await opening;
    const chosen = chooseColumns(whole, columns);
    const source = await filteredSource({ ...spec, columnNames: chosen }, filter, this.openTable);
    return { ref, whole, chosen, source, filter: source.filter ? filter : undefined, files: parquetFiles(source) };
  }

  /** Lets DuckDB read these files too, and no others. The list is fixed once external access is off, so a longer one
   * takes a new DuckDB, and the snapshots loaded into the old one go with it. The connection to run the query on. */
  private async allow(files: string[]): Promise<DuckDBConnection> {
    const current = await this.duckdb;
    if (this.restricted && files.every((f) => this.allowed.has(f))) return current.connection;
    for (const f of files) this.allowed.add(f);
    let { connection } = current;
    if (this.restricted) {
      const next = await createDuckDB(this.limits);
      current.connection.closeSync();
      current.instance.closeSync();
      this.duckdb = Promise.resolve(next);
      ({ connection } = next);
      this.loaded.clear();
      this.views.clear();
    }
    await restrict(connection, [...this.allowed]);
    this.restricted = true;
    return connection;
  }

  /** Makes a planned snapshot a table of DuckDB's (once per location, version, columns and filter) under the query's
   * name for it: a view over its files, or else the reader's rows. */
  private async load(
    connection: DuckDBConnection,
    { ref, whole, chosen, source, filter, files }: Planned,
    signal?: AbortSignal,
  ): Promise<SqlSnapshot> {
    const key = JSON.stringify([whole.snapshot.tableRoot, whole.snapshot.version, chosen, filter ?? null]);
    let table = this.loaded.get(key);
    if (!table) {
      const name = `snapshot ${this.loaded.size + 1}`;
      const viewed = files ? await parquetView(connection, name, source) : null;
      table =
        viewed !== null
          ? { table: name, rows: viewed, readBy: 'parquet' }
          : { table: name, rows: await feed(connection, name, source, signal), readBy: 'feed' };
      this.loaded.set(key, table);
    }
    if (this.views.get(ref.name) !== table.table) {
      await connection.run(`CREATE OR REPLACE TEMP VIEW ${quoteName(ref.name)} AS SELECT * FROM ${quoteName(table.table)}`);
      this.views.set(ref.name, table.table);
    }
    return {
      name: ref.name,
      tableId: whole.snapshot.metadata.id,
      location: whole.snapshot.tableRoot,
      version: whole.snapshot.version,
      columns: chosen,
      rows: table.rows,
      readBy: table.readBy,
      ...(filter !== undefined && source.filter ? { filter, skipping: source.filter.skipping } : {}),
    };
  }

  private async *drain(
    connection: DuckDBConnection,
    { result, types, schema }: Awaited<ReturnType<typeof run>>,
    signal?: AbortSignal,
  ): AsyncGenerator<RecordBatch> {
    const onAbort = () => connection.interrupt();
    signal?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        let chunk;
        try {
          chunk = await result.fetchChunk();
        } catch (err) {
          throw duckError(err, signal);
        }
        if (!chunk || chunk.rowCount === 0) return;
        checkCancelled(signal);
        yield chunkToBatch(schema, types, chunk);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.busy = false;
    }
  }
}

/** The snapshot's rows as a view over its files; null where DuckDB cannot bind one (a column no file holds yet),
 * which the feed then reads. */
async function parquetView(connection: DuckDBConnection, name: string, source: DeltaSource): Promise<number | null> {
  try {
    await createParquetView(connection, name, source);
    return await viewRows(connection, name, source);
  } catch (err) {
    if (err instanceof DeltaportError) throw err;
    return null;
  }
}

/** Copies the reader's rows of the snapshot into a DuckDB table; the rows copied. */
async function feed(connection: DuckDBConnection, name: string, source: DeltaSource, signal?: AbortSignal): Promise<number> {
  await connection.run(createTableSql(name, source.schema));
  const appender = await connection.createAppender(name);
  let rows = 0;
  try {
    for await (const { batch } of source.batches({ signal })) {
      appendBatch(appender, batch);
      rows += batch.numRows;
    }
    appender.closeSync();
  } catch (err) {
    appender.closeSync();
    await connection.run(`DROP TABLE ${quoteName(name)}`);
    throw err;
  }
  return rows;
}

async function run(connection: DuckDBConnection, sql: string, signal?: AbortSignal) {
  const onAbort = () => connection.interrupt();
  signal?.addEventListener('abort', onAbort);
  try {
    const result = await connection.stream(sql);
    const types = result.columnTypes();
    return { result, types, ...resultSchema(result.columnNames(), types) };
  } catch (err) {
    throw duckError(err, signal);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** A snapshot the query names, opened: `files` when DuckDB reads it from its own data files (duckdb/parquet-view.ts). */
interface Planned {
  ref: TableRef;
  /** The snapshot with all its columns. */
  whole: DeltaSource;
  chosen: string[];
  /** Its chosen columns, with the query's conditions where the filter language takes them. */
  source: DeltaSource;
  filter: string | undefined;
  files: string[] | null;
}

/** A snapshot the query may name, being opened: the spec it is opened by, and the snapshot with all its columns. */
interface OpeningSnapshot {
  ref: TableRef;
  spec: DeltaSourceSpec;
  whole: Promise<DeltaSource>;
}

function openSnapshot(ref: TableRef, location: string, openTable: OpenTable): OpeningSnapshot {
  const spec: DeltaSourceSpec = {
    tablePath: location,
    settingNames: { versionAsOf: `the version in ${ref.name}`, timestampAsOf: `the timestamp in ${ref.name}` },
    ...(ref.version !== undefined ? { versionAsOf: ref.version } : {}),
    ...(ref.timestamp !== undefined ? { timestampAsOf: ref.timestamp } : {}),
  };
  return { ref, spec, whole: openSource(spec, openTable) };
}

/** Whether a table's plain name may be in the query: as a word, in any case (DuckDB's parse says for sure). */
function namedIn(sql: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_$])${escaped}($|[^A-Za-z0-9_$])`, 'i').test(sql);
}

interface DuckDB {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
}

/** A DuckDB that has run nothing yet; restrict it before it runs a query. */
async function createDuckDB(limits: SqlLimits): Promise<DuckDB> {
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: limits.memoryLimit,
    temp_directory: limits.tempDirectory,
    ...(limits.threads !== undefined ? { threads: String(limits.threads) } : {}),
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
  });
  return { instance, connection: await instance.connect() };
}

/** DuckDB's times as text read the same on every machine, as the reader's do; it reads only `files` from then on
 * (external access off once they are allowed), and no setting changes. One exchange with DuckDB: the first query
 * waits for it. */
async function restrict(connection: DuckDBConnection, files: string[]): Promise<void> {
  const settings = ["SET TimeZone = 'UTC'"];
  if (files.length > 0) settings.push(`SET allowed_paths = [${files.map(quoteText).join(', ')}]`);
  settings.push('SET enable_external_access = false', 'SET lock_configuration = true');
  await connection.run(settings.join('; '));
}

/** The source with the query's conditions as its filter; without them where the filter language reads them otherwise
 * than DuckDB would (a name or type it does not take): DuckDB applies them all again in any case. */
async function filteredSource(spec: DeltaSourceSpec, filter: string | undefined, openTable: OpenTable): Promise<DeltaSource> {
  if (filter === undefined) return openSource(spec, openTable);
  try {
    return await openSource({ ...spec, filter }, openTable);
  } catch (err) {
    if (err instanceof DeltaSourceValidationError) return openSource(spec, openTable);
    throw err;
  }
}

/** The snapshot a plain table name stands for. */
function timeOf(table: SqlTable): Pick<TableRef, 'version' | 'timestamp'> {
  if (table.version !== undefined) return { version: table.version };
  if (table.timestamp !== undefined) return { timestamp: table.timestamp };
  return {};
}

/** The columns of a snapshot the query may mean; with none (count(*)), the first, as the rows are still counted. */
function chooseColumns(source: DeltaSource, mentioned: Set<string> | null): string[] {
  if (mentioned === null) return source.columns;
  const chosen = source.columns.filter((c) => mentioned.has(c.toLowerCase()));
  return chosen.length > 0 ? chosen : source.columns.slice(0, 1);
}

function checkCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError('query');
}

/** DuckDB's error as one line: its first line, and where in the query when it says. */
function duckError(err: unknown, signal?: AbortSignal): DeltaportError {
  if (signal?.aborted) return cancelledError('query');
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split('\n');
  const caret = caretOffset(lines);
  const at = caret === null ? '' : ` (${lineColumn(caret.line, caret.column + 1)})`;
  const code = /^Permission Error/.test(lines[0]) ? 'FORBIDDEN' : 'VALIDATION';
  return new DeltaportError(code, `${lines[0]}${at}`);
}

/** DuckDB marks the place of an error under a "LINE n: <text>" line with a caret: the line and the (0-based) column
 * it marks. */
function caretOffset(lines: string[]): { line: number; column: number } | null {
  const at = lines.findIndex((l) => /^LINE \d+: /.test(l));
  if (at < 0 || at + 1 >= lines.length) return null;
  const head = /^LINE (\d+): /.exec(lines[at])!;
  const column = lines[at + 1].indexOf('^') - head[0].length;
  return column < 0 ? null : { line: Number(head[1]), column };
}
