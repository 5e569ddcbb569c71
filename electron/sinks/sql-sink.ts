// The part both SQL sinks share: open (claim the job, check or create the target, resume an exactly-once
// job), regroup the scan's batches into batches of batchSize rows and those into transactions, commit each with its
// progress row, retry transient failures on a fresh connection (first learning whether a COMMIT whose answer was
// lost landed), swap an overwrite into place, and roll back on abort. The dialects plug in a SqlSession, and may
// encode each batch as it comes and let writes return before their commits (up to a few uncommitted transactions):
// the scan and the encoding of the next transaction then overlap the database's work on the one before, while
// memory stays bounded.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordBatch } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import type { SqlSinkSpec } from '../../shared/sink-spec.js';
import type { ScanBatch, ScanPosition } from '../delta/scan/scan-types.js';
import { Batcher, transactionBytesAt, type Batch, type StreamProgress } from './batching.js';
import {
  forgetProgress,
  jobKey,
  progressTableSql,
  readProgress,
  progressStatement,
  saveProgress,
  type SqlStatement,
  stagingPrefix,
  stagingTable,
  stagingTablesSql,
} from './exactly-once.js';
import { newRun, type RunOwner } from './job-claim.js';
import { backoffMs } from '../../shared/backoff.js';
import { cancelled, isTransient, sleep } from './retry.js';
import type { BatchSink, SinkOpenContext } from './sink.js';
import { quoteIn } from './sql-identifiers.js';
import { buildPlan, type TableDescription } from './sql-plan.js';
import { swapSql } from './sql-statements.js';
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
  /** Where the dialect can: BEGIN, the rows, the statements `after` them (an exactly-once job's progress row) and
   * COMMIT sent as one exchange. Every round trip between statements leaves the database idle until this process
   * gets to the reply. */
  writeCommitted?(rows: Rows, firstRow: number, after: SqlStatement[]): Promise<void>;
  /** BEGIN and COMMIT of a transaction the sink runs statement by statement. */
  begin(): Promise<void>;
  commit(): Promise<void>;
  /** After a failure: the id of this session's transaction whose COMMIT went out without an answer, or null. */
  unsettledCommit(): string | null;
  /** Whether that transaction committed, asked on a new session once the lost one's backend has ended. */
  committed(id: string): Promise<boolean>;
  /** The server process behind this session (null for an in-process database). */
  readonly backend: number | null;
  /** Ends the backend of a lost session of this sink if it still runs, so that it can neither commit later nor
   * hold the job's claim. */
  endBackend(backend: number): Promise<void>;
  /** Makes this session the job's one writer; throws SINK_BUSY when another run of the job holds it. */
  claim(job: string, owner: RunOwner): Promise<void>;
  /** Gives the claim up at the end of the job (what the session does not end by itself). */
  release(job: string, owner: RunOwner): Promise<void>;
  /** A round trip that proves the connection still works (connection check before reuse). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Drops the connection at once; the database rolls back whatever transaction was open. */
  kill(): void;
}

/** What an exactly-once job's progress row says once a transaction commits. */
type Progress = StreamProgress & { rowsWritten: number; done: boolean };

/** A transaction's rows as they are encoded, batch by batch. */
export interface TransactionRows<Rows> {
  /** Whether a batch can join the rows so far (else it starts the next transaction). */
  accepts(chunks: RecordBatch[]): boolean;
  add(chunks: RecordBatch[]): Promise<void>;
  /** The size of the encoded rows so far. */
  readonly bytes: number;
  /** What the session writes; nothing is added after it. */
  finish(): Rows;
}

/** Starts a transaction's encoded rows. */
export type RowEncoder<Rows> = (target: WriteTarget) => TransactionRows<Rows>;

