// Runs tasks in worker threads and settles each with its value or its error. An export gets a thread of its own:
// cancel asks it to abort, and if it has not stopped within the grace period the thread is terminated, so a cancel
// always takes effect (unless the task is given no grace period: see startTask). Previews and plans share one
// long-lived thread (unref'd, restarted if it dies).
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { cancelledError, DeltaportError } from '../../shared/errors.js';
import type { EngineSettings } from '../delta/engine/engine-context.js';
import { startWorker } from '../threads/start-worker.js';
import { YOUNG_GENERATION_MB } from '../threads/young-generation.js';
import type { RawProgress } from './progress.js';
import type { FromWorker, ToWorker, WorkerStart, WorkerTask } from './worker-protocol.js';

/** Leaves room within the one-second promise for the terminate itself. */
export const CANCEL_GRACE_MS = 700;

export interface TaskHandle<T> {
  result: Promise<T>;
  cancel(): void;
  /** True once a cancel ran out of time and the thread was terminated: it cleaned up nothing it was writing. */
  readonly forced: boolean;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: DeltaportError): void;
  onProgress?: (progress: RawProgress) => void;
}

class TaskWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  alive = true;
  private stopped: Promise<void> = Promise.resolve();
  /** The settings the thread's engine was made from, last. */
  private engine: EngineSettings;

  constructor(engine: EngineSettings, resourceLimits?: ResourceLimits) {
    this.engine = engine;
    const start: WorkerStart = { engine };
    this.worker = startWorker('jobs/worker', { workerData: start, resourceLimits });
    this.worker.on('message', (message: FromWorker) => {
      const task = this.pending.get(message.id);
      if (!task) return;
      if (message.type === 'progress') return task.onProgress?.(message.progress);
      this.pending.delete(message.id);
      // Busy, the thread keeps the process alive; idle, it must not hold up `deltaport serve`'s exit or a test run.
      if (this.pending.size === 0) this.worker.unref();
      if (message.type === 'done') task.resolve(message.value);
      else task.reject(DeltaportError.fromValue(message.error));
    });
    this.worker.on('error', (err) => void this.stop(new DeltaportError('INTERNAL', `worker failed: ${err.message.split('\n')[0]}`)));
    this.worker.on('exit', () => void this.stop(new DeltaportError('INTERNAL', 'the worker stopped before finishing its task')));
  }

  run<T>(task: WorkerTask, onProgress?: (progress: RawProgress) => void): { id: number; result: Promise<T> } {
    const id = this.nextId++;
    const result = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onProgress });
    });
    this.worker.ref();
    this.worker.postMessage({ type: 'run', id, task } satisfies ToWorker);
    return { id, result };
  }

  cancel(id: number): void {
    this.worker.postMessage({ type: 'cancel', id } satisfies ToWorker);
  }

  /** Settings other than the thread's last become the engine of the tasks sent after them (messages arrive in order). */
  useEngine(engine: EngineSettings): void {
    if (engine === this.engine) return;
    this.engine = engine;
    this.worker.postMessage({ type: 'engine', settings: engine } satisfies ToWorker);
  }

  /** Ends the thread; once it has ended, whatever it was still doing fails with the given error. */
  stop(error: DeltaportError): Promise<void> {
    if (!this.alive) return this.stopped;
    this.alive = false;
    const tasks = [...this.pending.values()];
    this.pending.clear();
    const settle = () => tasks.forEach((task) => task.reject(error));
    this.stopped = this.worker.terminate().then(settle, settle);
    return this.stopped;
  }
}

/** Runs a task (an export) in a thread of its own, ended when the task settles or a cancel runs out of time; with
 * `cancelGraceMs` null, a cancel only asks, and the thread ends when the task does. */
export function startTask<T>(
  task: WorkerTask,
  engine: EngineSettings,
  onProgress?: (progress: RawProgress) => void,
  cancelGraceMs: number | null = CANCEL_GRACE_MS,
): TaskHandle<T> {
  // A thread's young generation is sized when it starts (young-generation.ts says why an export's is capped).
  const worker = new TaskWorker(engine, task.kind === 'export' ? { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } : undefined);
  const { id, result } = worker.run<T>(task, onProgress);
  let cancelTimer: NodeJS.Timeout | undefined;
  let forced = false;
  const ended = result.finally(() => {
    clearTimeout(cancelTimer);
    void worker.stop(new DeltaportError('INTERNAL', 'finished'));
  });
  return {
    result: ended,
    get forced() {
      return forced;
    },
    cancel() {
      if (!worker.alive || cancelTimer) return;
      worker.cancel(id);
      if (cancelGraceMs === null) return;
      cancelTimer = setTimeout(() => {
        forced = worker.alive;
        void worker.stop(cancelledError());
      }, cancelGraceMs);
    },
  };
}

let shared: TaskWorker | null = null;

/** What a caller of a shared task may give: a signal whose abort cancels the task in the thread (its answer is then
 * the thread's, once the task has stopped), and where its progress goes. */
export interface SharedTaskControl {
  signal?: AbortSignal;
  onProgress?: (progress: RawProgress) => void;
}

/** Runs a short task (preview, plan) on the shared worker thread, its tables read through an engine of `engine`. */
export async function runSharedTask<T>(task: WorkerTask, engine: EngineSettings, control: SharedTaskControl = {}): Promise<T> {
  const { signal, onProgress } = control;
  if (signal?.aborted) throw cancelledError();
  if (!shared?.alive) shared = new TaskWorker(engine);
  shared.useEngine(engine);
  const worker = shared;
  const { id, result } = worker.run<T>(task, onProgress);
  // The thread's task stops at its scan's next check and answers CANCELLED: the answer waits for it, so a cancelled
  // read's answer means its work has stopped.
  const cancel = () => {
    if (worker.alive) worker.cancel(id);
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await result;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
