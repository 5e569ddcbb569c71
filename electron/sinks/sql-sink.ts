// The part both SQL sinks share: open (validate, check or create the target, resume an exactly-once job), regroup
// batches into transactions, commit each with its progress row, retry transient failures on a fresh connection,
// swap an overwrite into place, and roll back on abort. The dialects plug in a SqlSession, and may encode a
// transaction's rows as soon as it is queued and let writes return before their commits (up to a few uncommitted
// transactions): the scan and the encoding of the next transaction then overlap the database's work on the one
// before, while memory stays bounded.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordBatch } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import type { SqlSinkSpec } from '../../shared/sink-spec.js';
import type { ScanBatch, ScanPosition } from '../delta/scan-types.js';
import { TransactionBatcher, type StreamProgress, type Transaction } from './batching.js';
import { forgetProgress, jobKey, progressTableSql, readProgress, saveProgress, stagingTable } from './exactly-once.js';
import { backoffMs, cancelled, isTransient, sleep } from './retry.js';
import type { BatchSink, SinkOpenContext } from './sink.js';
import { quoteIdent } from './sql-identifiers.js';
import { buildPlan, checkSpec, type TableDescription } from './sql-plan.js';
import { createTableSql, type Dialect } from './sql-types.js';

/** What a session writes: the table being filled (the staging table for an overwrite) and how. */
export interface WriteTarget {
  table: string;
  fields: StructField[];
  spec: SqlSinkSpec;
}

/** One connection to the target database; `Rows` is a transaction's rows as the sink's encode made them. */
export interface SqlSession<Rows = RecordBatch[]> {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  describe(table: string): Promise<TableDescription | null>;
  /** Sets up statements and temporary tables for writing; again after every reconnect. */
  prepare(target: WriteTarget): Promise<void>;
  /** Writes one transaction's rows inside it; `firstRow` (0-based, in the export) is for error messages. */
  writeRows(rows: Rows, firstRow: number): Promise<void>;
  /** Where the dialect can: BEGIN, the rows and COMMIT sent as one exchange (for a transaction without a progress
   * row). Every round trip between statements leaves the database idle until this process gets to the reply. */
  writeCommitted?(rows: Rows, firstRow: number): Promise<void>;
  /** A round trip that proves the connection still works (connection check before reuse). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Drops the connection at once; the database rolls back whatever transaction was open. */
  kill(): void;
}

/** What an exactly-once job's progress row says once a transaction commits. */
type Progress = StreamProgress & { rowsWritten: number; done: boolean };

/** Turns a transaction's batches into what its session writes. */
export type RowEncoder<Rows> = (chunks: RecordBatch[], target: WriteTarget) => Promise<Rows>;

export interface SqlSinkOptions<Rows> {
  dialect: Dialect;
  connect: () => Promise<SqlSession<Rows>>;
  /** Runs once per transaction, as soon as it is queued (while the database still works on the ones before); a
   * retry resends the same encoded rows. Without it a session writes the batches as they are. */
  encode: RowEncoder<Rows>;
  /** Transactions that may still be uncommitted when a write resolves; 0 (the default): a write resolves after
   * its commit, which suits an in-process database that would only take turns with the scan anyway. */
  maxUncommitted?: number;
  checkBeforeReuse: boolean;
  /** The database's message for a failure, on one line. */
  explain: (err: unknown) => string;
}

export function createSqlSink(spec: SqlSinkSpec, options: Omit<SqlSinkOptions<RecordBatch[]>, 'encode'>): BatchSink;
export function createSqlSink<Rows>(spec: SqlSinkSpec, options: SqlSinkOptions<Rows>): BatchSink;
export function createSqlSink<Rows>(spec: SqlSinkSpec, options: SqlSinkOptions<Rows> | Omit<SqlSinkOptions<RecordBatch[]>, 'encode'>): BatchSink {
  if ('encode' in options) return new SqlSink(spec, options);
  return new SqlSink<RecordBatch[]>(spec, { ...options, encode: async (chunks) => chunks });
}

