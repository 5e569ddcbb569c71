// Saved storage connections put to use. A connection names a URL prefix (a bucket, or a whole store) and the client
// options for the tables under it; its secrets are split off for the state file to encrypt. After every change, and
// at start, each connection is registered (secrets decrypted) on this thread and on the shared worker thread; export
// threads take the set when they start. Nothing here ever puts a secret value into a message or a result.
import type { StorageConnection, StorageConnectionInput } from '../../shared/api.js';
import { DeltaportError } from '../../shared/errors.js';
import { shareStoreOptions } from '../jobs/task-worker.js';
import type { AppState } from '../state/app-state.js';
import { registerStoreOptions, STORE_OPTIONS, storeOptionProblems, type StoreOptions } from '../storage/store-options.js';
import { connectionPrefix } from './storage-connection-rules.js';

/** Saves a checked connection: secrets left out keep their saved value, secrets given as '' are dropped. */
export function saveStorageConnection(state: AppState, input: StorageConnectionInput): StorageConnection {
  const { prefix, kind } = connectionPrefix(input.prefix);
  const taken = state.listStorageConnections().find((c) => c.prefix === prefix && c.name !== input.name);
  if (taken) throw new DeltaportError('VALIDATION', `the storage connection "${taken.name}" already applies to ${prefix}`);
  const options: StoreOptions = {};
  const secrets: StoreOptions = {};
  for (const [name, value] of Object.entries(state.storageConnectionSecrets(input.name))) {
    if (STORE_OPTIONS[name]?.kinds.includes(kind)) secrets[name] = value;
  }
  for (const [name, value] of Object.entries(input.options)) {
    if (!STORE_OPTIONS[name]?.secret) options[name] = value;
    else if (value === '') delete secrets[name];
    else secrets[name] = value;
  }
  const saved = state.saveStorageConnection({ name: input.name, prefix, options, secrets });
  applyStorageConnections(state);
  return saved;
}

export function deleteStorageConnection(state: AppState, name: string): void {
  if (!state.deleteStorageConnection(name)) throw new DeltaportError('NOT_FOUND', `no storage connection named "${name}"`);
  applyStorageConnections(state);
}

// The prefixes registered from connections so far: one that is gone is registered again with no options, since
// registrations cannot be withdrawn.
let applied = new Set<string>();

/** Registers every saved connection's options on this thread and the shared worker (see the file comment). */
export function applyStorageConnections(state: AppState): void {
  const next = new Map<string, StoreOptions>();
  for (const connection of state.listStorageConnections()) {
    const options = { ...connection.options, ...state.storageConnectionSecrets(connection.name) };
    // One saved by a Deltaport that knew other options is left out, not allowed to stop the start; saving it again
    // names what is wrong.
    if (storeOptionProblems(options).length > 0) continue;
    // Azure URLs that name their account have a spelling of their own: a whole-store connection covers both.
    for (const prefix of connection.prefix === 'az://' ? ['az://', 'abfss://'] : [connection.prefix]) next.set(prefix, options);
  }
  for (const prefix of applied) if (!next.has(prefix)) registerStoreOptions(prefix, {});
  for (const [prefix, options] of next) registerStoreOptions(prefix, options);
  applied = new Set(next.keys());
  shareStoreOptions();
}
