// What the consumer and a scan thread (scan-worker.ts) say to each other.
import type { EngineSettings } from '../engine/engine-context.js';
import type { ErrorValue } from '../../../shared/errors.js';
import type { ScanOptions, ScanPosition } from './scan-types.js';
import type { Snapshot } from '../snapshot.js';

/** The thread's workerData. The consumer grants one more message by posting any message. */
export interface ScanJob {
  snapshot: Snapshot;
  options: Omit<ScanOptions, 'signal' | 'engine'>;
  /** Messages the thread may post before the consumer has taken any. */
  readAhead: number;
  /** The starting thread's engine as data: the scan thread makes the same engine, with clients of its own. */
  engine: EngineSettings;
}

/** One ScanBatch of a message, without its rows: those are the next `rows` rows of the message's record batches. */
export interface BatchPart {
  rows: number;
  end: ScanPosition;
  bytesDone: number;
  filesDone: number;
}

export type ScanToConsumer =
  /** An Arrow IPC stream whose record batches hold the parts' rows in order, never splitting a part. */
  { type: 'batches'; ipc: Uint8Array; parts: BatchPart[] } | { type: 'done' } | { type: 'failed'; error: ErrorValue };
