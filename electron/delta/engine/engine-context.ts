// The engine context, as delta-kernel-rs passes an Engine into every read: where a table's files are read from (a
// storage resolver) and the settings that made it. A read is given one (DeltaTable.open, the source builder, a
// scan's options) and never looks storage up by itself; a scan thread is given the settings as data and makes the
// same engine there (engineFrom). A test reads a table from an in-memory store by giving a resolver of its own.
import type { CatalogKind } from '../../../shared/catalog-name.js';
import { renewedFolder, renewedFrom, renewedStorage, type RenewedFolder } from '../../storage/renewed-credentials.js';
import type { Storage } from '../../storage/storage.js';
import { storageResolver } from '../../storage/store-resolver.js';
import type { PrefixedStoreOptions } from '../../storage/store-options.js';

/** What another thread makes an engine from: plain data. */
export interface EngineSettings {
  storeOptions: PrefixedStoreOptions;
  /** The app's saved catalog connections, secrets included: a thread given them resolves a table named through one
   * (uc://<name>/…, glue://<name>/…) itself and asks its catalog for each new credential (catalog/catalog-tables.ts). */
  catalogs?: SavedCatalog[];
  /** Folders read with short-lived credentials that the starting thread renews (a catalog's vended ones): this
   * thread asks it for each next one (storage/renewed-credentials.ts). Their ports go in the thread's transferList. */
  renewed?: RenewedFolder[];
}

export interface SavedCatalog {
  name: string;
  kind: CatalogKind;
  options: Record<string, string>;
}

export interface EngineContext {
  /** The storage that holds a location. */
  storage(location: string): Storage;
  /** The settings another thread makes the same engine from; null for one that cannot leave its thread (a store in
   * this thread's memory). */
  settings(): EngineSettings | null;
}

export function engineFrom(settings: EngineSettings): EngineContext {
  const storage = storageResolver(settings.storeOptions);
  if (!settings.renewed?.length) return { storage, settings: () => settings };
  const renewed = settings.renewed.map((r) => {
    const credentials = renewedFrom(r);
    return { folder: r.folder, credentials, storage: renewedStorage(credentials) };
  });
  return {
    storage: (location) => (renewed.find((r) => `${location}/`.startsWith(r.folder))?.storage ?? storage)(location),
    // A thread started from this one asks this one, which asks its own starter: each port is given once.
    settings: () => ({ ...settings, renewed: renewed.map((r) => renewedFolder(r.folder, r.credentials)) }),
  };
}