export interface SqlSinkOptions<Rows> {
  dialect: Dialect;
  connect: (owner: RunOwner) => Promise<SqlSession<Rows>>;
  /** Encodes each batch as it comes (while the database still works on the transactions before); a retry resends
   * the same encoded rows. Without it a session writes the batches as they are. */
  encode: RowEncoder<Rows>;
  /** Where set, consecutive batches share a transaction until its encoded rows reach this many bytes, the batch
   * interval elapses or the stream ends (for a database whose every statement costs a fixed amount of work); else
   * every batch is a transaction of its own. */
  transactionBytes?: number;
  /** Called with a transaction's rows once they are committed, never to be sent again (a retry resends them). */
  release?: (rows: Rows) => void;
  /** Transactions that may still be uncommitted when a write resolves; 0 (the default): a write resolves after
   * its commit, which suits an in-process database that would only take turns with the scan anyway. */
  maxUncommitted?: number;
  checkBeforeReuse: boolean;
  /** The database's message for a failure, on one line. */
  explain: (err: unknown) => string;
}

export function createSqlSink(spec: SqlSinkSpec, options: Omit<SqlSinkOptions<RecordBatch[]>, 'encode'>): BatchSink;
export function createSqlSink<Rows>(spec: SqlSinkSpec, options: SqlSinkOptions<Rows>): BatchSink;
export function createSqlSink<Rows>(
  spec: SqlSinkSpec,
  options: SqlSinkOptions<Rows> | Omit<SqlSinkOptions<RecordBatch[]>, 'encode'>,
): BatchSink {
  if ('encode' in options) return new SqlSink(spec, options);
  return new SqlSink<RecordBatch[]>(spec, { ...options, encode: batchesAsTheyAre });
}

/** A transaction's batches, unencoded. */
export function batchesAsTheyAre(): TransactionRows<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  return {
    accepts: () => true,
    add: async (chunks) => {
      batches.push(...chunks);
    },
    bytes: 0,
    finish: () => batches,
  };
}

/** A transaction being filled: its rows so far and how far the stream has come with them. */
interface OpenTransaction<Rows> {
  rows: TransactionRows<Rows>;
  firstRow: number;
  count: number;
  progress: StreamProgress;
}

/** A transaction whose rows are complete. */
interface Transaction<Rows> {
  rows: Rows;
  firstRow: number;
  count: number;
  progress: StreamProgress;
}

