// Entry of a job's worker thread. A 'cancel' message aborts the task's signal; the engine then stops at its next
// batch and the sink rolls back. Progress is posted at most every PROGRESS_INTERVAL_MS (plus the last one), so a
// fast export does not flood the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { DeltaportError, toErrorValue } from '../../shared/errors.js';
import type { RawProgress } from './progress.js';
import { exportTask, planTask, previewTask } from './tasks.js';
import type { FromWorker, ToWorker, WorkerTask } from './worker-protocol.js';

const PROGRESS_INTERVAL_MS = 100;

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');
const post = (message: FromWorker) => port.postMessage(message);

const controller = new AbortController();
port.on('message', (message: ToWorker) => {
  if (message.type === 'cancel') controller.abort();
});

let lastPost = 0;
let pending: RawProgress | null = null;
function onProgress(progress: RawProgress): void {
  pending = progress;
  const now = Date.now();
  if (now - lastPost >= PROGRESS_INTERVAL_MS) flushProgress(now);
}
function flushProgress(now = Date.now()): void {
  if (!pending) return;
  post({ type: 'progress', progress: pending });
  pending = null;
  lastPost = now;
}

const task = workerData as WorkerTask;
try {
  const value =
    task.kind === 'export'
      ? await exportTask(task.request, controller.signal, onProgress)
      : task.kind === 'plan'
        ? await planTask(task.request)
        : await previewTask(task.request, controller.signal);
  flushProgress();
  post({ type: 'done', value });
} catch (err) {
  flushProgress();
  const error = controller.signal.aborted ? new DeltaportError('CANCELLED', 'cancelled') : err;
  post({ type: 'failed', error: toErrorValue(error) });
}
