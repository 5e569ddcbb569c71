// The bounded Delta source, modelled on Flink's RowDataBoundedDeltaSourceBuilder: a builder collects columns, a
// version or timestamp and options; build() checks all of it at once, against the table where needed, and reports
// every problem in one DeltaSourceValidationError. Errors of the table itself (no _delta_log, unsupported protocol,
// a missing data file) keep their own types.
import { availableParallelism } from 'node:os';
import type { Schema } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import type { DeltaSourceSpec, OptionValue } from '../../shared/source-spec.js';
import { outputSchema, selectFields } from './scan/arrow-types.js';
import { compileFilter } from '../../shared/expression/index.js';
import { filterBatches, planFilter, scanColumns, type FilterPlan } from './filter/filtered-scan.js';
import type { ScanBatch, ScanOptions, ScanPosition } from './scan/scan-types.js';
import type { Snapshot } from './snapshot.js';
import { DeltaSourceValidationError, openSpecSnapshot } from './source-snapshot.js';
import { DeltaTable } from './table.js';
import type { EngineContext } from './engine/engine-context.js';

export { DeltaSourceValidationError } from './source-snapshot.js';

export interface DeltaSource {
  readonly table: DeltaTable;
  readonly snapshot: Snapshot;
  /** The columns read, in output order. */
  readonly columns: string[];
  /** Delta fields of those columns. */
  readonly fields: StructField[];
  /** Arrow schema of every batch. */
  readonly schema: Schema;
  readonly batchSize: number;
  /** The spec's filter as checked and planned, with what it lets the read skip; null without a filter. */
  readonly filter: FilterPlan | null;
  batches(opts?: BatchesOptions): AsyncGenerator<ScanBatch>;
}

export interface BatchesOptions {
  signal?: AbortSignal;
  limit?: number;
  resumeFrom?: ScanPosition;
  /** ScanOptions.reuseBuffers, taken by a read without a filter only: the filter's joiner holds slices of the scan's
   * batches across its pulls (filter/filtered-scan.ts). */
  reuseBuffers?: boolean;
}

/** The snapshot whose files the source reads: its filter's (the files the filter could not skip), or the whole. */
export function scannedSnapshot(source: DeltaSource): Snapshot {
  return source.filter?.snapshot ?? source.snapshot;
}

/** `engine`: where the table's files are read from (engine/engine-context.ts); the registered one when absent. */
export function forTable(tablePath: string, engine: EngineContext): DeltaSourceBuilder {
  return new DeltaSourceBuilder(tablePath, engine);
}

export class DeltaSourceBuilder {
  private names: string[] | null | undefined;
  private readonly options: Record<string, OptionValue> = {};

  constructor(
    private readonly tablePath: string,
    private readonly engine: EngineContext,
  ) {}

  /** Columns to read, in this order: a list, or the names as arguments. */
  columnNames(names: string[] | null): this;
  columnNames(...names: string[]): this;
  columnNames(...args: unknown[]): this {
    const list = args.length === 1 && (args[0] === null || Array.isArray(args[0])) ? args[0] : args;
    this.names = list === null ? null : [...(list as string[])];
    return this;
  }

  versionAsOf(version: number): this {
    return this.option('versionAsOf', version);
  }

  timestampAsOf(timestamp: string): this {
    return this.option('timestampAsOf', timestamp);
  }

  /** Any source option; versionAsOf and timestampAsOf set here are the same settings as the methods' (last wins). */
  option(name: string, value: OptionValue): this {
    this.options[name] = value;
    return this;
  }

  toSpec(): DeltaSourceSpec {
    const spec: DeltaSourceSpec = { tablePath: this.tablePath, options: { ...this.options } };
    if (this.names !== undefined) spec.columnNames = this.names;
    return spec;
  }

  build(): Promise<DeltaSource> {
    return openSource(this.toSpec(), (tablePath) => DeltaTable.open(tablePath, this.engine));
  }
}

