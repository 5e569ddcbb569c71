// The client for one cloud bucket, chosen by the URL's store. Each vendor's SDK is loaded on the first call that needs
// it, not when this module is: a local read never loads them (the AWS SDK alone took ~50 ms of a cold 500 ms
// `deltaport preview`, which every reading process pays again).
import type { StoreLocation } from '../../shared/store-location.js';
import type { Storage } from './storage.js';
import type { StoreOptions } from './store-options.js';

/** A store's client: one that uploads, as every store's does. */
type StoreClient = Storage & Required<Pick<Storage, 'upload'>>;

export function openStore(store: StoreLocation, options: StoreOptions): Storage {
  let opened: Promise<StoreClient> | undefined;
  // A client that failed to start (no account named, say) is tried again by the next call, as a new one would be.
  const client = (): Promise<StoreClient> =>
    (opened ??= storeClient(store, options).catch((err: unknown) => {
      opened = undefined;
      throw err;
    }));
  return {
    list: async (folder, startAfter) => (await client()).list(folder, startAfter),
    listFolder: async (folder, options) => (await client()).listFolder(folder, options),
    read: async (location) => (await client()).read(location),
    readRange: async (location, offset, length) => (await client()).readRange(location, offset, length),
    stat: async (location) => (await client()).stat(location),
    blob: async (location, size) => (await client()).blob(location, size),
    upload: async (localFile, location) => (await client()).upload(localFile, location),
    hasFolder: async (folder) => (await client()).hasFolder(folder),
  };
}

async function storeClient(store: StoreLocation, options: StoreOptions): Promise<StoreClient> {
  switch (store.kind) {
    case 's3':
      return new (await import('./s3-storage.js')).S3Storage(store, options);
    case 'azure':
      return new (await import('./azure-storage.js')).AzureStorage(store, options);
    case 'gcs':
      return new (await import('./gcs-storage.js')).GcsStorage(store, options);
  }
}
