// The export queue. Each job gets an id, runs in its own worker thread when its turn comes (one at a time by
// default), reports progress as JobEvents, can be cancelled whether queued or running, and has every state change
// recorded through the JobStore (app state), passwords removed.
import { randomUUID } from 'node:crypto';
import type { ExportOutcome, ExportRequest, JobEvent, JobInfo, RetryAnswer, RetryChoice } from '../../shared/api.js';
import { isChangeSource, isSqlSource, rowsLabel } from '../../shared/change-source.js';
import { cancelledError, DeltaportError, toErrorValue } from '../../shared/errors.js';
import { isSqlSink, replacingSpec, type PostgresConnection, type SinkSpec } from '../../shared/sink-spec.js';
import { localTargetFor, sweepStalePartials } from '../sinks/atomic-file.js';
import type { StoredProgress } from '../sinks/exactly-once.js';
import { redactSink } from '../state/secrets.js';
import { canonicalLocation } from '../storage/storage.js';
import { tableNameOf } from '../catalog/catalog.js';
import { leftNothing, retryQuestion, withLedger } from './job-ledger.js';
import { removePartialFiles } from './partial-files.js';
import { NO_PROGRESS, ProgressMeter, type RawProgress } from './progress.js';
import type { TaskHandle } from './task-worker.js';
import type { EngineSettings } from '../delta/engine/engine-context.js';
import { runSharedTask, startTask } from './task-worker.js';

export interface JobStore {
  recordJob(job: JobInfo): void;
  jobHistory(): JobInfo[];
  unfinishedJobs(): JobInfo[];
}

export interface JobRunnerOptions {
  store: JobStore;
  /** The settings of the engine an export reads and writes through (the app's storage connections), taken as it
   * starts. */
  engine: () => EngineSettings;
  /** Exports running at once; the rest wait in order. */
  concurrency?: number;
  now?: () => number;
  /** How long a cancelled export may take to stop before its thread is terminated (never one that runs DuckDB:
   * runsDuckDb). */
  cancelGraceMs?: number;
}

interface ActiveJob {
  info: JobInfo;
  /** The request as given, password included; JobInfo carries only the redacted copy. */
  request: ExportRequest;
  handle: TaskHandle<ExportOutcome> | null;
  cancelRequested: boolean;
  done: Promise<JobInfo>;
  resolveDone: (job: JobInfo) => void;
}

export class JobRunner {
  private readonly jobs = new Map<string, ActiveJob>();
  private readonly queue: ActiveJob[] = [];
  private readonly listeners = new Set<(event: JobEvent) => void>();
  private running = 0;
  private readonly concurrency: number;
  private readonly now: () => number;
  /** Resolves once the partial files of the jobs the last session left unfinished are removed. */
  readonly swept: Promise<void>;

  constructor(private readonly options: JobRunnerOptions) {
    this.concurrency = options.concurrency ?? 1;
    this.now = options.now ?? Date.now;
    // A job still queued or running in the record was cut short when the app last quit, killed perhaps: its file
    // export could not remove its partial file (a SQL export's claim ended with its process or is taken over).
    const interrupted = options.store.unfinishedJobs();
    for (const job of interrupted) {
      options.store.recordJob({
        ...job,
        state: 'failed',
        finishedAt: job.finishedAt ?? job.startedAt ?? job.createdAt,
        error: cancelledError('job', 'because Deltaport quit before this job finished').toValue(),
      });
    }
    this.swept = Promise.all(
      interrupted.map(({ request: { sink } }) => (isSqlSink(sink) ? [] : sweepStalePartials(localTargetFor(sink.path)).catch(() => []))),
    ).then(() => undefined);
  }

