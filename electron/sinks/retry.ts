// Which failures are worth retrying, and how long to wait. Only errors that say nothing about the data qualify: a
// lost or reset connection, a server shutting down, a serialization failure or deadlock (PostgreSQL's or MySQL's), a
// busy or locked SQLite file. Data and constraint errors would fail the same way again.
import { cancelledError, DeltaportError } from '../../shared/errors.js';

const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '57P01', '57P02', '57P03', '53300']);
const TRANSIENT_NODE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** mysql2's codes for a lost connection, a deadlock or lock wait, and a server shutting down or ending the session. */
const TRANSIENT_MYSQL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_NET_READ_ERROR',
  'ER_NET_READ_INTERRUPTED',
  'ER_NET_ERROR_ON_WRITE',
  'ER_CON_COUNT_ERROR',
]);
const LOST_CONNECTION =
  /connection terminated|connection error|not queryable|server closed the connection|socket hang up|connection is in closed state|connection lost/i;

export function isTransient(err: unknown): boolean {
  if (err instanceof DeltaportError) return err.code === 'SINK_CONNECTION';
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (TRANSIENT_SQLSTATES.has(code) || /^08/.test(code)) return true;
    if (TRANSIENT_NODE_CODES.has(code) || TRANSIENT_MYSQL_CODES.has(code)) return true;
    if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return true;
  }
  return err instanceof Error && LOST_CONNECTION.test(err.message);
}

/** Waits, unless the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function cancelled(): DeltaportError {
  return cancelledError('export');
}
