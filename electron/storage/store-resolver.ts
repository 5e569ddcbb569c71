// Which storage holds a location: the local disk, or a client for a bucket made on first use with the options a
// list gives it. Clients are shared by every resolver that asks for the same bucket with the same options, since a
// client holds connections worth reusing; the options themselves are data the resolver is made with, never looked
// up behind a reader's back.
import { DeltaportError } from '../../shared/errors.js';
import { LocalStorage } from './local-storage.js';
import { openStore } from './open-store.js';
import { isNotFound, StorageError, storeLocationOf, type Storage, type StorageResolver } from './storage.js';
import { exportStoreOptions, optionsIn, type RegisteredStoreOptions } from './store-options.js';

const local = new LocalStorage();
const clients = new Map<string, Storage>();

/** A resolver over the given options: one client per bucket and set of options. */
export function storageResolver(list: RegisteredStoreOptions): StorageResolver {
  return (location) => {
    const store = storeLocationOf(location);
    if (!store) return local;
    const options = optionsIn(list, store);
    const key = JSON.stringify([store.kind, store.bucket, store.account, options]);
    let storage = clients.get(key);
    if (!storage) clients.set(key, (storage = openStore(store, options)));
    return storage;
  };
}

/** The storage that holds `location` under the options registered now (an export's target, outside the reader). */
export function storageFor(location: string): Storage {
  return storageResolver(exportStoreOptions())(location);
}

/** Puts a finished local file at a cloud location (see Storage.upload). */
export async function uploadFile(localFile: string, location: string): Promise<void> {
  const storage = storageFor(location);
  if (!storage.upload) throw new DeltaportError('INTERNAL', `cannot upload to ${location}: not a cloud location`);
  await storage.upload(localFile, location);
}

/** Whether a file exists at the location (a missing object or file is false; other failures are thrown). */
export async function fileExists(location: string): Promise<boolean> {
  try {
    await storageFor(location).stat(location);
    return true;
  } catch (err) {
    if (isNotFound(err) || (err instanceof StorageError && err.reason === 'is-folder')) return false;
    throw err;
  }
}