/** Opens the source a spec describes (the app and the CLI): the table and snapshot with the builder's checks
 * (source-snapshot.ts), then its filter, checked and planned. */
export async function openSource(spec: DeltaSourceSpec, openTable: (tablePath: string) => Promise<DeltaTable>): Promise<DeltaSource> {
  const { table, snapshot, resolved } = await openSpecSnapshot(spec, openTable);
  let filter: FilterPlan | null = null;
  if (resolved.filter !== undefined) {
    const compiled = compileFilter(resolved.filter, snapshot.schema);
    if (!compiled.ok) throw new DeltaSourceValidationError([compiled.message]);
    filter = planFilter(snapshot, compiled.expr, await table.fileStats(snapshot));
  }
  const columns = resolved.columns ?? snapshot.schema.fields.map((f) => f.name);
  return new OpenedSource(table, snapshot, columns, resolved.batchSize, filter);
}

class OpenedSource implements DeltaSource {
  readonly fields: StructField[];
  readonly schema: Schema;

  constructor(
    readonly table: DeltaTable,
    readonly snapshot: Snapshot,
    readonly columns: string[],
    readonly batchSize: number,
    readonly filter: FilterPlan | null,
  ) {
    this.fields = selectFields(snapshot, columns);
    this.schema = outputSchema(snapshot, columns);
  }

  async *batches(opts: BatchesOptions = {}): AsyncGenerator<ScanBatch> {
    try {
      yield* this.scanBatches(opts);
    } catch (err) {
      // A data or deletion vector file of this version is gone.
      if (!(err instanceof DeltaportError && err.code === 'MISSING_FILE')) throw err;
      const { missingDataError } = await import('./missing-data.js');
      throw await missingDataError(this.table, this.snapshot.version, err);
    }
  }

  private async *scanBatches({ reuseBuffers, ...opts }: BatchesOptions): AsyncGenerator<ScanBatch> {
    const options = { ...opts, columns: this.columns, batchSize: this.batchSize, engine: this.table.engine };
    if (!this.filter) {
      yield* read(this.snapshot, { ...options, reuseBuffers });
      return;
    }
    // The limit counts kept rows, so the scan below reads until enough have passed the filter.
    const { expr, snapshot } = this.filter;
    const scanned = read(
      snapshot,
      { ...options, columns: scanColumns(this.columns, expr), limit: undefined, rowGroupFilter: expr },
      opts.limit !== undefined,
    );
    yield* filterBatches(scanned, expr, this.columns, this.batchSize, opts.limit);
  }
}

async function* read(snapshot: Snapshot, options: ScanOptions, preview = options.limit !== undefined): AsyncGenerator<ScanBatch> {
  // A whole-table read decodes in a thread of its own while the consumer writes, given a core to spare: with two,
  // the sink and the database server already keep both busy, and the thread's Arrow IPC made 490k-row exports
  // slower (SQLite 4.1 -> 4.5 s, PostgreSQL 6.7 -> 7.4 s, Parquet 5.1 -> 5.9 s). A preview, or a table too small
  // to repay starting a thread, is read here. Loaded on first use: a schema or a history never needs the scan.
  if (!preview && availableParallelism() > 2 && dataBytesFrom(snapshot, options.resumeFrom) >= PARALLEL_SCAN_MIN_BYTES) {
    const { parallelScan } = await import('./scan/parallel-scan.js');
    yield* parallelScan(snapshot, options);
  } else {
    const { scan } = await import('./scan/scan.js');
    yield* scan(snapshot, options);
  }
}

/** Below this much Parquet to read, starting a scan thread (tens of milliseconds) costs more than it saves. */
export const PARALLEL_SCAN_MIN_BYTES = 4 << 20;

function dataBytesFrom(snapshot: Snapshot, resumeFrom: ScanPosition | undefined): number {
  return snapshot.files.slice(resumeFrom?.fileIndex ?? 0).reduce((sum, f) => sum + f.add.size, 0);
}
