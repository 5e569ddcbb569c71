// Runs one task in its own worker thread and settles with its value or its error. Cancel asks the worker to abort;
// if it has not stopped within the grace period, the thread is terminated so that a cancel always takes effect.
// The built app runs worker.js directly. Under vitest the sources are .ts: Node 20 does not apply an --import'ed
// loader to a worker's entry, so a small bootstrap loads worker.ts through tsx's tsImport instead.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DeltaportError } from '../../shared/errors.js';
import type { RawProgress } from './progress.js';
import type { FromWorker, ToWorker, WorkerTask } from './worker-protocol.js';

const ownExtension = path.extname(fileURLToPath(import.meta.url));
const WORKER_URL = new URL(`./worker${ownExtension}`, import.meta.url);

/** Leaves room within the one-second promise for the terminate itself. */
export const CANCEL_GRACE_MS = 700;

export interface TaskHandle<T> {
  result: Promise<T>;
  cancel(): void;
}

export function startTask<T>(task: WorkerTask, onProgress?: (progress: RawProgress) => void): TaskHandle<T> {
  const worker =
    ownExtension === '.ts'
      ? new Worker(`import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(WORKER_URL.href)}, ${JSON.stringify(import.meta.url)}))`, {
          eval: true,
          workerData: task,
        })
      : new Worker(WORKER_URL, { workerData: task });
  let settled = false;
  let cancelTimer: NodeJS.Timeout | undefined;
  let settle: { resolve: (v: T) => void; reject: (e: unknown) => void };
  const result = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));

  const finish = (outcome: { value: T } | { error: DeltaportError }): void => {
    if (settled) return;
    settled = true;
    clearTimeout(cancelTimer);
    void worker.terminate();
    if ('error' in outcome) settle.reject(outcome.error);
    else settle.resolve(outcome.value);
  };

  worker.on('message', (message: FromWorker) => {
    if (message.type === 'progress') onProgress?.(message.progress);
    else if (message.type === 'done') finish({ value: message.value as T });
    else finish({ error: new DeltaportError(message.error.code, message.error.message) });
  });
  worker.on('error', (err) => finish({ error: new DeltaportError('INTERNAL', `worker failed: ${err.message.split('\n')[0]}`) }));
  worker.on('exit', () => finish({ error: new DeltaportError('INTERNAL', 'the worker stopped before finishing its task') }));

  return {
    result,
    cancel() {
      if (settled || cancelTimer) return;
      worker.postMessage({ type: 'cancel' } satisfies ToWorker);
      cancelTimer = setTimeout(() => finish({ error: new DeltaportError('CANCELLED', 'cancelled') }), CANCEL_GRACE_MS);
    },
  };
}
