// Checkpoints a writer's WAL from a thread of its own (sqlite-checkpoint-worker.ts) instead of in the writer's
// COMMITs. The writer asks for a checkpoint after committing; asking costs an atomic add, and requests that arrive
// while a checkpoint runs are served by the next one.
import type Database from 'better-sqlite3';
import { startWorker } from '../threads/start-worker.js';

/** Int32 slots of the shared flags: a request counter and the stop flag. */
export const CHECKPOINTS_WANTED = 0;
export const STOP = 1;

export interface CheckpointerData {
  path: string;
  flags: SharedArrayBuffer;
  busyTimeoutMs: number;
}

export interface Checkpointer {
  /** Commits have landed since the last request. */
  request(): void;
  /** Ends the thread once its connection is closed (the WAL checkpointed and removed, if it was the last one). */
  stop(): Promise<void>;
}

/** SQLite's own default, restored when the thread fails so that the WAL stays bounded. */
const AUTOCHECKPOINT_PAGES = 1000;

/** A checkpoint thread for `db`, or null when the database does not use a WAL. */
export function startCheckpointer(db: Database.Database, busyTimeoutMs: number): Checkpointer | null {
  if (db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal') return null;
  const flags = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const state = new Int32Array(flags);
  const data: CheckpointerData = { path: db.name, flags, busyTimeoutMs };
  const worker = startWorker('sinks/sqlite-checkpoint-worker', { workerData: data });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // A thread that cannot open the file leaves checkpoints to the writer again; the export goes on either way.
  worker.once('error', () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  });
  db.pragma('wal_autocheckpoint = 0');
  const wake = () => {
    Atomics.add(state, CHECKPOINTS_WANTED, 1);
    Atomics.notify(state, CHECKPOINTS_WANTED);
  };
  return {
    request: wake,
    stop() {
      Atomics.store(state, STOP, 1);
      wake();
      return exited;
    },
  };
}
