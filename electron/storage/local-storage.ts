// A local folder as storage: the one module of the reader that calls node:fs.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { countFetch } from './fetch-counter.js';
import { rangeBlob } from './ranged-file.js';
import { StorageError, type ListedObject, type ObjectMeta, type Storage } from './storage.js';

const CAUSES: Record<string, [StorageError['reason'], string]> = {
  ENOENT: ['not-found', 'no such file'],
  ENOTDIR: ['not-found', 'no such file'],
  EACCES: ['denied', 'permission denied'],
  EPERM: ['denied', 'permission denied'],
  EISDIR: ['is-folder', 'it is a folder, not a file'],
  EIO: ['failed', 'an input/output error from the disk'],
};

// Stats asked synchronously before the thread is let go: about a millisecond's worth.
const STAT_SLICE = 256;

export class LocalStorage implements Storage {
  /** Names only, subfolders among them: telling those apart takes a Dirent per entry, a third of the listing of a
   * 10,000-commit log, and the log's reader passes over names not its own (_sidecars, _staged_commits) anyway. */
  async list(folder: string, startAfter?: string): Promise<ListedObject[]> {
    let names;
    try {
      names = await readdir(folder);
    } catch (err) {
      if (isMissing(err)) return [];
      throw failure(err, folder);
    }
    if (startAfter !== undefined) names = names.filter((name) => name > startAfter);
    // Key order is code-unit order, as object stores list it (the default order of sort()).
    names.sort();
    return names.map((name) => ({ name, size: null, modifiedMs: null }));
  }

  /** What is read whole is the log's JSON: small files, many of them, each read in a fraction of what a round trip
   * through the thread pool costs (the 99 commits after a checkpoint: 3 ms of CPU time instead of 12), so synchronously. */
  async read(location: string): Promise<Uint8Array> {
    try {
      const bytes = readFileSync(location);
      countFetch(bytes.length);
      return bytes;
    } catch (err) {
      throw failure(err, location);
    }
  }

  /** Synchronously too: a data file is read as a few ranges (a footer, each row group's column chunks), each from the
   * page cache in about a millisecond per few MB, and the thread pool's round trips cost more than that (a local scan of
   * the 2M-row benchmark table: 10% of its CPU time). Reads run in a worker or the CLI's process, never the app's UI. */
  async readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    let fd: number | undefined;
    try {
      fd = openSync(location, 'r');
      const bytes = new Uint8Array(length);
      const bytesRead = readSync(fd, bytes, 0, length, offset);
      countFetch(bytesRead);
      if (bytesRead < length)
        throw new StorageError('truncated', `${location} ends at ${offset + bytesRead}, before byte ${offset + length}`);
      return bytes;
    } catch (err) {
      throw failure(err, location);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  async stat(location: string): Promise<ObjectMeta> {
    try {
      const s = await stat(location);
      if (s.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
      return { size: s.size, modifiedMs: Math.floor(s.mtimeMs) };
    } catch (err) {
      throw failure(err, location);
    }
  }

  /** A disk answers a stat from its cache in microseconds, a small part of what a round trip through the thread pool
   * costs (the times of a 10,000-commit log: a fifth of the CPU time), so these are asked synchronously, a slice at a
   * time, the thread free between slices. */
  async modifiedTimes(locations: string[]): Promise<number[]> {
    const times: number[] = [];
    for (const location of locations) {
      if (times.length > 0 && times.length % STAT_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      try {
        times.push(Math.floor(statSync(location).mtimeMs));
      } catch (err) {
        throw failure(err, location);
      }
    }
    return times;
  }

  /** Ranged reads, as a bucket's: each slice parquet-wasm asks for (a footer, a row group's column chunks) is one
   * read into a buffer of its size. The disk's own lazy Blob (openAsBlob) reads a slice as a stream of chunks that
   * it then concatenates, copying every byte twice more: 5-10% of the CPU time of a local scan. The file is opened once
   * first to name what would stop a read (permission denied) here, not as a decoder error; synchronously, as the
   * reads are (see readRange). */
  async blob(location: string, size: number): Promise<Blob> {
    try {
      closeSync(openSync(location, 'r'));
      return rangeBlob(this, location, size);
    } catch (err) {
      throw failure(err, location);
    }
  }

  async folderStamp(folder: string): Promise<{ stamp: string; modifiedMs: number } | null> {
    const s = await stat(folder, { bigint: true }).catch(() => null);
    return s ? { stamp: `${s.mtimeNs}/${s.ctimeNs}`, modifiedMs: Number(s.mtimeMs) } : null;
  }

  async hasFolder(folder: string): Promise<boolean> {
    try {
      return (await stat(folder)).isDirectory();
    } catch (err) {
      if (isMissing(err)) return false;
      throw failure(err, folder);
    }
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function failure(err: unknown, location: string): StorageError {
  if (err instanceof StorageError) return err;
  const known = CAUSES[(err as NodeJS.ErrnoException).code ?? ''];
  if (known) return new StorageError(known[0], `${known[1]}: ${location}`);
  return new StorageError('failed', `cannot read ${location}: ${(err as Error).message.split('\n')[0]}`);
}

/** The local disk: one is enough, it holds no state. */
export const localDisk: Storage = new LocalStorage();
