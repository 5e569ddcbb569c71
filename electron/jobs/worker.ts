// Entry of a task worker thread: runs each task it is sent, off the main thread. A 'cancel' aborts that task's
// signal; the engine stops at its next batch and the sink rolls back. Progress is posted at most every
// PROGRESS_INTERVAL_MS per task, so a fast export does not flood the main thread; the last counters are posted within
// that interval too, so a task that stalls (a store that does not answer) shows how far it really came.
import { parentPort, workerData } from 'node:worker_threads';
import { cancelledError, DeltaportError, toErrorValue } from '../../shared/errors.js';
import { catalogAwareTables } from '../catalog/catalog-tables.js';
import type { RawProgress } from './progress.js';
import { runTask } from './tasks.js';
import type { FromWorker, ToWorker, WorkerStart, WorkerTask } from './worker-protocol.js';

const PROGRESS_INTERVAL_MS = 100;

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');
const post = (message: FromWorker) => port.postMessage(message);
const running = new Map<number, AbortController>();
/** The tables this thread opened, through the engine its parent's settings make. New settings start a new cache:
 * the tables opened after them read through them, as the app's tables do once a connection is edited. */
let tables = catalogAwareTables((workerData as WorkerStart).engine);

port.on('message', (message: ToWorker) => {
  if (message.type === 'cancel') running.get(message.id)?.abort();
  else if (message.type === 'engine') tables = catalogAwareTables(message.settings);
  else void run(message.id, message.task);
});

async function run(id: number, task: WorkerTask): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  let lastPost = 0;
  let pending: RawProgress | null = null;
  let later: NodeJS.Timeout | undefined;
  const flush = (now = Date.now()) => {
    clearTimeout(later);
    later = undefined;
    if (!pending) return;
    post({ type: 'progress', id, progress: pending });
    pending = null;
    lastPost = now;
  };
  const onProgress = (progress: RawProgress) => {
    pending = progress;
    const now = Date.now();
    if (now - lastPost >= PROGRESS_INTERVAL_MS) flush(now);
    else later ??= setTimeout(flush, PROGRESS_INTERVAL_MS - (now - lastPost));
  };
  try {
    const value = await runTask(tables, task, controller.signal, onProgress);
    flush();
    post({ type: 'done', id, value });
  } catch (err) {
    flush();
    // A cancel's own message (how many rows stayed committed) is kept; anything else a cancel caused is the cancel.
    const own = err instanceof DeltaportError && err.code === 'CANCELLED';
    const error = controller.signal.aborted && !own ? cancelledError() : err;
    post({ type: 'failed', id, error: toErrorValue(error) });
  } finally {
    running.delete(id);
  }
}
