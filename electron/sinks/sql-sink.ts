// The part both SQL sinks share: open (claim the job, check or create the target, resume an exactly-once
// job), regroup the scan's batches into batches of batchSize rows and those into transactions, commit each with its
// progress row, retry transient failures on a fresh connection (first learning whether a COMMIT whose answer was
// lost landed), swap an overwrite into place, and roll back on abort. A dialect may spread the transactions over
// several connections ("lanes", each one server process): they then commit in any order, each lane with its own
// ledger row, retries and lost-COMMIT check, and the first lane holds the job's claim and makes the final commit. The dialects plug in a SqlSession, and may
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
import { CommittedRows, rowsIn, withoutRanges } from './committed-rows.js';
import {
  forgetLanesStatement,
  forgetProgress,
  jobKey,
  laneKey,
  mergeLanes,
  prepareLedger,
  progressStatement,
  readLanes,
  type LaneRow,
  type RowRange,
  type SqlStatement,
  type StoredProgress,
  stagingPrefix,
  stagingTable,
  stagingTablesSql,
  upsertStage,
  upsertStagePrefix,
} from './exactly-once.js';
import { newRun, type RunOwner } from './job-claim.js';
import { backoffMs } from '../../shared/backoff.js';
import { cancelled, isTransient, sleep } from './retry.js';
import type { BatchSink, SinkOpenContext } from './sink.js';
import { quoteIn } from './sql-identifiers.js';
import { buildPlan, type TableDescription } from './sql-plan.js';
import { emptyDropLocks, swapSql } from './sql-statements.js';
import { createTableSql, type Dialect } from './sql-types.js';

/** What a session writes: the table being filled (the staging table for an overwrite) and how. */
export interface WriteTarget {
  table: string;
  fields: StructField[];
  spec: SqlSinkSpec;
  /** An upsert over several connections: the session's own staging table, merged into the table at the end. */
  stage?: string;
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
  /** Makes this session the job's one writer (the first lane), or one of its writers beside the first lane, whose
   * claim it checks (a later lane); throws SINK_BUSY when another run of the job holds it. */
  claim(job: string, owner: RunOwner, lane: LaneClaim): Promise<void>;
  /** Gives the claim up at the end of the job, the run's other server processes gone by then. */
  release(job: string, owner: RunOwner): Promise<void>;
  /** Where the dialect stages upserts (options.stageUpserts): merges these staging tables into the target. */
  mergeStages?(stages: string[]): Promise<void>;
  /** A round trip that proves the connection still works (connection check before reuse). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Drops the connection at once; the database rolls back whatever transaction was open. */
  kill(): void;
  /** Where the database runs in this process on threads of its own (DuckDB): stops the statement in flight at once,
   * so that its transaction fails and rolls back. A cancel must not wait for a long statement, and the export thread
   * must not be ended while native work of it is still under way. */
  interrupt?(): void;
}

/** Which lane a session is, and whether a server process is one of the run's sessions (now or before, ended or not),
 * which may hold what the job holds. Ask it after reading who holds a lock: another lane may have been connected
 * again while the claim waited on the server, and its new session is the run's too. */
export interface LaneClaim {
  index: number;
  ours(backend: number): boolean;
}

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
  /** Whether `encode` copies every row of the batches it is given into the transaction's own data (a COPY stream)
   * before it resolves: the sink then takes reused buffers (BatchSink.takesReusedBuffers), the rows it holds back
   * across writes copied before the scan decodes over them (Batcher.hold). Not where a transaction keeps the batches
   * until its commit. */
  encodeCopies?: boolean;
  /** Called with a transaction's rows once they are committed, never to be sent again (a retry resends them). */
  release?: (rows: Rows) => void;
  /** Transactions that may still be uncommitted when a write resolves, besides one per lane but the first; 0 (the
   * default): a write resolves after its commit, which suits an in-process database that would only take turns with
   * the scan anyway. */
  maxUncommitted?: number;
  /** Connections the transactions are spread over (1 by default). */
  lanes?: number;
  /** An upsert over several connections lands each connection's rows in a staging table of its own, merged into the
   * target in the final transaction (the session's mergeStages): merged as they commit, a later row of a key could
   * lose to an earlier one another connection committed after it. */
  stageUpserts?: boolean;
  checkBeforeReuse: boolean;
  /** The database's message for a failure, on one line. */
  explain: (err: unknown) => string;
}

