// Entry of a scan thread: decodes and normalizes the snapshot's batches (scan.ts) off the consumer's thread and posts
// them as Arrow IPC streams in transferred buffers. Runs of small batches (deletion vectors cut a file into many)
// travel joined in one record batch. The thread runs at most `readAhead` messages ahead of the consumer, which
// grants one more per message it takes, so memory stays bounded however slow the sink is. Each batch is serialized
// before the next is asked for, and a batch held back is copied, so the scan reuses its buffers (reuseBuffers): new
// ones per decoded piece drove most of the thread's full garbage collections.
import { parentPort, workerData } from 'node:worker_threads';
import { Table, tableToIPC, type RecordBatch } from 'apache-arrow';
import { toErrorValue } from '../../../shared/errors.js';
import { engineFrom } from '../engine/engine-context.js';
import { concatBatches, heldCopy } from '../engine/concat-batches.js';
import type { BatchPart, ScanJob, ScanToConsumer } from './scan-messages.js';
import { scan } from './scan.js';

/** A batch this small is held back to travel with the next ones. */
const SMALL_BATCH_ROWS = 256;

const port = parentPort;
if (!port) throw new Error('scan-worker.ts must run in a worker thread');
const job = workerData as ScanJob;
const engine = engineFrom(job.engine);
let credits = job.readAhead;
let granted: (() => void) | null = null;

port.on('message', () => {
  credits++;
  granted?.();
  granted = null;
});

let held: RecordBatch[] = [];
let heldParts: BatchPart[] = [];
let heldRows = 0;

async function run(): Promise<void> {
  const groupRows = job.options.batchSize ?? SMALL_BATCH_ROWS;
  for await (const { batch, end, bytesDone, filesDone } of scan(job.snapshot, { ...job.options, engine, reuseBuffers: true })) {
    const part = { rows: batch.numRows, end, bytesDone, filesDone };
    if (batch.numRows >= SMALL_BATCH_ROWS) {
      await flush();
      await post([batch], [part]);
      continue;
    }
    // Its rows are in buffers that the scan's next piece overwrites.
    held.push(heldCopy(batch));
    heldParts.push(part);
    heldRows += batch.numRows;
    if (heldRows >= groupRows) await flush();
  }
  await flush();
  port!.postMessage({ type: 'done' } satisfies ScanToConsumer);
}

async function flush(): Promise<void> {
  if (held.length === 0) return;
  const joined = held.length > 1 ? concatBatches(held) : null;
  const batches = joined ? [joined] : held;
  const parts = heldParts;
  held = [];
  heldParts = [];
  heldRows = 0;
  await post(batches, parts);
}

async function post(batches: RecordBatch[], parts: BatchPart[]): Promise<void> {
  while (credits === 0) await new Promise<void>((resolve) => (granted = resolve));
  credits--;
  const ipc = ownBuffer(tableToIPC(new Table(batches), 'stream'));
  port!.postMessage({ type: 'batches', ipc, parts } satisfies ScanToConsumer, [ipc.buffer]);
}

/** A buffer that can be transferred whole: a view into a larger one is copied out first. */
function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice();
}

run().catch((err: unknown) => port.postMessage({ type: 'failed', error: toErrorValue(err) } satisfies ScanToConsumer));
