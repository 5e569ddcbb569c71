// The engine context, as delta-kernel-rs passes an Engine into every read: where a table's files are read from (a
// storage resolver) and the settings that made it. A read is given one (DeltaTable.open, the source builder, a
// scan's options) and never looks storage up by itself; a scan thread is given the settings as data and makes the
// same engine there (engineFrom). A test reads a table from an in-memory store by giving a resolver of its own.
import type { CatalogKind } from '../../../shared/catalog-name.js';
import type { Storage } from '../../storage/storage.js';
import { storageResolver } from '../../storage/store-resolver.js';
import type { PrefixedStoreOptions } from '../../storage/store-options.js';

/** What another thread makes an engine from: plain data. */
export interface EngineSettings {
  storeOptions: PrefixedStoreOptions;
  /** The app's saved catalog connections, secrets included: a thread given them resolves a table named through one
   * (uc://<name>/…, glue://<name>/…) itself and asks its catalog for each new credential (catalog/catalog-tables.ts). */
  catalogs?: SavedCatalog[];
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
  return { storage, settings: () => settings };
}
