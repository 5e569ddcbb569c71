// One message per cause for every cloud client's failures: which call, on what, and why, in one line.
import { countFetch } from './fetch-counter.js';
import { StorageError, type StorageFailure } from './storage.js';

/** How long one request may stall before the client retries it (storage option timeout_ms overrides). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Attempts per call, the first included: throttling and dropped connections are retried with backoff. */
export const ATTEMPTS = 4;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
]);
const NETWORK_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'AbortError']);

const SAY: Record<StorageFailure, string> = {
  'not-found': 'no such object',
  truncated: 'the object ends before the bytes asked for',
  'no-bucket': 'no such bucket',
  denied: 'access denied',
  expired: 'the credentials have expired',
  unreachable: 'the storage service cannot be reached',
  throttled: 'the storage service kept refusing requests as too many (throttled), after retries',
  'is-folder': 'it is a folder, not a file',
  failed: 'the storage service failed',
};

export interface FailureFacts {
  reason: StorageFailure | null;
  /** The service's own words or code, when they add to the reason. */
  detail?: string;
  /** Whose credentials were refused, when known (an access key id, an account name; never a secret). */
  identity?: string;
  err: unknown;
}

/** A network-level failure (refused, reset, timed out, unresolvable), in any client. */
export function isNetworkFailure(err: unknown): boolean {
  const e = err as { code?: string; name?: string; cause?: unknown };
  return (
    NETWORK_CODES.has(e?.code ?? '') ||
    NETWORK_NAMES.has(e?.name ?? '') ||
    (e?.cause !== undefined && e.cause !== err && isNetworkFailure(e.cause))
  );
}

export function storeFailure(what: string, location: string, facts: FailureFacts): StorageError {
  const reason = facts.reason ?? (isNetworkFailure(facts.err) ? 'unreachable' : 'failed');
  let text = SAY[reason];
  if (reason === 'denied' && facts.identity) text += ` for ${facts.identity}`;
  const detail = facts.detail ?? (reason === 'failed' || reason === 'unreachable' ? firstLine(facts.err) : undefined);
  return new StorageError(reason, `cannot ${what} ${location}: ${text}${detail ? ` (${detail})` : ''}`);
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.split('\n')[0].slice(0, 200);
}

/** The bytes a read fetched, counted; a ranged read that came back short fails: the object is smaller than the
 * caller (its log, its footer) says. */
export function received(location: string, bytes: Uint8Array, length: number | undefined): Uint8Array {
  countFetch(bytes.length);
  if (length !== undefined && bytes.length !== length) {
    throw new StorageError('truncated', `cannot read ${location}: ${SAY.truncated} (got ${bytes.length} of ${length} bytes)`);
  }
  return bytes;
}

/** One read's bytes, sent again whole when its body is cut or stalls after the response's headers: every client
 * retries a request only until its headers arrive. `send` is one request (its client's own retries included), `body`
 * reads that response's bytes; ATTEMPTS bodies in all. */
export async function wholeBody<R>(send: () => Promise<R>, body: (response: R) => Promise<Uint8Array>): Promise<Uint8Array> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    try {
      return await body(response);
    } catch (err) {
      if (attempt >= ATTEMPTS || !isNetworkFailure(err)) throw err;
    }
  }
}

/** Runs one client call: a failure other than our own leaves as the StorageError made of what `classify` finds. */
export async function storeCall<T>(
  what: string,
  location: string,
  run: () => Promise<T>,
  classify: (err: unknown) => Promise<Omit<FailureFacts, 'err'>>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof StorageError) throw err;
    throw storeFailure(what, location, { ...(await classify(err)), err });
  }
}

/** The reason an HTTP status gives where the service's own error code said nothing known. */
export function statusReason(status: number | undefined): StorageFailure | null {
  if (status === 404) return 'not-found';
  if (status === 401 || status === 403) return 'denied';
  if (status === 429 || status === 503) return 'throttled';
  return null;
}
