// An engine context for one catalog table whose catalog vends short-lived credentials for it (Unity Catalog's
// temporary table credentials): the table's files are read with the credential the catalog gave, asked for again
// before it expires (storage/renewed-credentials.ts), so that a read that outlasts one credential goes on with the
// next. A scan thread started from it is given the current credential and a port on which it asks this thread for
// the next. Everything outside the table's folder is read through the engine it was opened with.
import { parseStoreLocation } from '../../shared/store-location.js';
import type { EngineContext } from '../delta/engine/engine-context.js';
import { renewedCredentials, renewedFolder, renewedStorage } from '../storage/renewed-credentials.js';
import { bucketPrefix, optionsIn, withStoreOptions, type PrefixedStoreOptions, type StoreOptions } from '../storage/store-options.js';

/** A credential as storage options of the table's store, and when it stops working (epoch ms; null: never said). */
export interface VendedCredential {
  options: StoreOptions;
  expiresAtMs: number | null;
}

export function vendedEngine(
  root: string,
  base: EngineContext,
  vend: () => Promise<VendedCredential>,
  now: () => number = Date.now,
): EngineContext {
  const store = parseStoreLocation(root);
  if (!store) return base;
  const bucket = bucketPrefix(store);
  const folder = `${root.replace(/\/+$/, '')}/`;
  const baseOptions = (): PrefixedStoreOptions => base.settings()?.storeOptions ?? [];
  const credentials = renewedCredentials(
    async () => {
      const credential = await vend();
      // The user's settings for the bucket (an endpoint, path-style addressing) stay; the keys are the catalog's.
      const options = withStoreOptions(baseOptions(), bucket, { ...optionsIn(baseOptions(), store), ...credential.options });
      return { options, expiresAtMs: credential.expiresAtMs };
    },
    null,
    now,
  );
  const tableStorage = renewedStorage(credentials);

  return {
    storage: (location) => (`${location}/`.startsWith(folder) ? tableStorage(location) : base.storage(location)),
    settings: () => ({ ...base.settings(), storeOptions: baseOptions(), renewed: [renewedFolder(folder, credentials)] }),
  };
}