class SqlSink<Rows> implements BatchSink {
  private session: SqlSession<Rows> | null = null;
  private target!: WriteTarget;
  private batcher!: TransactionBatcher;
  private key: string | null = null;
  private signal!: AbortSignal;
  private done = false;
  private aborted = false;
  private inTransaction = false;
  /** Rows committed by this job, including earlier runs of an exactly-once job. */
  private rowsWritten = 0;
  /** Rows handed to transactions that have not committed yet. */
  private queuedRows = 0;
  private lastCommitted: StreamProgress = { position: null, rowsAfter: 0 };
  /** Rows committed by earlier runs when this one started. */
  private rowsBefore = 0;
  /** Serializes transactions: writes, interval flushes and close never overlap. */
  private chain: Promise<void> = Promise.resolve();
  /** Serializes encoding, so that the transaction sent next is the one encoded first. */
  private encoding: Promise<unknown> = Promise.resolve();
  /** The commits of the queued transactions, oldest first. */
  private uncommitted: Promise<void>[] = [];
  private failure: unknown = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly spec: SqlSinkSpec,
    private readonly options: SqlSinkOptions<Rows>,
  ) {}

  async open(ctx: SinkOpenContext): Promise<ScanPosition | null> {
    checkSpec(this.spec, ctx.fields);
    this.signal = ctx.signal;
    if (ctx.signal.aborted) throw cancelled();
    ctx.signal.addEventListener('abort', () => this.cancelNow(), { once: true });
    this.session = await this.options.connect();
    try {
      return await this.prepareTarget(this.session, ctx);
    } catch (err) {
      await this.dropSession();
      throw err;
    }
  }

  private async prepareTarget(session: SqlSession<Rows>, ctx: SinkOpenContext): Promise<ScanPosition | null> {
    const { dialect } = this.options;
    const existing = await session.describe(this.spec.table);
    const plan = buildPlan(this.spec, ctx.fields, existing, dialect);
    if (plan.incompatibility) throw new DeltaportError('SINK_INCOMPATIBLE', plan.incompatibility);

    let resumed: StreamProgress = { position: null, rowsAfter: 0 };
    let table = this.spec.table;
    const query = session.query.bind(session);
    if (this.spec.exactlyOnce) {
      this.key = jobKey({ tableId: ctx.snapshot.tableId, version: ctx.snapshot.version, fields: ctx.fields, spec: this.spec });
      await session.query(progressTableSql(dialect));
      const stored = await readProgress(query, dialect, this.key);
      if (stored) {
        resumed = stored;
        this.rowsWritten = stored.rowsWritten;
        this.done = stored.done;
      }
    }
    // A finished job: the stream after its last position is empty and nothing is written again.
    if (this.done) return this.startFrom(resumed);
    if (this.spec.mode === 'overwrite') {
      table = stagingTable(this.spec.table, this.key);
      const keepStaging = this.key !== null && this.rowsWritten > 0 && (await session.describe(table)) !== null;
      if (!keepStaging) {
        await session.query(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
        await session.query(createTableSql(dialect, table, ctx.fields));
        if (this.key) await forgetProgress(query, dialect, this.key);
        resumed = { position: null, rowsAfter: 0 };
        this.rowsWritten = 0;
      }
    } else if (!existing && this.spec.mode !== 'sql') {
      await session.query(plan.ddl[0]);
    }
    this.target = { table, fields: ctx.fields, spec: this.spec };
    await session.prepare(this.target);
    return this.startFrom(resumed);
  }

  committedRows(): number {
    return this.rowsWritten;
  }

  resumedRows(): number {
    return this.rowsBefore;
  }

  private startFrom(resumed: StreamProgress): ScanPosition | null {
    this.rowsBefore = this.rowsWritten;
    this.batcher = new TransactionBatcher(this.spec.execution.batchSize, resumed);
    this.lastCommitted = resumed;
    return resumed.position;
  }

  write(batch: ScanBatch): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.done) return Promise.resolve();
    this.batcher.add(batch);
    let txn: Transaction | null;
    while ((txn = this.batcher.takeFull())) this.enqueue(txn);
    this.armTimer();
    const waits = this.uncommitted.length - (this.options.maxUncommitted ?? 0);
    if (waits <= 0) return Promise.resolve();
    // Resolved a turn after the commit, so that the next transaction goes out before the scan continues.
    return this.uncommitted[waits - 1].then(() => nextTurn());
  }

  async close(): Promise<void> {
    this.disarmTimer();
    if (this.failure) throw this.failure;
    if (!this.done) {
      const rest = this.batcher.takeRest();
      if (rest) this.enqueue(rest);
      await this.chain;
      if (this.spec.mode === 'overwrite') await this.finish([`DROP TABLE IF EXISTS ${quoteIdent(this.spec.table)}`, `ALTER TABLE ${quoteIdent(this.target.table)} RENAME TO ${quoteIdent(this.spec.table)}`]);
      else if (this.key) await this.finish([]);
    }
    await this.session?.close();
    this.session = null;
  }

  async abort(): Promise<void> {
    this.aborted = true;
    this.disarmTimer();
    this.cancelNow();
    await this.chain.catch(() => undefined);
    // Without exactly-once the staging table has no future; with it, a rerun continues filling it.
    if (this.spec.mode === 'overwrite' && !this.key && this.target) {
      try {
        this.session ??= await this.options.connect();
        await this.session.query(`DROP TABLE IF EXISTS ${quoteIdent(this.target.table)}`);
      } catch {
        // Best effort: the next overwrite of this target drops a leftover staging table first.
      }
    }
    await this.session?.close().catch(() => undefined);
    this.session = null;
  }

  /** Stops a transaction in flight: its rows are rolled back with the connection. */
  private cancelNow(): void {
    this.aborted = true;
    if (this.inTransaction && this.session) {
      this.session.kill();
      this.session = null;
    }
  }

  private enqueue(txn: Transaction): void {
    const firstRow = this.rowsWritten + this.queuedRows;
    this.queuedRows += txn.rows;
    const rows = this.encoding.then(() => this.options.encode(txn.chunks, this.target));
    this.encoding = rows.catch(() => undefined);
    const committed = this.chain.then(async () => this.commit(txn, await rows, firstRow));
    this.chain = committed;
    this.uncommitted.push(committed);
    committed.then(
      () => this.uncommitted.shift(),
      (err: unknown) => {
        this.failure ??= err;
      },
    );
  }

  private armTimer(): void {
    const interval = this.spec.execution.batchIntervalMs;
    if (interval <= 0 || this.timer || this.batcher.rowsPending === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const rest = this.batcher.takeRest();
      if (rest && !this.aborted) this.enqueue(rest);
    }, interval);
  }

  private disarmTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One batch, one transaction, with its progress row; transient failures retry on a new connection. */
  private async commit(txn: Transaction, rows: Rows, firstRow: number): Promise<void> {
    const stored = { ...txn.progress, rowsWritten: firstRow + txn.rows, done: false };
    await this.transaction(`rows ${firstRow + 1}-${firstRow + txn.rows}`, stored, (session) =>
      session.writeCommitted && !this.key ? session.writeCommitted(rows, firstRow) : this.committing(session, stored, (s) => s.writeRows(rows, firstRow)),
    );
    this.rowsWritten = firstRow + txn.rows;
    this.queuedRows -= txn.rows;
  }

  /** The last transaction: the overwrite's swap, and the job marked done. */
  private async finish(statements: string[]): Promise<void> {
    const stored = { ...this.lastCommitted, rowsWritten: this.rowsWritten, done: true };
    await this.transaction('the final commit', stored, (session) =>
      this.committing(session, stored, async (s) => {
        for (const sql of statements) await s.query(sql);
      }),
    );
  }

  /** BEGIN, the body, the progress row of an exactly-once job, COMMIT. */
  private async committing(session: SqlSession<Rows>, progress: Progress, body: (s: SqlSession<Rows>) => Promise<void>): Promise<void> {
    await session.query('BEGIN');
    await body(session);
    if (this.key) await saveProgress(session.query.bind(session), this.options.dialect, this.key, this.spec.table, progress);
    await session.query('COMMIT');
  }

  /** Runs `run` (a whole transaction) until it commits; transient failures retry it on a new connection. */
  private async transaction(label: string, progress: Progress, run: (s: SqlSession<Rows>) => Promise<void>): Promise<void> {
    const { checkBeforeReuse } = this.options;
    for (let attempt = 0; ; attempt++) {
      let session: SqlSession<Rows> | null = null;
      try {
        if (this.aborted) throw cancelled();
        session = await this.usableSession(attempt > 0 || checkBeforeReuse);
        this.inTransaction = true;
        await run(session);
        this.inTransaction = false;
        this.lastCommitted = { position: progress.position, rowsAfter: progress.rowsAfter };
        return;
      } catch (err) {
        this.inTransaction = false;
        if (session && this.session === session) await session.query('ROLLBACK').catch(() => undefined);
        if (this.aborted || (err instanceof DeltaportError && err.code === 'CANCELLED')) throw cancelled();
        if (!isTransient(err) || attempt >= this.spec.execution.maxRetries) throw this.writeError(label, err, attempt);
        await this.dropSession();
        await sleep(backoffMs(attempt), this.signal);
        if (await this.landedBefore(progress)) {
          this.lastCommitted = { position: progress.position, rowsAfter: progress.rowsAfter };
          return;
        }
      }
    }
  }

  /** After a lost connection the COMMIT may have landed; an exactly-once job's progress row tells. */
  private async landedBefore(progress: { rowsWritten: number; done: boolean }): Promise<boolean> {
    if (!this.key) return false;
    try {
      const session = await this.usableSession(false);
      const stored = await readProgress(session.query.bind(session), this.options.dialect, this.key);
      return stored !== null && stored.rowsWritten >= progress.rowsWritten && (stored.done || !progress.done);
    } catch {
      return false;
    }
  }

  private async usableSession(check: boolean): Promise<SqlSession<Rows>> {
    if (this.session && (!check || (await this.session.ping()))) return this.session;
    await this.dropSession();
    const session = await this.options.connect();
    await session.prepare(this.target);
    this.session = session;
    return session;
  }

  private async dropSession(): Promise<void> {
    const session = this.session;
    this.session = null;
    if (session) await session.close().catch(() => session.kill());
  }

  private writeError(label: string, err: unknown, attempt: number): DeltaportError {
    if (err instanceof DeltaportError && err.code !== 'SINK_CONNECTION') return err;
    const message = this.options.explain(err);
    const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
    return new DeltaportError(isTransient(err) ? 'SINK_CONNECTION' : 'SINK_WRITE', `${label} failed${tries}: ${message}`);
  }
}
