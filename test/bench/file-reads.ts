// Which data files the reader touches while a piece of work runs in this thread: every read of a table's files goes
// through its storage (stat, read, ranged read, Blob), so the local storage's calls are watched for the time of the
// work, then left as they were. A scan in a thread of its own is not seen: callers keep their reads in this one.
import path from 'node:path';
import type { Storage } from '../../electron/storage/storage.js';
import { localDisk } from '../../electron/storage/local-storage.js';

/** `fn`'s result and the data files (paths relative to `root`, '/' separators) it touched. */
export async function dataFilesTouched<T>(root: string, fn: () => Promise<T>): Promise<{ result: T; files: Set<string> }> {
  const storage = localDisk;
  const files = new Set<string>();
  const note = (location: string) => {
    const relative = path.relative(root, location).split(path.sep).join('/');
    if (relative.endsWith('.parquet') && !relative.startsWith('..') && !relative.startsWith('_delta_log/')) files.add(relative);
  };
  const original: Pick<Storage, 'stat' | 'read' | 'readRange' | 'blob'> = {
    stat: storage.stat,
    read: storage.read,
    readRange: storage.readRange,
    blob: storage.blob,
  };
  storage.stat = (location) => {
    note(location);
    return original.stat.call(storage, location);
  };
  storage.read = (location) => {
    note(location);
    return original.read.call(storage, location);
  };
  storage.readRange = (location, offset, length) => {
    note(location);
    return original.readRange.call(storage, location, offset, length);
  };
  storage.blob = (location, size) => {
    note(location);
    return original.blob.call(storage, location, size);
  };
  try {
    return { result: await fn(), files };
  } finally {
    Object.assign(storage, original);
  }
}
