// A database session's exchanges with its server, as the network sinks (PostgreSQL, MySQL) bound and track them: a
// statement timeout that drops the connection, and a liveness check that asks nothing of a server that just answered.
import { DeltaportError } from '../../shared/errors.js';

/** A connection that answered this recently needs no check before it is used again. */
const RECENTLY_ALIVE_MS = 1000;

export interface ServerExchanges {
  /** `work` (one exchange with the server), remembered as an answer when it ends well. */
  answered: <T>(work: Promise<T>) => Promise<T>;
  /** `work`, bounded by the timeout but not counted as an answer (the connection's end). */
  bounded: <T>(work: Promise<T>) => Promise<T>;
  /** Whether the server answered lately, or answers `SELECT 1` through `query` now. */
  alive: (query: (sql: string) => Promise<unknown>) => Promise<boolean>;
}

/**
 * The exchanges of one session with `server` (its name in messages): each must be answered within `timeoutMs`, or
 * `drop` ends the connection and the error is a lost connection's, which the sink retries.
 */
export function serverExchanges(server: string, timeoutMs: number, drop: () => void): ServerExchanges {
  let answeredAt = Number.NEGATIVE_INFINITY;
  const bounded = <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        drop();
        reject(new DeltaportError('SINK_CONNECTION', `${server} did not answer within ${timeoutMs / 1000} s (statement timeout)`));
      }, timeoutMs);
    });
    // Once timed out, the exchange's own failure (the dropped connection) has no one left to tell.
    work.catch(() => undefined);
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  };
  return {
    async answered(work) {
      const result = await bounded(work);
      answeredAt = performance.now();
      return result;
    },
    bounded,
    async alive(query) {
      if (performance.now() - answeredAt < RECENTLY_ALIVE_MS) return true;
      try {
        await query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
  };
}
