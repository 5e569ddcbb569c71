// An engine context for one catalog table whose catalog vends short-lived credentials for it (Unity Catalog's
// temporary table credentials): the table's files are read with the credential the catalog gave, asked for again
// before it expires, so that a read that outlasts one credential goes on with the next. Everything
// outside the table's folder is read through the engine it was opened with.
import { parseStoreLocation, storeUrl } from '../../shared/store-location.js';
import type { EngineContext } from '../delta/engine/engine-context.js';
import type { Storage } from '../storage/storage.js';
import { optionsIn, withStoreOptions, type PrefixedStoreOptions, type StoreOptions } from '../storage/store-options.js';
import { storageResolver } from '../storage/store-resolver.js';

/** A credential as storage options of the table's store, and when it stops working (epoch ms; null: never said). */
export interface VendedCredential {
  options: StoreOptions;
  expiresAtMs: number | null;
}

/** A credential is asked for again once this little of its life is left: a request signed with it must still reach
 * the store in time, and a scan thread started with it must get going. */
export const RENEW_BEFORE_MS = 60_000;

export function vendedEngine(
  root: string,
  base: EngineContext,
  vend: () => Promise<VendedCredential>,
  now: () => number = Date.now,
): EngineContext {
  const store = parseStoreLocation(root);
  if (!store) return base;
  const bucket = `${storeUrl({ ...store, key: '' })}/`;
  const folder = `${root.replace(/\/+$/, '')}/`;
  const baseOptions = (): PrefixedStoreOptions => base.settings()?.storeOptions ?? [];
  let current: { credential: VendedCredential; options: PrefixedStoreOptions } | null = null;
  let asking: Promise<PrefixedStoreOptions> | null = null;

  const fresh = (c: VendedCredential) => c.expiresAtMs === null || c.expiresAtMs - now() > RENEW_BEFORE_MS;
  const renew = (): Promise<PrefixedStoreOptions> =>
    (asking ??= vend()
      .then((credential) => {
        // The user's settings for the bucket (an endpoint, path-style addressing) stay; the keys are the catalog's.
        const options = withStoreOptions(baseOptions(), bucket, { ...optionsIn(baseOptions(), store), ...credential.options });
        current = { credential, options };
        return options;
      })
      .finally(() => (asking = null)));
  const options = async (): Promise<PrefixedStoreOptions> => (current && fresh(current.credential) ? current.options : renew());

  // Each call goes through the credential current when it starts.
  const call = async <T>(run: (storage: Storage) => Promise<T>, location: string): Promise<T> =>
    run(storageResolver(await options())(location));
  const tableStorage = (location: string): Storage => ({
    list: (f, startAfter) => call((s) => s.list(f, startAfter), location),
    listFolder: (f, options) => call((s) => s.listFolder(f, options), location),
    read: (l) => call((s) => s.read(l), location),
    readRange: (l, offset, length) => call((s) => s.readRange(l, offset, length), location),
    stat: (l) => call((s) => s.stat(l), location),
    blob: (l, size) => call((s) => s.blob(l, size), location),
    hasFolder: (f) => call((s) => s.hasFolder(f), location),
  });

  return {
    storage: (location) => (`${location}/`.startsWith(folder) ? tableStorage(location) : base.storage(location)),
    // Another thread (a scan's) is given the credential current now, as data: it cannot ask the catalog for the next.
    settings: () => ({ storeOptions: current?.options ?? baseOptions() }),
  };
}
