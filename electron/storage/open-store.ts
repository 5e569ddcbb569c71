// The client for one cloud bucket, chosen by the URL's store.
import type { StoreLocation } from '../../shared/store-location.js';
import { AzureStorage } from './azure-storage.js';
import { GcsStorage } from './gcs-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';
import type { StoreOptions } from './store-options.js';

export function openStore(store: StoreLocation, options: StoreOptions): Storage {
  switch (store.kind) {
    case 's3':
      return new S3Storage(store, options);
    case 'azure':
      return new AzureStorage(store, options);
    case 'gcs':
      return new GcsStorage(store, options);
  }
}
