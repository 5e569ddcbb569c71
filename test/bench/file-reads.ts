// What the reader asks of its storage while a piece of work runs in this thread: every read of a table's files goes
// through its storage (list, stat, read, ranged read, Blob), so the local storage's calls are watched for the time of
// the work, then left as they were. A scan in a thread of its own is not seen: callers keep their reads in this one.
import path from 'node:path';
import { localDisk } from '../../electron/storage/local-storage.js';

const WATCHED = ['list', 'listFolder', 'stat', 'read', 'readRange', 'blob'] as const;
type Watched = (typeof WATCHED)[number];
/** Every watched method takes the location first. */
type Call = (location: string, ...rest: unknown[]) => Promise<unknown>;

/** `fn`'s result; `see` is told of each call the local storage got meanwhile, and where. */
async function watchStorage<T>(see: (method: Watched, location: string) => void, fn: () => Promise<T>): Promise<T> {
  const storage = localDisk as unknown as Record<Watched, Call>;
  const original = Object.fromEntries(WATCHED.map((method) => [method, storage[method]])) as Record<Watched, Call>;
  for (const method of WATCHED) {
    storage[method] = (location, ...rest) => {
      see(method, location);
      return original[method].call(localDisk, location, ...rest);
    };
  }
  try {
    return await fn();
  } finally {
    Object.assign(storage, original);
  }
}

/** `fn`'s result and the data files (paths relative to `root`, '/' separators) it touched. */
export async function dataFilesTouched<T>(root: string, fn: () => Promise<T>): Promise<{ result: T; files: Set<string> }> {
  const files = new Set<string>();
  const result = await watchStorage((_, location) => {
    const relative = path.relative(root, location).split(path.sep).join('/');
    if (relative.endsWith('.parquet') && !relative.startsWith('..') && !relative.startsWith('_delta_log/')) files.add(relative);
  }, fn);
  return { result, files };
}

/** `fn`'s result and the calls it made to the local storage that would each be a request to an object store:
 * listings of a folder, and reads (whole or ranged) and stats of a file. A Blob is only a handle: its slices are
 * ranged reads. */
export async function storageCalls<T>(fn: () => Promise<T>): Promise<{ result: T; lists: number; reads: number }> {
  let lists = 0;
  let reads = 0;
  const result = await watchStorage((method) => {
    if (method === 'list' || method === 'listFolder') lists++;
    else if (method !== 'blob') reads++;
  }, fn);
  return { result, lists, reads };
}
