// What the sinks into a database file (SQLite, DuckDB) add around the SQL sink pipeline: the file's folder must exist,
// and an export that created the file and then failed without committing a row leaves no file behind.
import { existsSync } from 'node:fs';
import { DeltaportError } from '../../shared/errors.js';
import { requireOutputFolder } from './output-folder.js';
import type { BatchSink } from './sink.js';

export interface DatabaseFile {
  /** Gives the database up once the export is done (closed or aborted). */
  release: () => Promise<void>;
  /** Removes the file (and its companions) this export created; called only when nothing was committed. */
  removeCreated: () => Promise<void>;
}

/** `sink` (a SQL sink writing into the database file at `path`), with the file's checks and clean-up. */
export function databaseFileSink(path: string, sink: BatchSink, file: DatabaseFile): BatchSink {
  /** Whether this export created the database file (it did not exist when the export opened). */
  let created = false;
  /** Runs started at once may each find no file: one refused because another run holds the file (SINK_BUSY) leaves
   * it to that run, which writes into it. */
  const refusedIfBusy = (err: unknown): never => {
    if (err instanceof DeltaportError && err.code === 'SINK_BUSY') created = false;
    throw err;
  };
  return {
    open(ctx) {
      requireOutputFolder(path);
      created = !existsSync(path);
      return sink.open(ctx).catch(refusedIfBusy);
    },
    write: (batch) => sink.write(batch).catch(refusedIfBusy),
    takesReusedBuffers: sink.takesReusedBuffers,
    async close() {
      try {
        await sink.close().catch(refusedIfBusy);
      } finally {
        await file.release();
      }
    },
    counts: () => sink.counts!(),
    readsOwnFiles: () => sink.readsOwnFiles?.() ?? null,
    async abort() {
      await sink.abort();
      await file.release();
      // Committed transactions stay, and with them the file.
      if (created && sink.counts!().committed === 0) await file.removeCreated();
    },
  };
}
