// What an export asks of the storage at its target, outside the reader: whether a file is there already, and putting
// a finished local file in place in the cloud. The storage is the export's engine's (its resolver is given), so that
// a target in a bucket is written with the same settings as the tables read from it.
import { DeltaportError } from '../../shared/errors.js';
import { isNotFound, StorageError, type StorageResolver } from './storage.js';

/** Whether a file exists at the location (a missing object or file is false; other failures are thrown). */
export async function fileExists(storage: StorageResolver, location: string): Promise<boolean> {
  try {
    await storage(location).stat(location);
    return true;
  } catch (err) {
    if (isNotFound(err) || (err instanceof StorageError && err.reason === 'is-folder')) return false;
    throw err;
  }
}

/** Puts a finished local file at a cloud location (see Storage.upload). */
export async function uploadFile(storage: StorageResolver, localFile: string, location: string): Promise<void> {
  const store = storage(location);
  if (!store.upload) throw new DeltaportError('INTERNAL', `cannot upload to ${location}: not a cloud location`);
  await store.upload(localFile, location);
}