  onJobEvent(listener: (event: JobEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Queues an export and returns its JobInfo at once; it starts when a slot is free. A snapshot export into a SQL
   * table keeps the exactly-once ledger under this job's id (job-ledger.ts). */
  start(request: ExportRequest): JobInfo {
    const id = randomUUID();
    return this.enqueue(id, withLedger(request, id));
  }

  /** Runs a failed or cancelled job again (DeltaportApi.retryJob). A job of an earlier session comes back from its
   * record, which `restore` gives its password back. */
  async retry(id: string, choice?: RetryChoice, restore: (recorded: ExportRequest) => ExportRequest = (r) => r): Promise<RetryAnswer> {
    const live = this.jobs.get(id);
    const job = live?.info ?? this.options.store.jobHistory().find((j) => j.id === id);
    if (!job) throw new DeltaportError('NOT_FOUND', `no job ${id}`);
    if (job.state !== 'failed' && job.state !== 'cancelled')
      throw new DeltaportError('VALIDATION', `only a failed or cancelled job can be retried; this one is ${job.state}`);
    const request = live?.request ?? restore(job.request);
    // A choice, and a file export (written whole or not at all), start afresh; so does a job that left nothing.
    if (choice === 'replace') return { started: this.start({ ...request, sink: replacingSpec(request.sink) }) };
    if (choice === 'append' || !isSqlSink(request.sink)) return { started: this.start(request) };
    if (request.sink.exactlyOnce) {
      const stored = await runSharedTask<StoredProgress | null>({ kind: 'ledger', request }, this.options.engine());
      // The same ledger row (the sink keeps its job id): the run goes on after the rows it records.
      if (stored || leftNothing(job)) return { started: this.enqueue(randomUUID(), request) };
      return retryQuestion(job, true);
    }
    return leftNothing(job) ? { started: this.start(request) } : retryQuestion(job, false);
  }

  private enqueue(id: string, request: ExportRequest): JobInfo {
    const info: JobInfo = {
      id,
      kind: 'export',
      title: jobTitle(request),
      // The profile stays, so that a Retry in a later session finds the saved password again.
      request: { source: request.source, sink: redactSink(request.sink), ...(request.profile ? { profile: request.profile } : {}) },
      state: 'queued',
      progress: NO_PROGRESS,
      createdAt: this.now(),
      startedAt: null,
      finishedAt: null,
      error: null,
      result: null,
    };
    let resolveDone!: (job: JobInfo) => void;
    const done = new Promise<JobInfo>((resolve) => (resolveDone = resolve));
    const job: ActiveJob = { info, request, handle: null, cancelRequested: false, done, resolveDone };
    this.jobs.set(info.id, job);
    this.queue.push(job);
    this.publish(job, true);
    this.pump();
    return info;
  }

  /** Cancels a queued job at once, or asks a running one to stop (it is terminated if it does not, within 1 s). */
  cancel(id: string): JobInfo {
    const job = this.jobs.get(id);
    if (!job) {
      const past = this.options.store.jobHistory().find((j) => j.id === id);
      if (past) return past;
      throw new DeltaportError('NOT_FOUND', `no job ${id}`);
    }
    if (job.info.state === 'queued') {
      this.queue.splice(this.queue.indexOf(job), 1);
      this.settle(job, { state: 'cancelled', error: cancelledError('job', 'before it started').toValue() });
    } else if (job.info.state === 'running') {
      job.cancelRequested = true;
      job.handle?.cancel();
    }
    return job.info;
  }

  /** Resolves with the job's final info once it has succeeded, failed or been cancelled. */
  wait(id: string): Promise<JobInfo> {
    const job = this.jobs.get(id);
    if (!job) throw new DeltaportError('NOT_FOUND', `no job ${id}`);
    return job.done;
  }

  /** This session's jobs and the recorded ones, newest first. */
  list(): JobInfo[] {
    const current = [...this.jobs.values()].map((j) => j.info);
    const ids = new Set(current.map((j) => j.id));
    const past = this.options.store.jobHistory().filter((j) => !ids.has(j.id));
    return [...current, ...past].sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Jobs that closing the app would cut short. */
  activeCount(): number {
    return [...this.jobs.values()].filter((j) => j.info.state === 'queued' || j.info.state === 'running').length;
  }

  /** Cancels everything queued or running and waits until each has stopped. */
  async cancelAll(): Promise<void> {
    const active = [...this.jobs.values()].filter((j) => j.info.state === 'queued' || j.info.state === 'running');
    for (const job of active) this.cancel(job.info.id);
    await Promise.all(active.map((j) => j.done));
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      void this.run(job).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async run(job: ActiveJob): Promise<void> {
    const busy = this.duckdbFileInUse(job);
    if (busy) return this.settle(job, { state: 'failed', error: busy.toValue() });
    const startedAt = this.now();
    const meter = new ProgressMeter(startedAt);
    job.info = { ...job.info, state: 'running', startedAt };
    this.publish(job, true);
    const onProgress = (raw: RawProgress) => {
      job.info = { ...job.info, progress: meter.update(raw, this.now()) };
      this.publish(job, false);
    };
    job.handle = startTask<ExportOutcome>(
      { kind: 'export', request: job.request },
      this.options.engine(),
      onProgress,
      runsDuckDb(job.request) ? null : this.options.cancelGraceMs,
    );
    try {
      const result = await job.handle.result;
      job.info = { ...job.info, progress: meter.finish(result.rows, result.rowsPerSec) };
      this.settle(job, { state: 'succeeded', result });
    } catch (err) {
      const error = toErrorValue(err);
      if (job.handle.forced) await this.removeLeftovers(job);
      const cancelled = job.cancelRequested || error.code === 'CANCELLED';
      // The export's own word on a cancel says how many rows stayed committed.
      const ownCancel = error.code === 'CANCELLED' ? error : cancelledError().toValue();
      this.settle(job, cancelled ? { state: 'cancelled', error: ownCancel } : { state: 'failed', error });
    }
  }

  /** DuckDB locks a file for one process, not one thread: two export threads of this process must not both open it. */
  private duckdbFileInUse(job: ActiveJob): DeltaportError | null {
    const { sink } = job.request;
    if (sink.kind !== 'duckdb') return null;
    const target = canonicalLocation(sink.path);
    const other = [...this.jobs.values()].some(
      (o) =>
        o !== job && o.info.state === 'running' && o.request.sink.kind === 'duckdb' && canonicalLocation(o.request.sink.path) === target,
    );
    return other ? new DeltaportError('SINK_BUSY', `the DuckDB file ${target} is in use by another export`) : null;
  }

  /** What a terminated export left, unless another running export writes to the same target: a file export's
   * partial file, a SQLite export's lease (a PostgreSQL or MySQL claim ended with the thread's session). */
  private async removeLeftovers(job: ActiveJob): Promise<void> {
    const { sink } = job.request;
    // A DuckDB file keeps what committed, and holds no lease or partial file of the export.
    if (sink.kind === 'postgres' || sink.kind === 'mysql' || sink.kind === 'duckdb') return;
    const sameTarget = [...this.jobs.values()].some(
      (other) =>
        other !== job &&
        other.info.state === 'running' &&
        'path' in other.request.sink &&
        canonicalLocation(other.request.sink.path) === canonicalLocation(sink.path),
    );
    if (sameTarget) return;
    if (sink.kind === 'sqlite') await (await import('../sinks/sqlite-sink.js')).releaseLeftLeases(sink.path);
    else await removePartialFiles(sink.path);
  }

  private settle(job: ActiveJob, outcome: Pick<JobInfo, 'state'> & Partial<Pick<JobInfo, 'error' | 'result'>>): void {
    job.info = { ...job.info, ...outcome, finishedAt: this.now() };
    this.publish(job, true);
    job.resolveDone(job.info);
  }

  private publish(job: ActiveJob, record: boolean): void {
    if (record) this.options.store.recordJob(job.info);
    const event: JobEvent = { type: 'job', job: job.info };
    for (const listener of this.listeners) listener(event);
  }
}

/** An export whose thread runs DuckDB (a query's result, a DuckDB target) is never terminated on a cancel, only asked
 * to stop, which interrupts DuckDB: a thread terminated while DuckDB's native code works for it ends the whole process
 * when that work returns (its binding throws into a thread that is gone). */
function runsDuckDb({ source, sink }: ExportRequest): boolean {
  return isSqlSource(source) || sink.kind === 'duckdb';
}

function jobTitle({ source, sink }: ExportRequest): string {
  const table = tableNameOf(source.tablePath);
  const rows = isChangeSource(source)
    ? ` ${rowsLabel(source)}`
    : source.versionAsOf !== undefined
      ? ` v${source.versionAsOf}`
      : source.timestampAsOf
        ? ` @ ${source.timestampAsOf}`
        : '';
  return `${table}${rows} -> ${sinkTarget(sink)}`;
}

function sinkTarget(sink: SinkSpec): string {
  switch (sink.kind) {
    case 'sqlite':
    case 'duckdb':
      return `${sink.kind}:${sink.path} (${sink.table})`;
    case 'postgres':
    case 'mysql':
      return `${sink.kind}:${postgresHost(sink.connection)} (${sink.table})`;
    default:
      return `${sink.kind}:${sink.path}`;
  }
}

function postgresHost(connection: PostgresConnection): string {
  if (connection.host) return connection.host;
  try {
    return connection.url ? new URL(connection.url).host : 'localhost';
  } catch {
    return 'server';
  }
}