/** A SQL sink, which also takes transactions whose rows its session reads itself (the DuckDB sink's ranges of a
 * snapshot's own files) in place of batches. */
export interface SqlBatchSink<Rows> extends BatchSink {
  counts(): { committed: number; before: number };
  /** After open: how far an earlier run of this exactly-once job committed the stream (null where it committed rows
   * beyond that too, which only batches can leave out), and whether it finished. */
  resumed(): { progress: StreamProgress | null; done: boolean };
  /** Queues one transaction of `count` rows of the stream, after which the stream stands at `progress`; resolves once
   * there is room for the next, as write does. */
  writeTransaction(rows: Rows, count: number, progress: StreamProgress): Promise<void>;
}

export function createSqlSink(spec: SqlSinkSpec, options: Omit<SqlSinkOptions<RecordBatch[]>, 'encode'>): SqlBatchSink<RecordBatch[]>;
export function createSqlSink<Rows>(spec: SqlSinkSpec, options: SqlSinkOptions<Rows>): SqlBatchSink<Rows>;
export function createSqlSink<Rows>(
  spec: SqlSinkSpec,
  options: SqlSinkOptions<Rows> | Omit<SqlSinkOptions<RecordBatch[]>, 'encode'>,
): SqlBatchSink<Rows> | SqlBatchSink<RecordBatch[]> {
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
  /** The stream's rows it spans (including those an earlier run committed, which it leaves out). */
  count: number;
  /** The rows it sends. */
  sent: number;
  progress: StreamProgress;
}

/** A transaction whose rows are complete. */
interface Transaction<Rows> {
  rows: Rows | null;
  range: RowRange;
  sent: number;
  progress: StreamProgress;
}

/** One connection of the export and what it has under way. */
interface Lane<Rows> {
  index: number;
  /** Its ledger row (an exactly-once job). */
  key: string;
  session: SqlSession<Rows> | null;
  /** Serializes its transactions: writes and the final commit never overlap on it. */
  chain: Promise<void>;
  /** Transactions queued on it and not yet committed. */
  queued: number;
  inTransaction: boolean;
  /** A transaction whose COMMIT went out unanswered: its id, until a new session has learnt its outcome. */
  unsettled: string | null;
  /** The backend of the last session given up, to be ended by the next one. */
  lostBackend: number | null;
  /** The rows its ledger row records as committed ahead of the prefix. */
  ahead: RowRange | null;
}

