// Entry of a SQLite checkpoint thread: copies committed WAL frames into the database file on a connection of its
// own, so that the writer never waits for a checkpoint's writes and fsyncs (a third of an export's time when the
// writer checkpointed itself). Woken through shared memory (sqlite-checkpointer.ts), it never touches a transaction:
// a PASSIVE checkpoint copies only what is committed and blocks no writer.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../native/sqlite-binding.js';
import { CHECKPOINTS_WANTED, STOP, type CheckpointerData } from './sqlite-checkpointer.js';

const port = parentPort;
if (!port) throw new Error('sqlite-checkpoint-worker.ts must run in a worker thread');
const { path, flags, busyTimeoutMs } = workerData as CheckpointerData;
const state = new Int32Array(flags);

const db = openDatabase(path, { fileMustExist: true, timeout: busyTimeoutMs });
try {
  // Prepared once: a statement per checkpoint would hold its memory until V8 collected its object.
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  let seen = 0;
  while (Atomics.load(state, STOP) === 0) {
    Atomics.wait(state, CHECKPOINTS_WANTED, seen);
    seen = Atomics.load(state, CHECKPOINTS_WANTED);
    if (Atomics.load(state, STOP) === 0) checkpoint.get();
  }
} finally {
  // The last connection to close checkpoints what is left and removes the WAL: normally this one, as the writer
  // stops it after closing its own.
  db.close();
}
