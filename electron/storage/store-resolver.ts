// Which storage holds a location: the local disk, or a client for a bucket made on first use with the options a
// list gives it. Clients are shared by every resolver that asks for the same bucket with the same options, since a
// client holds connections worth reusing; the options themselves are data the resolver is made with, never looked
// up behind a reader's back.
import { localDisk } from './local-storage.js';
import { openStore } from './open-store.js';
import { storeLocationOf, type Storage, type StorageResolver } from './storage.js';
import { optionsIn, type PrefixedStoreOptions } from './store-options.js';

const clients = new Map<string, Storage>();

/** A resolver over the given options: one client per bucket and set of options. */
export function storageResolver(list: PrefixedStoreOptions): StorageResolver {
  return (location) => {
    const store = storeLocationOf(location);
    if (!store) return localDisk;
    const options = optionsIn(list, store);
    const key = JSON.stringify([store.kind, store.bucket, store.account, options]);
    let storage = clients.get(key);
    if (!storage) clients.set(key, (storage = openStore(store, options)));
    return storage;
  };
}
