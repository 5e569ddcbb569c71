// The SQLite sink: one transaction per batch, whose rows are written as a database image of their own
// (sqlite-image.ts), attached, and copied into the target with one INSERT ... SELECT. Mode 'sql' runs the user's
// statement once per row.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { RecordBatch } from 'apache-arrow';
import type Database from 'better-sqlite3';
import type { SinkSpec } from '../../shared/sink-spec.js';
import { parseNamedParams, toPositional } from '../../shared/sql-params.js';
import { isNullAt } from '../delta/engine/arrow-buffers.js';
import { sqliteReader } from './column-values.js';
import { databaseFileSink } from './database-file-sink.js';
import {
  alreadyRunning,
  claimSqliteLease,
  liveLeaseIn,
  releaseProcessLeases,
  releaseSqliteLease,
  RENEW_LEASE_SQL,
  RUNS_TABLE,
} from './job-claim.js';
import type { BatchSink } from './sink.js';
import { createSqlSink, type SqlSession, type WriteTarget } from './sql-sink.js';
import { quoteName } from '../../shared/sql-quote.js';
import { startCheckpointer, type Checkpointer } from './sqlite-checkpointer.js';
import { ImageInserter, removeLeftImages } from './sqlite-image-inserter.js';
import { BUSY_TIMEOUT_MS, describeSqliteTable, openSqlite, sizePageCache, sqliteMessage, statementCache } from './sqlite-connection.js';

export function createSqliteSink(spec: Extract<SinkSpec, { kind: 'sqlite' }>): BatchSink {
  /** The ends of the sessions' checkpoint threads (each removes the WAL as the last connection out). */
  const stopped: Promise<void>[] = [];
  const sink = createSqlSink(spec, {
    dialect: 'sqlite',
    connect: async () => sqliteSession(spec.path, stopped),
    checkBeforeReuse: false,
    explain: sqliteMessage,
  });
  return databaseFileSink(spec.path, sink, {
    // The connections close with their sessions.
    release: async () => undefined,
    removeCreated: async () => {
      await Promise.all(stopped);
      await removeUnlessUsed(spec.path);
    },
  });
}

/** Removes a database file this export created, with its -wal and -shm, unless a table in it holds a row or a live
 * run holds a lease in it: another export may have written into it meanwhile, or be writing now. */
async function removeUnlessUsed(path: string): Promise<void> {
  if (existsSync(path)) {
    const db = openSqlite(path);
    try {
      // A lease is no row of an export, but a live run's says that the run writes here.
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> ?").pluck().all(RUNS_TABLE) as string[];
      if (
        liveLeaseIn(db) ||
        tables.some(
          (t) =>
            db
              .prepare(`SELECT EXISTS (SELECT 1 FROM ${quoteName(t)})`)
              .pluck()
              .get() === 1,
        )
      )
        return;
    } finally {
      db.close();
    }
  }
  await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(path + suffix, { force: true })));
}

/** Gives up the leases this process holds in the file at `path` (see releaseProcessLeases). */
export async function releaseLeftLeases(path: string): Promise<void> {
  // No file, no lease: opening it would create it (an export that failed before any commit removed it).
  if (!existsSync(path)) return;
  const session = sqliteSession(path);
  try {
    await releaseProcessLeases(session.query);
  } finally {
    await session.close();
  }
}

/** Writes one transaction's rows. */
type RowWriter = (chunks: RecordBatch[]) => void;

/** A session on the file at `path`; the end of its checkpoint thread, once it stops, is added to `stopped`. */
function sqliteSession(path: string, stopped: Promise<void>[] = []): SqlSession {
  const db = openSqlite(path);
  // As a connection folds a killed run's WAL into the file, the session removes its rows' image.
  removeLeftImages();
  let checkpointer: Checkpointer | null = null;
  let writeRows: RowWriter = () => {
    throw new Error('the SQLite session was not prepared');
  };
  let inserter: ImageInserter | null = null;
  const prepared = statementCache(db);
  const openedCache = db.pragma('cache_size', { simple: true }) as number;
  const query = async (sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> => {
    const statement = prepared(sql);
    if (statement.reader) return statement.all(params) as Record<string, unknown>[];
    statement.run(params);
    return [];
  };
  /** The job and run whose lease each transaction renews, once claimed. */
  let lease: [string, string] | null = null;
  return {
    query,
    async begin() {
      inserter?.detach();
      await query('BEGIN');
      // A lease that is no longer this run's (taken over as left behind) means another run writes now: stop.
      if (lease && prepared(RENEW_LEASE_SQL).run(Date.now(), ...lease).changes !== 1) throw alreadyRunning(null);
    },
    async commit() {
      await query('COMMIT');
      inserter?.detach();
    },
    // A COMMIT here returns or throws before anything else happens: its outcome is never in doubt.
    unsettledCommit: () => null,
    committed: async () => false,
    backend: null,
    endBackend: async () => undefined,
    async claim(job, owner) {
      await claimSqliteLease(query, job, owner);
      lease = [job, owner.id];
    },
    release: (job, owner) => releaseSqliteLease(query, job, owner),
    async describe(table) {
      return describeSqliteTable(db, table);
    },
    async prepare(target) {
      // A set-up retried on the same session prepares it again.
      inserter?.remove();
      const images = target.spec.mode === 'sql' ? null : new ImageInserter(db, prepared, target);
      if (images) sizePageCache(db, target.table, openedCache);
      inserter = images;
      writeRows = images ? (chunks) => images.write(chunks) : statementWriter(db, target);
      checkpointer ??= startCheckpointer(db, BUSY_TIMEOUT_MS);
    },
    async writeRows(chunks) {
      // Every transaction before this one has committed.
      checkpointer?.request();
      writeRows(chunks);
    },
    async ping() {
      return db.open;
    },
    async close() {
      db.close();
      inserter?.remove();
      if (checkpointer) stopped.push(checkpointer.stop());
      await Promise.all(stopped);
    },
    kill() {
      if (db.open) db.close();
      inserter?.remove();
      if (checkpointer) stopped.push(checkpointer.stop());
    },
  };
}

/** Column readers for one batch: whether row i is null, and its bind value. */
function columnsOf(batch: RecordBatch, target: WriteTarget) {
  const columns = batch.data.children;
  return target.fields.map((field, c) => ({ isNull: isNullAt(columns[c]), read: sqliteReader(columns[c], field) }));
}

/** Mode 'sql': the user's statement, run once per row with its :column parameters bound. */
function statementWriter(db: Database.Database, target: WriteTarget): RowWriter {
  const sql = target.spec.sql!;
  const named = parseNamedParams(sql);
  const positional = toPositional(sql, named, '?');
  const statement = db.prepare(positional.sql);
  const sources = positional.order.map((n) => target.fields.findIndex((f) => f.name === named.names[n]));
  const params: unknown[] = new Array(sources.length);
  return (chunks) => {
    for (const batch of chunks) {
      const columns = columnsOf(batch, target);
      for (let r = 0; r < batch.numRows; r++) {
        for (let p = 0; p < sources.length; p++) {
          const { isNull, read } = columns[sources[p]];
          params[p] = isNull(r) ? null : read(r);
        }
        statement.run(params);
      }
    }
  };
}
