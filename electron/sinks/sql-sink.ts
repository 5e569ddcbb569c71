// The part both SQL sinks share: open (validate, check or create the target, resume an exactly-once job), regroup
// batches into transactions, commit each with its progress row, retry transient failures on a fresh connection,
// swap an overwrite into place, and roll back on abort. The dialects plug in a SqlSession.
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

/** One connection to the target database. */
export interface SqlSession {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  describe(table: string): Promise<TableDescription | null>;
  /** Sets up statements and temporary tables for writing; again after every reconnect. */
  prepare(target: WriteTarget): Promise<void>;
  /** Writes one transaction's rows inside it; `firstRow` (0-based, in the export) is for error messages. */
  writeRows(chunks: RecordBatch[], firstRow: number): Promise<void>;
  /** A round trip that proves the connection still works (connection check before reuse). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Drops the connection at once; the database rolls back whatever transaction was open. */
  kill(): void;
}

export interface SqlSinkOptions {
  dialect: Dialect;
  connect: () => Promise<SqlSession>;
  checkBeforeReuse: boolean;
  /** The database's message for a failure, on one line. */
  explain: (err: unknown) => string;
}

export function createSqlSink(spec: SqlSinkSpec, options: SqlSinkOptions): BatchSink {
  return new SqlSink(spec, options);
}

class SqlSink implements BatchSink {
  private session: SqlSession | null = null;
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
  /** Serializes transactions: writes, interval flushes and close never overlap. */
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly spec: SqlSinkSpec,
    private readonly options: SqlSinkOptions,
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

  private async prepareTarget(session: SqlSession, ctx: SinkOpenContext): Promise<ScanPosition | null> {
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

  private startFrom(resumed: StreamProgress): ScanPosition | null {
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
    return this.chain;
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
    this.chain = this.chain.then(() => this.commit(txn, firstRow));
    this.chain.catch((err: unknown) => {
      this.failure ??= err;
    });
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
  private async commit(txn: Transaction, firstRow: number): Promise<void> {
    const stored = { ...txn.progress, rowsWritten: firstRow + txn.rows, done: false };
    await this.transaction(`rows ${firstRow + 1}-${firstRow + txn.rows}`, stored, (session) => session.writeRows(txn.chunks, firstRow));
    this.rowsWritten = firstRow + txn.rows;
    this.queuedRows -= txn.rows;
  }

  /** The last transaction: the overwrite's swap, and the job marked done. */
  private async finish(statements: string[]): Promise<void> {
    const stored = { ...this.lastCommitted, rowsWritten: this.rowsWritten, done: true };
    await this.transaction('the final commit', stored, async (session) => {
      for (const sql of statements) await session.query(sql);
    });
  }

  private async transaction(label: string, progress: StreamProgress & { rowsWritten: number; done: boolean }, body: (s: SqlSession) => Promise<void>): Promise<void> {
    const { dialect, checkBeforeReuse } = this.options;
    for (let attempt = 0; ; attempt++) {
      let session: SqlSession | null = null;
      try {
        if (this.aborted) throw cancelled();
        session = await this.usableSession(attempt > 0 || checkBeforeReuse);
        this.inTransaction = true;
        await session.query('BEGIN');
        await body(session);
        if (this.key) await saveProgress(session.query.bind(session), dialect, this.key, this.spec.table, progress);
        await session.query('COMMIT');
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

  private async usableSession(check: boolean): Promise<SqlSession> {
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
