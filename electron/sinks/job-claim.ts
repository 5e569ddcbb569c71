// A job owns its target while it writes: a second run of the same job (same snapshot, columns, target and mode; see
// jobKey) stops at once, naming the run that holds it, instead of writing the same rows a second time beside it.
// PostgreSQL holds the claim as an advisory lock of the writer's session (it ends with the session, also when the
// process is killed); SQLite, which has no such lock, as a lease row that names the process, taken over once that
// process no longer runs. A lease of this very process (another export thread, perhaps one that was terminated) is
// renewed with every transaction and taken over once it has not been for LEASE_IDLE_MS.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { DeltaportError } from '../../shared/errors.js';
import { processRuns } from './process-runs.js';
import { quoteName } from '../../shared/sql-quote.js';

/** This run: which process, since when. */
export interface RunOwner {
  id: string;
  pid: number;
  since: string;
}

export function newRun(): RunOwner {
  return { id: randomUUID(), pid: process.pid, since: `${new Date().toISOString().slice(0, 19)}Z` };
}

/** How a PostgreSQL writer names itself in pg_stat_activity, so that another run can say who holds the job. */
export function ownerLabel(owner: RunOwner): string {
  return `deltaport: process ${owner.pid} since ${owner.since}`;
}

export function alreadyRunning(holder: { pid: number; since: string } | string | null): DeltaportError {
  const who =
    typeof holder === 'string'
      ? (/^deltaport: (process \d+ since \S+)$/.exec(holder)?.[1] ?? `another session (${holder || 'unnamed'})`)
      : holder
        ? `process ${holder.pid} since ${holder.since}`
        : 'another session';
  return new DeltaportError('SINK_BUSY', `this export is already running in ${who}`);
}

/** The two int4 keys of the job's advisory lock (from its hex key; below 2^31 each, so they read the same as oids). */
export function advisoryKeys(job: string): [number, number] {
  return [parseInt(job.slice(0, 7), 16), parseInt(job.slice(7, 14), 16)];
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** The leases of the runs writing into a SQLite file now. */
export const RUNS_TABLE = '_deltaport_runs';
const RUNS = quoteName(RUNS_TABLE);
/** Whether the file has the lease table (n > 0): a file no run has claimed has none. */
const RUNS_EXIST_SQL = `SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = '${RUNS_TABLE}'`;
/** How long a lease of this process may go without a transaction before it counts as left behind. */
const LEASE_IDLE_MS = 60_000;

/** Renews the lease; runs inside each of the job's transactions. Params: now, job, run id. */
export const RENEW_LEASE_SQL = `UPDATE ${RUNS} SET renewed_at = ? WHERE job_key = ? AND run_id = ?`;

/** Takes the job's lease in a SQLite target, or throws SINK_BUSY when a live process holds it. */
export async function claimSqliteLease(query: Query, job: string, owner: RunOwner): Promise<void> {
  await query('BEGIN IMMEDIATE');
  try {
    await query(
      `CREATE TABLE IF NOT EXISTS ${RUNS} (job_key TEXT PRIMARY KEY, run_id TEXT NOT NULL, pid INTEGER NOT NULL, since TEXT NOT NULL, renewed_at INTEGER NOT NULL)`,
    );
    const [held] = await query(`SELECT run_id, pid, since, renewed_at FROM ${RUNS} WHERE job_key = ?`, [job]);
    if (held && held.run_id !== owner.id && stillHeld(Number(held.pid), Number(held.renewed_at)))
      throw alreadyRunning({ pid: Number(held.pid), since: String(held.since) });
    await query(
      `INSERT INTO ${RUNS} (job_key, run_id, pid, since, renewed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (job_key) DO UPDATE SET run_id = excluded.run_id, pid = excluded.pid, since = excluded.since, renewed_at = excluded.renewed_at`,
      [job, owner.id, owner.pid, owner.since, Date.now()],
    );
    await query('COMMIT');
  } catch (err) {
    await query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Gives the lease up; the last one out removes the table, so a finished export leaves only its own tables. */
export async function releaseSqliteLease(query: Query, job: string, owner: RunOwner): Promise<void> {
  await query('BEGIN IMMEDIATE');
  try {
    const [exists] = await query(RUNS_EXIST_SQL);
    if (Number(exists.n) > 0) {
      await query(`DELETE FROM ${RUNS} WHERE job_key = ? AND run_id = ?`, [job, owner.id]);
      const [left] = await query(`SELECT count(*) AS n FROM ${RUNS}`);
      if (Number(left.n) === 0) await query(`DROP TABLE ${RUNS}`);
    }
    await query('COMMIT');
  } catch (err) {
    await query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Whether a run that still runs holds a lease in the SQLite file of `db`: that run writes into the file. */
export function liveLeaseIn(db: Database.Database): boolean {
  if (Number((db.prepare(RUNS_EXIST_SQL).get() as { n: number }).n) === 0) return false;
  const leases = db.prepare(`SELECT pid, renewed_at FROM ${RUNS}`).all() as { pid: number; renewed_at: number }[];
  return leases.some((lease) => stillHeld(Number(lease.pid), Number(lease.renewed_at)));
}

function stillHeld(pid: number, renewedAt: number): boolean {
  return pid === process.pid ? Date.now() - renewedAt < LEASE_IDLE_MS : processRuns(pid);
}

/** Removes the leases this process holds in a SQLite target, for when none of its export threads still writes
 * there (one that was terminated could not give its lease up). */
export async function releaseProcessLeases(query: Query): Promise<void> {
  const [exists] = await query(RUNS_EXIST_SQL);
  if (Number(exists.n) > 0) await query(`DELETE FROM ${RUNS} WHERE pid = ?`, [process.pid]);
}