class SqlSink<Rows> implements BatchSink {
  private session: SqlSession<Rows> | null = null;
  private target: WriteTarget | null = null;
  private batcher!: Batcher;
  /** The job this run belongs to (the same for every run of the same export); claimed while it writes. */
  private job = '';
  private readonly owner = newRun();
  private claimed = false;
  private signal!: AbortSignal;
  private done = false;
  private aborted = false;
  private inTransaction = false;
  /** Rows committed by this job, including earlier runs of an exactly-once job. */
  private rowsWritten = 0;
  /** Rows an earlier run of this exactly-once job had committed when this one started. */
  private rowsBefore = 0;
  /** Rows handed to transactions that have not committed yet (the open one included). */
  private queuedRows = 0;
  /** The transaction being filled, or null. */
  private filling: OpenTransaction<Rows> | null = null;
  /** Rows cut into batches and not yet in a complete transaction. */
  private unfinishedRows = 0;
  /** Transactions this run has completed (filled, whether committed yet or not). */
  private completed = 0;
  private lastCommitted: StreamProgress = { position: null, rowsAfter: 0 };
  /** A transaction whose COMMIT went out unanswered: its id, until a new session has learnt its outcome. */
  private unsettled: string | null = null;
  /** The backend of the last session given up, to be ended by the next one. */
  private lostBackend: number | null = null;
  /** Serializes transactions: writes, interval flushes and close never overlap. */
  private chain: Promise<void> = Promise.resolve();
  /** Serializes encoding, so that batches join transactions in their order. */
  private encoding: Promise<void> = Promise.resolve();
  /** The commits of the complete transactions, oldest first. */
  private uncommitted: Promise<void>[] = [];
  private failure: unknown = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly spec: SqlSinkSpec,
    private readonly options: SqlSinkOptions<Rows>,
  ) {}

  counts(): { committed: number; before: number } {
    return { committed: this.rowsWritten - this.rowsBefore, before: this.rowsBefore };
  }

  /** The spec was checked against ctx.fields where the export started (checked-sink.ts). */
  async open(ctx: SinkOpenContext): Promise<ScanPosition | null> {
    this.signal = ctx.signal;
    if (ctx.signal.aborted) throw cancelled();
    ctx.signal.addEventListener('abort', () => this.cancelNow(), { once: true });
    this.job = jobKey({ tableId: ctx.snapshot.tableId, version: ctx.snapshot.version, fields: ctx.fields, spec: this.spec });
    try {
      return await this.retrying('setting up the target', (session) => this.prepareTarget(session, ctx));
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
    const exactlyOnce = this.spec.exactlyOnce;
    if (exactlyOnce) {
      await session.query(progressTableSql(dialect));
      const stored = await readProgress(query, dialect, this.job);
      if (stored) {
        resumed = stored;
        this.rowsWritten = stored.rowsWritten;
        this.done = stored.done;
      }
    }
    // A finished job: the stream after its last position is empty and nothing is written again.
    if (this.done) return this.startFrom(resumed);
    if (this.spec.mode === 'overwrite') {
      table = stagingTable(this.job, exactlyOnce ? null : this.owner.id);
      // Other staging tables of this job are what killed runs left: the claim says none of them still runs.
      for (const row of await session.query(stagingTablesSql(dialect), [stagingPrefix(this.job)])) {
        if (row.name !== table) await session.query(`DROP TABLE IF EXISTS ${quoteIn(dialect, String(row.name))}`);
      }
      const keepStaging = exactlyOnce && this.rowsWritten > 0 && (await session.describe(table)) !== null;
      if (!keepStaging) {
        await session.query(`DROP TABLE IF EXISTS ${quoteIn(dialect, table)}`);
        await session.query(createTableSql(dialect, table, ctx.fields));
        if (exactlyOnce) await forgetProgress(query, dialect, this.job);
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
    this.rowsBefore = this.rowsWritten;
    this.batcher = new Batcher(this.spec.execution.batchSize, resumed);
    this.lastCommitted = resumed;
    return resumed.position;
  }

  write(batch: ScanBatch): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.done) return Promise.resolve();
    this.batcher.add(batch);
    let next: Batch | null;
    while ((next = this.batcher.takeFull())) this.encode(next, false);
    this.armTimer();
    // The batches wait for no more than their encoding, so that the scan never runs far ahead of it.
    return this.encoding.then(() => this.room());
  }

  /** Once no more transactions than allowed are uncommitted. */
  private async room(): Promise<void> {
    if (this.failure) throw this.failure;
    const waits = this.uncommitted.length - (this.options.maxUncommitted ?? 0);
    if (waits <= 0) return;
    await this.uncommitted[waits - 1];
    // A turn after the commit, so that the next transaction goes out before the scan continues.
    await nextTurn();
  }

  async close(): Promise<void> {
    this.disarmTimer();
    if (this.failure) throw this.failure;
    if (!this.done) {
      this.flush();
      await this.encoding;
      if (this.failure) throw this.failure;
      // A cancel before the last transaction was complete: it is not sent.
      if (this.aborted) throw cancelled();
      await this.chain;
      if (this.spec.mode === 'overwrite') await this.finish(swapSql(this.options.dialect, this.spec.table, this.target!.table));
      else if (this.spec.exactlyOnce) await this.finish([]);
    }
    await this.releaseClaim();
    await this.session?.close();
    this.session = null;
  }

  async abort(): Promise<void> {
    this.aborted = true;
    this.disarmTimer();
    this.cancelNow();
    await this.encoding;
    await this.chain.catch(() => undefined);
    try {
      // Without exactly-once the staging table has no future; with it, a rerun continues filling it.
      if (this.spec.mode === 'overwrite' && !this.spec.exactlyOnce && this.target) {
        this.session ??= await this.options.connect(this.owner);
        await this.session.query(`DROP TABLE IF EXISTS ${quoteIn(this.options.dialect, this.target.table)}`);
      }
      await this.releaseClaim();
    } catch {
      // Best effort: the next run of this job drops a leftover staging table and takes over a stale claim.
    }
    // Without waiting for what the connection ends in the background (a SQLite checkpoint thread removing the WAL
    // as it stops): a cancel must be quick.
    this.session?.kill();
    this.session = null;
  }

  private async releaseClaim(): Promise<void> {
    if (!this.claimed) return;
    this.claimed = false;
    this.session ??= await this.options.connect(this.owner);
    await this.session.release(this.job, this.owner);
  }

  /** Stops a transaction in flight on a server: its rows are rolled back with the connection. (An in-process
   * database runs each statement to its end before this can run; its transaction commits or fails as it goes.) */
  private cancelNow(): void {
    this.aborted = true;
    if (this.inTransaction && this.session && this.session.backend !== null) {
      this.session.kill();
      this.session = null;
    }
  }

  /** Adds a batch to the open transaction (starting one where there is none, or where the batch cannot join it),
   * then completes the transaction once it is full, or when `last` says so. */
  private encode(batch: Batch, last: boolean): void {
    this.unfinishedRows += batch.rows;
    this.encoding = this.encoding
      .then(async () => {
        if (this.failure || this.aborted) return;
        if (this.filling && !this.filling.rows.accepts(batch.chunks)) this.complete();
        const open = (this.filling ??= {
          rows: this.options.encode(this.target!),
          firstRow: this.rowsWritten + this.queuedRows,
          count: 0,
          progress: batch.progress,
        });
        this.queuedRows += batch.rows;
        await open.rows.add(batch.chunks);
        open.count += batch.rows;
        open.progress = batch.progress;
        const budget = this.options.transactionBytes;
        if (last || budget === undefined || open.rows.bytes >= transactionBytesAt(budget, this.completed)) this.complete();
      })
      .catch((err: unknown) => {
        this.failure ??= err;
      });
  }

  /** Completes what waits (for the batch interval and the end of the stream): the rest of the batcher's rows and the
   * open transaction. */
  private flush(): void {
    const rest = this.batcher.takeRest();
    if (rest) this.encode(rest, true);
    else
      this.encoding = this.encoding.then(() => {
        if (this.filling && !this.failure && !this.aborted) this.complete();
      });
  }

  /** Queues the open transaction's commit. */
  private complete(): void {
    const open = this.filling!;
    this.filling = null;
    this.completed++;
    this.unfinishedRows -= open.count;
    const txn: Transaction<Rows> = { rows: open.rows.finish(), firstRow: open.firstRow, count: open.count, progress: open.progress };
    const committed = this.chain.then(() => this.commit(txn));
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
    if (interval <= 0 || this.timer || this.batcher.rowsPending + this.unfinishedRows === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.aborted) this.flush();
    }, interval);
  }

  private disarmTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One transaction with its progress row; transient failures retry on a new connection. */
  private async commit({ rows, firstRow, count, progress }: Transaction<Rows>): Promise<void> {
    const stored = { ...progress, rowsWritten: firstRow + count, done: false };
    const after = this.spec.exactlyOnce ? [progressStatement(this.options.dialect, this.job, this.spec.table, stored)] : [];
    await this.transaction(`rows ${firstRow + 1}-${firstRow + count}`, stored, (session) =>
      session.writeCommitted
        ? session.writeCommitted(rows, firstRow, after)
        : this.committing(session, stored, (s) => s.writeRows(rows, firstRow)),
    );
    this.rowsWritten = firstRow + count;
    this.queuedRows -= count;
    this.options.release?.(rows);
  }

  /** The last transaction: the overwrite's swap, and the job marked done. */
  private async finish(statements: SqlStatement[]): Promise<void> {
    const stored = { ...this.lastCommitted, rowsWritten: this.rowsWritten, done: true };
    await this.transaction('the final commit', stored, (session) =>
      this.committing(session, stored, async (s) => {
        for (const { text, values } of statements) await s.query(text, values);
      }),
    );
  }

  /** BEGIN, the body, the progress row of an exactly-once job, COMMIT. */
  private async committing(session: SqlSession<Rows>, progress: Progress, body: (s: SqlSession<Rows>) => Promise<void>): Promise<void> {
    await session.begin();
    await body(session);
    if (this.spec.exactlyOnce) await saveProgress(session.query.bind(session), this.options.dialect, this.job, this.spec.table, progress);
    await session.commit();
  }

  /** Runs `run` (a whole transaction) until it commits. A retry first learns whether the attempt before it did
   * commit after all (its connection was lost after COMMIT went out), and then does not run it again. */
  private async transaction(label: string, progress: Progress, run: (s: SqlSession<Rows>) => Promise<void>): Promise<void> {
    await this.retrying(label, async (session) => {
      if (this.unsettled !== null) {
        const landed = await session.committed(this.unsettled);
        this.unsettled = null;
        if (landed) return;
      }
      this.inTransaction = true;
      try {
        await run(session);
      } finally {
        this.inTransaction = false;
      }
    });
    this.lastCommitted = { position: progress.position, rowsAfter: progress.rowsAfter };
  }

  /** Runs `work` on a usable session; transient failures retry it on a new connection after a backoff. */
  private async retrying<T>(label: string, work: (s: SqlSession<Rows>) => Promise<T>): Promise<T> {
    const { checkBeforeReuse } = this.options;
    for (let attempt = 0; ; attempt++) {
      let session: SqlSession<Rows> | null = null;
      try {
        if (this.aborted) throw cancelled();
        session = await this.usableSession(attempt > 0 || checkBeforeReuse);
        return await work(session);
      } catch (err) {
        this.unsettled = session?.unsettledCommit() ?? this.unsettled;
        if (session && this.session === session && this.unsettled === null) await session.query('ROLLBACK').catch(() => undefined);
        if (this.aborted || (err instanceof DeltaportError && err.code === 'CANCELLED')) throw cancelled();
        if (!isTransient(err) || attempt >= this.spec.execution.maxRetries) throw this.writeError(label, err, attempt);
        await this.dropSession();
        await sleep(backoffMs(attempt), this.signal);
      }
    }
  }

  /** The current session if it still works, else a new one: the lost one's backend ended, the job claimed, the
   * statements prepared. */
  private async usableSession(check: boolean): Promise<SqlSession<Rows>> {
    if (this.session && (!check || (await this.session.ping()))) return this.session;
    await this.dropSession();
    const session = await this.options.connect(this.owner);
    try {
      if (this.lostBackend !== null) await session.endBackend(this.lostBackend);
      this.lostBackend = null;
      await session.claim(this.job, this.owner);
      this.claimed = true;
      if (this.target) await session.prepare(this.target);
    } catch (err) {
      this.session = session;
      await this.dropSession();
      throw err;
    }
    this.session = session;
    return session;
  }

  /** Gives the session up; its backend is ended by the next session, should the server still run it. */
  private async dropSession(): Promise<void> {
    const session = this.session;
    this.session = null;
    if (!session) return;
    this.lostBackend = session.backend ?? this.lostBackend;
    await session.close().catch(() => session.kill());
  }

  private writeError(label: string, err: unknown, attempt: number): DeltaportError {
    if (err instanceof DeltaportError && err.code !== 'SINK_CONNECTION') return err;
    const message = this.options.explain(err);
    const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
    const unknown = this.unsettled !== null ? ' (its COMMIT went out, whether it landed is unknown)' : '';
    return new DeltaportError(isTransient(err) ? 'SINK_CONNECTION' : 'SINK_WRITE', `${label} failed${tries}: ${message}${unknown}`);
  }
}
