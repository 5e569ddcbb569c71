// The one door between the reader and where a table's files live: a local folder or a bucket in S3, Azure Blob
// Storage (ADLS Gen2 included) or Google Cloud Storage. The reader names files by location, a local path or a cloud
// URL in the canonical spelling of shared/store-location.ts, and asks only for what object stores can do cheaply:
// list one folder in key order, read an object, read a byte range, stat. Which storage holds a location is the
// resolver's to say (store-resolver.ts); this module is the interface and the spelling of locations.
import path from 'node:path';
import { parseStoreLocation, storeUrl, type StoreLocation } from '../../shared/store-location.js';
import { DeltaportError } from '../../shared/errors.js';

export interface ObjectMeta {
  size: number;
  /** Epoch ms; a store's Last-Modified. */
  modifiedMs: number;
}

export interface ListedObject {
  /** The name within the folder listed. */
  name: string;
  /** Null, as modifiedMs, where listing does not give it without a call per file. */
  size: number | null;
  /** Null where listing does not give it without a call per file (a local folder). */
  modifiedMs: number | null;
}

/** One page of a folder listed by delimiter, as one listing call gives it: its subfolders and its files. */
export interface FolderPage {
  /** Subfolders' names, without a trailing '/', in key order. */
  folders: string[];
  files: ListedObject[];
  /** The store's own continuation token for the next page (a local folder's: the last name given); null after the last. */
  next: string | null;
}

/** The most names one page of listFolder gives: what one S3 listing call returns. */
export const FOLDER_PAGE_SIZE = 1000;

/** The storage that holds a location: what a read is given (see delta/engine/engine-context.ts). */
export type StorageResolver = (location: string) => Storage;

export interface Storage {
  /** The files directly in a folder, in key order (a local folder's subfolders may be among them: a store has none);
   * with `startAfter`, only the names after it. A folder that does not exist lists as empty: object stores have no
   * folders to be missing. */
  list(folder: string, startAfter?: string): Promise<ListedObject[]>;
  /** A page of what is directly in a folder, subfolders apart from files (what a navigator shows of one level): one
   * listing call of at most FOLDER_PAGE_SIZE names, only those that start with `prefix` (asked of the store where it
   * can filter); `page` is the `next` of the page before. A folder that does not exist lists as empty. */
  listFolder(folder: string, options?: { prefix?: string; page?: string }): Promise<FolderPage>;
  read(location: string): Promise<Uint8Array>;
  /** Exactly `length` bytes from `offset`; a file that ends sooner fails. */
  readRange(location: string, offset: number, length: number): Promise<Uint8Array>;
  stat(location: string): Promise<ObjectMeta>;
  /** A disk only: the modification times (epoch ms) of many files, in the order given; a store's listing gives them. */
  modifiedTimes?(locations: string[]): Promise<number[]>;
  /** The file as a Blob for parquet-wasm, whose reads become ranged reads; `size` from stat() or the table's log. */
  blob(location: string, size: number): Promise<Blob>;
  /** A disk's folder changes its modification time when a file is added or removed: a stamp of that, and the time
   * itself, tell a caller whether to list again. Stores have no such thing. */
  folderStamp?(folder: string): Promise<{ stamp: string; modifiedMs: number } | null>;
  /** Stores only: puts a finished local file at `location` as one upload (multipart where the file is large) that
   * is visible there only once complete; a failed upload is aborted, leaving nothing at `location`. */
  upload?(localFile: string, location: string): Promise<void>;
  /** Whether anything exists under the folder (a table root must, before the reader looks for its log). */
  hasFolder(folder: string): Promise<boolean>;
}

/** Why a storage call failed, for callers that branch (a missing commit, a missing bucket) and for the message. */
export type StorageFailure =
  'not-found' | 'truncated' | 'no-bucket' | 'denied' | 'expired' | 'unreachable' | 'throttled' | 'is-folder' | 'failed';

export class StorageError extends DeltaportError {
  constructor(
    readonly reason: StorageFailure,
    message: string,
  ) {
    super(reason === 'not-found' ? 'MISSING_FILE' : 'STORAGE', message);
  }
}

export function isNotFound(err: unknown): boolean {
  return err instanceof StorageError && err.reason === 'not-found';
}

export function storeLocationOf(location: string): StoreLocation | null {
  try {
    return parseStoreLocation(location);
  } catch (err) {
    throw new DeltaportError('VALIDATION', (err as Error).message);
  }
}

/** The canonical spelling of a table location: an absolute local path, or a cloud URL without a trailing '/'. */
export function canonicalLocation(location: string): string {
  const store = storeLocationOf(location);
  return store ? storeUrl(store) : path.resolve(location);
}

export function isCloudLocation(location: string): boolean {
  return storeLocationOf(location) !== null;
}

/** A file or folder inside a folder; `child` is a relative path with '/' separators, already decoded. */
export function joinLocation(folder: string, child: string): string {
  if (!isCloudLocation(folder)) return path.join(folder, child);
  const parts: string[] = [];
  for (const part of child.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `${folder.replace(/\/+$/, '')}/${parts.join('/')}`;
}

/** The folder that holds a file. */
export function parentLocation(location: string): string {
  return isCloudLocation(location) ? location.slice(0, location.lastIndexOf('/')) : path.dirname(location);
}

/** The last segment of a location: a file's name. */
export function locationName(location: string): string {
  return isCloudLocation(location) ? location.slice(location.lastIndexOf('/') + 1) : path.basename(location);
}
