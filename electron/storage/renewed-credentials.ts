// Storage read with short-lived credentials (a catalog's vended ones), asked for again before they expire, so that a
// read that outlasts one credential goes on with the next. The thread that can ask the catalog renews them itself
// (catalog/vended-engine.ts); another thread (a scan's) is given the current one as data and a MessagePort on which it
// asks that thread for the next, since it holds no catalog client of its own (delta/engine/engine-context.ts).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { DeltaportError, toErrorValue, type ErrorValue } from '../../shared/errors.js';
import type { Storage } from './storage.js';
import type { PrefixedStoreOptions } from './store-options.js';
import { storageResolver } from './store-resolver.js';

/** Store options holding a credential, and when it stops working (epoch ms; null: never said). */
export interface ExpiringOptions {
  options: PrefixedStoreOptions;
  expiresAtMs: number | null;
}

/** A credential is asked for again once this little of its life is left: a request signed with it must still reach
 * the store in time, and a scan thread started with it must get going. */
export const RENEW_BEFORE_MS = 60_000;

/** A folder whose files are read with renewed credentials, as data another thread is given: the credential current
 * when it was given, and the port on which it asks for the next. */
export interface RenewedFolder {
  /** The folder's location, ending in '/'. */
  folder: string;
  current: ExpiringOptions | null;
  renewals: MessagePort;
}

export interface RenewedCredentials {
  /** The options of a credential fresh enough to use now: the current one, or the next one asked for. */
  options(): Promise<PrefixedStoreOptions>;
  /** The credential held now, if any, whatever its age. */
  current(): ExpiringOptions | null;
}

/** Credentials renewed through `renew` before they expire; one renewal at a time, shared by every call waiting. */
export function renewedCredentials(
  renew: () => Promise<ExpiringOptions>,
  first: ExpiringOptions | null = null,
  now: () => number = Date.now,
): RenewedCredentials {
  let current = first;
  let asking: Promise<PrefixedStoreOptions> | null = null;
  const fresh = (c: ExpiringOptions) => c.expiresAtMs === null || c.expiresAtMs - now() > RENEW_BEFORE_MS;
  return {
    options: async () => {
      if (current && fresh(current)) return current.options;
      return (asking ??= renew()
        .then((next) => (current = next).options)
        .finally(() => (asking = null)));
    },
    current: () => current,
  };
}

/** Storage whose every call goes through the credential fresh when it starts. */
export function renewedStorage(credentials: RenewedCredentials): (location: string) => Storage {
  const call = async <T>(location: string, run: (storage: Storage) => Promise<T>): Promise<T> =>
    run(storageResolver(await credentials.options())(location));
  return (location) => ({
    list: (f, startAfter) => call(location, (s) => s.list(f, startAfter)),
    listFolder: (f, options) => call(location, (s) => s.listFolder(f, options)),
    read: (l) => call(location, (s) => s.read(l)),
    readRange: (l, offset, length) => call(location, (s) => s.readRange(l, offset, length)),
    stat: (l) => call(location, (s) => s.stat(l)),
    blob: (l, size) => call(location, (s) => s.blob(l, size)),
    hasFolder: (f) => call(location, (s) => s.hasFolder(f)),
  });
}

type Renewal = { type: 'renewed'; credential: ExpiringOptions } | { type: 'failed'; error: ErrorValue };

/** The folder as data for another thread, answering its requests for a fresh credential from `credentials`. The port
 * does not keep this thread alive, and is closed once the other thread's end is. */
export function renewedFolder(folder: string, credentials: RenewedCredentials): RenewedFolder {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', () => {
    credentials.options().then(
      () => port1.postMessage({ type: 'renewed', credential: credentials.current()! } satisfies Renewal),
      (err: unknown) => port1.postMessage({ type: 'failed', error: toErrorValue(err) } satisfies Renewal),
    );
  });
  port1.on('close', () => port1.close());
  port1.unref();
  return { folder, current: credentials.current(), renewals: port2 };
}

/** In the other thread: the folder's credentials, each next one asked of the thread that gave it. A failure to renew
 * comes back as the error the catalog gave there. The port keeps the thread alive only while an answer is awaited. */
export function renewedFrom(given: RenewedFolder): RenewedCredentials {
  const port = given.renewals;
  port.unref();
  const ask = () =>
    new Promise<ExpiringOptions>((resolve, reject) => {
      port.once('message', (answer: Renewal) => {
        port.unref();
        if (answer.type === 'renewed') resolve(answer.credential);
        else reject(DeltaportError.fromValue(answer.error));
      });
      port.ref();
      port.postMessage(null);
    });
  return renewedCredentials(ask, given.current);
}
