// Saved storage connections put to use. A connection names a URL prefix (a bucket, or a whole store) and the client
// options for the tables under it; its secrets are split off for the state file to encrypt. The app's engine
// settings are made from them (secrets decrypted) at start and again after every change; every read the app starts
// is given them (delta/engine/engine-context.ts): the shared worker and export threads as data, SQL queries on this
// thread as an engine. Nothing here ever puts a secret value into a message or a result.
import type { CatalogConnection, CatalogConnectionInput, StorageConnection, StorageConnectionInput } from '../../shared/api.js';
import { DeltaportError } from '../../shared/errors.js';
import { engineFrom, type EngineContext, type EngineSettings } from '../delta/engine/engine-context.js';
import { DeltaTable } from '../delta/table.js';
import type { AppState } from '../state/app-state.js';
import { savedSecrets } from '../state/connection-table.js';
import type { Storage } from '../storage/storage.js';
import { STORE_OPTIONS, storeOptionProblems, withStoreOptions } from '../storage/store-options.js';
import { catalogAwareOpener } from '../catalog/catalog-tables.js';
import { saveCatalogConnection } from './catalog-connections.js';
import { connectionPrefix } from './storage-connection-rules.js';

/** The app's storage connections and the engine settings made from them, made again after every change, so that a
 * read started after it (a table opened, an export, a query) goes through the connections as saved. */
export class StorageConnections {
  private current: EngineSettings;
  private engine: EngineContext;

  constructor(private readonly state: AppState) {
    this.current = connectionSettings(state);
    this.engine = engineFrom(this.current);
  }

  /** The settings a worker thread makes its engine from. A function property, to be handed to the job runner. */
  readonly settings = (): EngineSettings => this.current;

  /** Opens a table through the connections (SQL queries, which run on this thread), a catalog name through its saved
   * catalog connection. */
  readonly openTable = (tablePath: string): Promise<DeltaTable> => catalogAwareOpener(this.current, this.engine)(tablePath);

  /** The storage that holds a location, through the connections (a Spark job saved to a bucket). */
  readonly storage = (location: string): Storage => this.engine.storage(location);

  save(input: StorageConnectionInput): StorageConnection {
    const saved = saveStorageConnection(this.state, input);
    this.changed();
    return saved;
  }

  delete(name: string): void {
    if (!this.state.storageConnections.delete(name)) throw new DeltaportError('NOT_FOUND', `no storage connection named "${name}"`);
    this.changed();
  }

  saveCatalog(input: CatalogConnectionInput): CatalogConnection {
    const saved = saveCatalogConnection(this.state, input);
    this.changed();
    return saved;
  }

  deleteCatalog(name: string): void {
    if (!this.state.catalogConnections.delete(name)) throw new DeltaportError('NOT_FOUND', `no catalog connection named "${name}"`);
    this.changed();
  }

  private changed(): void {
    this.current = connectionSettings(this.state);
    this.engine = engineFrom(this.current);
  }
}

/** Saves a checked connection: secrets left out keep their saved value, secrets given as '' are dropped. */
function saveStorageConnection(state: AppState, input: StorageConnectionInput): StorageConnection {
  const { prefix, kind } = connectionPrefix(input.prefix);
  const taken = state.storageConnections.list().find((c) => c.prefix === prefix && c.name !== input.name);
  if (taken) throw new DeltaportError('VALIDATION', `the storage connection "${taken.name}" already applies to ${prefix}`);
  const { options, secrets } = savedSecrets(input.options, state.storageConnections.secrets(input.name), STORE_OPTIONS, kind);
  return state.storageConnections.save({ name: input.name, prefix, options, secrets });
}

/** The engine settings of every saved connection (see the file comment). */
function connectionSettings(state: AppState): EngineSettings {
  let storeOptions: EngineSettings['storeOptions'] = [];
  for (const connection of state.storageConnections.list()) {
    const options = { ...connection.options, ...state.storageConnections.secrets(connection.name) };
    // One saved by a Deltaport that knew other options is left out, not allowed to stop the start; saving it again
    // names what is wrong.
    if (storeOptionProblems(options).length > 0) continue;
    // Azure URLs that name their account have a spelling of their own: a whole-store connection covers both.
    for (const prefix of connection.prefix === 'az://' ? ['az://', 'abfss://'] : [connection.prefix]) {
      storeOptions = withStoreOptions(storeOptions, prefix, options);
    }
  }
  const catalogs = state.catalogConnections.list().map((c) => ({
    name: c.name,
    kind: c.kind,
    options: { ...c.options, ...state.catalogConnections.secrets(c.name) },
  }));
  return { storeOptions, catalogs };
}