class SqlSink<Rows> implements SqlBatchSink<Rows> {
  private lanes: Lane<Rows>[] = [];
  private target: WriteTarget | null = null;
  private batcher!: Batcher;
  /** The job this run belongs to (the same for every run of the same export); claimed while it writes. */
  private job = '';
  private readonly owner = newRun();
  private claimed = false;
  /** Whether this upsert lands its rows in staging tables (options.stageUpserts). */
  private staged = false;
  private signal!: AbortSignal;
  private done = false;
  private aborted = false;
  /** The target, where this run created it (append, upsert): a run that ends without a row in it drops it again. */
  private created: string | null = null;
  /** Rows an earlier run of this exactly-once job had committed when this one started. */
  private rowsBefore = 0;
  /** Rows this run committed. */
  private rowsCommitted = 0;
  /** The number in the stream of the next row to join a transaction. */
  private nextRow = 0;
  /** Rows an earlier run committed ahead of where this one resumed: left out. */
  private skipping: RowRange[] = [];
  private committedRows: CommittedRows | null = null;
  /** The transaction being filled, or null. */
  private filling: OpenTransaction<Rows> | null = null;
  /** Rows cut into batches and not yet in a complete transaction. */
  private unfinishedRows = 0;
  /** Transactions this run has completed (filled, whether committed yet or not). */
  private completed = 0;
  /** Serializes encoding, so that batches join transactions in their order. */
  private encoding: Promise<void> = Promise.resolve();
  /** The server processes of every session the run has had. */
  private readonly backends = new Set<number>();
  /** The commits of the complete transactions. */
  private readonly uncommitted = new Set<Promise<void>>();
  private failure: unknown = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly spec: SqlSinkSpec,
    private readonly options: SqlSinkOptions<Rows>,
  ) {}

  /** The batches a write took are done with once it resolves either where their rows were copied as they were
   * encoded, or where it resolves only after they are committed: every batch a transaction of its own (no byte
   * budget keeps one open across writes), none left uncommitted, on one connection (SQLite). */
  get takesReusedBuffers(): boolean {
    return this.options.encodeCopies === true || (this.options.transactionBytes === undefined && this.uncommittedAllowed === 0);
  }

  /** Transactions that may still be uncommitted when a write resolves (room): one per lane but the first, and the
   * dialect's maxUncommitted. */
  private get uncommittedAllowed(): number {
    return (this.options.lanes ?? 1) - 1 + (this.options.maxUncommitted ?? 0);
  }

  counts(): { committed: number; before: number } {
    return { committed: this.rowsCommitted, before: this.rowsBefore };
  }

  /** The spec was checked against ctx.fields where the export started (checked-sink.ts). */
  async open(ctx: SinkOpenContext): Promise<ScanPosition | null> {
    this.signal = ctx.signal;
    if (ctx.signal.aborted) throw cancelled();
    ctx.signal.addEventListener('abort', () => this.cancelNow(), { once: true });
    this.job = jobKey({ tableId: ctx.snapshot.tableId, version: ctx.snapshot.version, fields: ctx.fields, spec: this.spec });
    this.lanes = [this.newLane(0, this.job)];
    try {
      return await this.retrying(this.lanes[0], 'setting up the target', (session) => this.prepareTarget(session, ctx));
    } catch (err) {
      await this.dropSession(this.lanes[0]);
      throw err;
    }
  }

  private newLane(index: number, key: string): Lane<Rows> {
    return {
      index,
      key,
      session: null,
      chain: Promise.resolve(),
      queued: 0,
      inTransaction: false,
      unsettled: null,
      lostBackend: null,
      ahead: null,
    };
  }

  private async prepareTarget(session: SqlSession<Rows>, ctx: SinkOpenContext): Promise<ScanPosition | null> {
    const { dialect } = this.options;
    const existing = await session.describe(this.spec.table);
    const plan = buildPlan(this.spec, ctx.fields, existing, dialect);
    if (plan.incompatibility) throw new DeltaportError('SINK_INCOMPATIBLE', plan.incompatibility);

    let resumed = { position: null, rowsAfter: 0, rowsWritten: 0, ahead: [] } as Omit<StoredProgress, 'done'>;
    /** Lane rows that record rows committed ahead of the prefix: kept as they are until the job is done. */
    let pinned = new Set<string>();
    let table = this.spec.table;
    const query = session.query.bind(session);
    const exactlyOnce = this.spec.exactlyOnce;
    if (exactlyOnce) {
      await prepareLedger(query, dialect);
      const lanes = await readLanes(query, dialect, this.job);
      if (lanes.length > 0) {
        const stored = mergeLanes(lanes);
        resumed = stored;
        this.done = stored.done;
        pinned = new Set(lanes.filter((l) => l.ahead && l.ahead.to > stored.rowsWritten).map((l) => l.key));
      }
    }
    // A finished job: the stream after its last position is empty and nothing is written again.
    if (this.done) return this.startFrom(resumed, pinned);
    if (this.spec.mode === 'overwrite') {
      table = stagingTable(this.job, exactlyOnce ? null : this.owner.id);
      // Other staging tables of this job are what killed runs left: the claim says none of them still runs.
      for (const row of await session.query(stagingTablesSql(dialect), [stagingPrefix(this.job)])) {
        if (row.name !== table) await session.query(`DROP TABLE IF EXISTS ${quoteIn(dialect, String(row.name))}`);
      }
      const resuming = resumed.rowsWritten > 0 || resumed.ahead.length > 0;
      const keepStaging = exactlyOnce && resuming && (await session.describe(table)) !== null;
      if (!keepStaging) {
        await session.query(`DROP TABLE IF EXISTS ${quoteIn(dialect, table)}`);
        await session.query(createTableSql(dialect, table, ctx.fields));
        if (exactlyOnce) await forgetProgress(query, dialect, this.job);
        resumed = { position: null, rowsAfter: 0, rowsWritten: 0, ahead: [] };
        pinned = new Set();
      }
    } else {
      if (this.spec.mode === 'upsert' && this.options.stageUpserts) await this.prepareStages(session, exactlyOnce);
      if (!existing && this.spec.mode !== 'sql') {
        await session.query(plan.ddl[0]);
        this.created = table;
      }
    }
    this.target = { table, fields: ctx.fields, spec: this.spec };
    const position = this.startFrom(resumed, pinned);
    await session.prepare(this.laneTarget(this.lanes[0]));
    return position;
  }

  /** An upsert stages its rows over several connections, and wherever an earlier run of its exactly-once job did
   * (whose staged rows come before this run's). Any other run's staging tables are what killed runs left: the claim
   * says none of them still runs. */
  private async prepareStages(session: SqlSession<Rows>, exactlyOnce: boolean): Promise<void> {
    const { dialect } = this.options;
    const left = (await session.query(stagingTablesSql(dialect), [upsertStagePrefix(this.job)])).map((r) => String(r.name));
    if (!exactlyOnce) for (const name of left) await session.query(`DROP TABLE IF EXISTS ${quoteIn(dialect, name)}`);
    this.staged = (this.options.lanes ?? 1) > 1 || (exactlyOnce && left.length > 0);
  }

  /** What a lane's session writes: a staged upsert's lane fills its own staging table. */
  private laneTarget(lane: Lane<Rows>): WriteTarget {
    if (!this.staged) return this.target!;
    const number = lane.key === this.job ? 0 : Number(lane.key.slice(this.job.length + 1));
    return { ...this.target!, stage: upsertStage(this.job, number, this.spec.exactlyOnce ? null : this.owner.id) };
  }

  /** Starts after the committed prefix; each lane gets a ledger row of its own that no pinned row keeps. */
  private startFrom(resumed: Omit<StoredProgress, 'done'>, pinned: Set<string>): ScanPosition | null {
    const keys: string[] = [];
    for (let i = 0; keys.length < (this.options.lanes ?? 1); i++) if (!pinned.has(laneKey(this.job, i))) keys.push(laneKey(this.job, i));
    // The first lane stays the one open() set up the target on (and retries that on).
    const first = this.lanes[0];
    first.key = keys[0];
    this.lanes = [first, ...keys.slice(1).map((key, index) => this.newLane(index + 1, key))];
    this.skipping = resumed.ahead;
    this.rowsBefore = resumed.rowsWritten + rowsIn(resumed.ahead, resumed.rowsWritten);
    this.nextRow = resumed.rowsWritten;
    this.committedRows = new CommittedRows(resumed, resumed.ahead);
    this.batcher = new Batcher(this.spec.execution.batchSize, resumed);
    return resumed.position;
  }

  resumed(): { progress: StreamProgress | null; done: boolean } {
    return { progress: this.skipping.length > 0 ? null : this.committedRows!.through.progress, done: this.done };
  }

  writeTransaction(rows: Rows, count: number, progress: StreamProgress): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.done) return Promise.resolve();
    const range = { from: this.nextRow, to: this.nextRow + count };
    this.nextRow += count;
    this.completed++;
    if (count === 0) this.committedRows!.committed(range, progress);
    else this.queue({ rows, range, sent: count, progress });
    return this.room();
  }

  write(batch: ScanBatch): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.done) return Promise.resolve();
    this.batcher.add(batch);
    let next: Batch | null;
    while ((next = this.batcher.takeFull())) this.encode(next, false);
    // A flush by the batch interval may have taken rows still in the scan's buffers: the write below waits for their
    // encoding too, so they are encoded before the scan decodes over them.
    this.batcher.hold();
    this.armTimer();
    // The batches wait for no more than their encoding, so that the scan never runs far ahead of it.
    return this.encoding.then(() => this.room());
  }

  /** Once no more transactions than allowed are uncommitted. */
  private async room(): Promise<void> {
    while (!this.failure && this.uncommitted.size > this.uncommittedAllowed) {
      await Promise.race(this.uncommitted).catch(() => undefined);
      // A turn after the commit, so that the next transaction goes out before the scan continues.
      await nextTurn();
    }
    if (this.failure) throw this.failure;
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
      await Promise.all(this.lanes.map((lane) => lane.chain));
      if (this.failure) throw this.failure;
      const swap = this.spec.mode === 'overwrite' ? swapSql(this.options.dialect, this.spec.table, this.target!.table) : [];
      if (this.spec.mode === 'overwrite' || this.spec.exactlyOnce || this.staged) await this.finish(swap);
    }
    // The later lanes end first: the claim is given up once nothing else of the run holds what the job holds.
    await Promise.all(this.lanes.slice(1).map((lane) => lane.session?.close()));
    await this.releaseClaim();
    await this.lanes[0].session?.close();
    for (const lane of this.lanes) lane.session = null;
  }

  async abort(): Promise<void> {
    this.aborted = true;
    this.disarmTimer();
    this.cancelNow();
    await this.encoding;
    await Promise.all(this.lanes.map((lane) => lane.chain.catch(() => undefined)));
    const first = this.lanes[0];
    try {
      // Without exactly-once the staging table has no future; with it, a rerun continues filling it.
      const drop = !this.target || this.spec.exactlyOnce ? [] : this.staged ? this.lanes.map((l) => this.laneTarget(l).stage!) : [];
      if (this.spec.mode === 'overwrite' && !this.spec.exactlyOnce && this.target) drop.push(this.target.table);
      if (drop.length > 0) first.session ??= await this.options.connect(this.owner);
      for (const table of drop) await first.session!.query(`DROP TABLE IF EXISTS ${quoteIn(this.options.dialect, table)}`);
      if (this.created) await this.dropIfEmpty((first.session ??= await this.options.connect(this.owner)), this.created);
      await this.releaseClaim();
    } catch {
      // Best effort: the next run of this job drops a leftover staging table and takes over a stale claim.
    }
    // Without waiting for what the connection ends in the background (a SQLite checkpoint thread removing the WAL
    // as it stops): a cancel must be quick.
    for (const lane of this.lanes) {
      lane.session?.kill();
      lane.session = null;
    }
  }

  /** A failed or cancelled export leaves no table behind that it created and never committed a row into. Where the
   * table cannot be locked at once (another writer holds it), it stays. */
  private async dropIfEmpty(session: SqlSession<Rows>, table: string): Promise<void> {
    const { dialect } = this.options;
    const { lock, unlock, undo } = emptyDropLocks(dialect, table);
    try {
      for (const text of lock) await session.query(text);
      const rows = await session.query(`SELECT 1 AS found FROM ${quoteIn(dialect, table)} LIMIT 1`);
      if (rows.length === 0) await session.query(`DROP TABLE ${quoteIn(dialect, table)}`);
      await session.query(unlock);
    } catch {
      await session.query(undo).catch(() => undefined);
    }
  }

  /** Gives the job's claim up, once every other server process the run has had is gone (ended here if it still
   * runs): the server ends a lost or killed session only when it notices, and until then it holds what the job
   * holds, so that a rerun right after this one (a resume after a cancel) would be refused as running beside it. */
  private async releaseClaim(): Promise<void> {
    if (!this.claimed) return;
    this.claimed = false;
    const first = this.lanes[0];
    try {
      // On a working connection: the lane's may have been lost after its last transaction.
      let session = first.session;
      if (!session || !(await session.ping())) {
        await this.dropSession(first);
        session = first.session = await this.options.connect(this.owner);
      }
      for (const backend of this.backends) if (backend !== session.backend) await session.endBackend(backend);
      await session.release(this.job, this.owner);
    } catch (err) {
      // A lost connection, the job's rows being where they belong: what is left, the server ends once it notices.
      if (!isTransient(err)) throw err;
    }
  }

  /** Remembers the first failure; transactions waiting for others to commit give up. */
  private fail(err: unknown): void {
    this.failure ??= err;
    this.committedRows?.stop(err);
  }

  /** Stops the transactions in flight on a server: their rows are rolled back with the connections. (An in-process
   * database runs each statement to its end before this can run; its transaction commits or fails as it goes.) */
  private cancelNow(): void {
    this.aborted = true;
    this.committedRows?.stop(cancelled());
    for (const lane of this.lanes) {
      if (!lane.inTransaction || !lane.session) continue;
      if (lane.session.backend !== null) {
        lane.session.kill();
        lane.session = null;
      } else lane.session.interrupt?.();
    }
  }

  /** Adds a batch to the open transaction (starting one where there is none, or where the batch cannot join it),
   * then completes the transaction once it is full, or when `last` says so. */
  private encode(batch: Batch, last: boolean): void {
    this.unfinishedRows += batch.rows;
    const at = this.nextRow;
    this.nextRow += batch.rows;
    this.encoding = this.encoding
      .then(async () => {
        if (this.failure || this.aborted) return;
        const chunks = this.skipping.length > 0 ? withoutRanges(batch.chunks, at, this.skipping) : batch.chunks;
        if (this.filling && chunks.length > 0 && !this.filling.rows.accepts(chunks)) this.complete();
        const open = (this.filling ??= {
          rows: this.options.encode(this.target!),
          firstRow: at,
          count: 0,
          sent: 0,
          progress: batch.progress,
        });
        if (chunks.length > 0) await open.rows.add(chunks);
        open.count += batch.rows;
        open.sent += chunks.reduce((n, c) => n + c.numRows, 0);
        open.progress = batch.progress;
        const budget = this.options.transactionBytes;
        if (last || budget === undefined || open.rows.bytes >= transactionBytesAt(budget, this.completed)) this.complete();
      })
      .catch((err: unknown) => {
        this.fail(err);
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

  /** Completes the open transaction: queues its commit, or records it committed where an earlier run committed it. */
  private complete(): void {
    const open = this.filling!;
    this.filling = null;
    this.completed++;
    this.unfinishedRows -= open.count;
    const range = { from: open.firstRow, to: open.firstRow + open.count };
    // Every row of it an earlier run committed: nothing to send.
    if (open.sent === 0) {
      this.committedRows!.committed(range, open.progress);
      return;
    }
    this.queue({ rows: open.rows.finish(), range, sent: open.sent, progress: open.progress });
  }

  /** Queues a complete transaction's commit on the lane with the fewest queued. */
  private queue(txn: Transaction<Rows>): void {
    const lane = this.lanes.reduce((a, b) => (b.queued < a.queued ? b : a));
    lane.queued++;
    const committed = lane.chain.then(() => this.commit(lane, txn));
    lane.chain = committed.catch(() => undefined);
    this.uncommitted.add(committed);
    committed.then(
      () => {
        lane.queued--;
        this.uncommitted.delete(committed);
      },
      (err: unknown) => {
        this.fail(err);
        this.uncommitted.delete(committed);
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

  /** One transaction with its lane's progress row; transient failures retry on a new connection. */
  private async commit(lane: Lane<Rows>, { rows, range, sent, progress }: Transaction<Rows>): Promise<void> {
    if (this.failure) throw this.failure;
    let stored: LaneRow | null = null;
    if (this.spec.exactlyOnce) {
      // The lane's row is about to give up the rows it records ahead of the prefix: the prefix must hold them by then.
      if (lane.ahead) await this.committedRows!.reached(lane.ahead.to);
      stored = this.committedRows!.rowFor(range, progress);
    }
    const after = stored ? [progressStatement(this.options.dialect, lane.key, this.spec.table, stored)] : [];
    const label = `rows ${range.from + 1}-${range.to}`;
    await this.transaction(lane, label, (session) =>
      session.writeCommitted
        ? session.writeCommitted(rows!, range.from, after)
        : this.committing(session, after, (s) => s.writeRows(rows!, range.from)),
    );
    if (stored) lane.ahead = stored.ahead;
    this.committedRows!.committed(range, progress);
    this.rowsCommitted += sent;
    this.options.release?.(rows!);
  }

  /** The last transaction, on the first lane: a staged upsert's merge, the overwrite's swap, and the job marked done. */
  private async finish(swap: SqlStatement[]): Promise<void> {
    const { dialect } = this.options;
    const { progress, rows } = this.committedRows!.through;
    const done = { ...progress, rowsWritten: rows, ahead: null, done: true };
    const ledger = this.spec.exactlyOnce
      ? [progressStatement(dialect, this.job, this.spec.table, done), forgetLanesStatement(dialect, this.job)]
      : [];
    await this.transaction(this.lanes[0], 'the final commit', (session) =>
      this.committing(session, [...swap, ...ledger], async (s) => {
        if (!this.staged) return;
        // Every staging table of the job: an exactly-once job's earlier runs may have filled more than this one has.
        const stages = (await s.query(stagingTablesSql(dialect), [upsertStagePrefix(this.job)])).map((r) => String(r.name));
        if (stages.length > 0) await s.mergeStages!(stages);
        for (const stage of stages) await s.query(`DROP TABLE ${quoteIn(dialect, stage)}`);
      }),
    );
  }

  /** BEGIN, the body, the statements after it (an exactly-once job's progress row), COMMIT. */
  private async committing(session: SqlSession<Rows>, after: SqlStatement[], body: (s: SqlSession<Rows>) => Promise<void>): Promise<void> {
    await session.begin();
    await body(session);
    for (const { text, values } of after) await session.query(text, values);
    await session.commit();
  }

  /** Runs `run` (a whole transaction) on the lane until it commits. A retry first learns whether the attempt before
   * it did commit after all (its connection was lost after COMMIT went out), and then does not run it again. */
  private async transaction(lane: Lane<Rows>, label: string, run: (s: SqlSession<Rows>) => Promise<void>): Promise<void> {
    await this.retrying(lane, label, async (session) => {
      if (lane.unsettled !== null) {
        const landed = await session.committed(lane.unsettled);
        lane.unsettled = null;
        if (landed) return;
      }
      // A cancel while the lane was connecting found no transaction of it to stop: it starts none after the cancel.
      if (this.aborted) throw cancelled();
      lane.inTransaction = true;
      try {
        await run(session);
      } finally {
        lane.inTransaction = false;
      }
    });
  }

  /** Runs `work` on a usable session of the lane; transient failures retry it on a new connection after a backoff. */
  private async retrying<T>(lane: Lane<Rows>, label: string, work: (s: SqlSession<Rows>) => Promise<T>): Promise<T> {
    const { checkBeforeReuse } = this.options;
    for (let attempt = 0; ; attempt++) {
      let session: SqlSession<Rows> | null = null;
      try {
        if (this.aborted) throw cancelled();
        session = await this.usableSession(lane, attempt > 0 || checkBeforeReuse);
        return await work(session);
      } catch (err) {
        lane.unsettled = session?.unsettledCommit() ?? lane.unsettled;
        if (session && lane.session === session && lane.unsettled === null) await session.query('ROLLBACK').catch(() => undefined);
        if (this.aborted || (err instanceof DeltaportError && err.code === 'CANCELLED')) throw cancelled();
        if (!isTransient(err) || attempt >= this.spec.execution.maxRetries) throw this.writeError(lane, label, err, attempt);
        await this.dropSession(lane);
        await sleep(backoffMs(attempt), this.signal);
      }
    }
  }

  /** The lane's session if it still works, else a new one: the lost one's backend ended, the job claimed, the
   * statements prepared. */
  private async usableSession(lane: Lane<Rows>, check: boolean): Promise<SqlSession<Rows>> {
    if (lane.session && (!check || (await lane.session.ping()))) return lane.session;
    await this.dropSession(lane);
    const session = await this.options.connect(this.owner);
    lane.session = session;
    // The run's from now on, so that the other lanes count its backend as their run's while it claims.
    if (session.backend !== null) this.backends.add(session.backend);
    try {
      if (lane.lostBackend !== null) await session.endBackend(lane.lostBackend);
      lane.lostBackend = null;
      await session.claim(this.job, this.owner, { index: lane.index, ours: (backend) => this.backends.has(backend) });
      if (lane.index === 0) this.claimed = true;
      if (this.target) await session.prepare(this.laneTarget(lane));
    } catch (err) {
      await this.dropSession(lane);
      throw err;
    }
    return session;
  }

  /** Gives the lane's session up; its backend is ended by the lane's next session, should the server still run it. */
  private async dropSession(lane: Lane<Rows>): Promise<void> {
    const session = lane.session;
    lane.session = null;
    if (!session) return;
    lane.lostBackend = session.backend ?? lane.lostBackend;
    await session.close().catch(() => session.kill());
  }

  private writeError(lane: Lane<Rows>, label: string, err: unknown, attempt: number): DeltaportError {
    if (err instanceof DeltaportError && err.code !== 'SINK_CONNECTION') return err;
    const message = this.options.explain(err);
    const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
    const unknown = lane.unsettled !== null ? ' (its COMMIT went out, whether it landed is unknown)' : '';
    return new DeltaportError(isTransient(err) ? 'SINK_CONNECTION' : 'SINK_WRITE', `${label} failed${tries}: ${message}${unknown}`);
  }
}
