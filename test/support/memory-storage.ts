// A store held in this process's memory, behind the reader's Storage interface: it lists like an object store (no
// folder stamps, names in key order), so a read through it touches neither the disk nor the network.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { rangeBlob } from '../../electron/storage/ranged-file.js';
import { FOLDER_PAGE_SIZE, StorageError } from '../../electron/storage/storage.js';
import type { FolderPage, ListedObject, ObjectMeta, Storage } from '../../electron/storage/storage.js';

export class MemoryStorage implements Storage {
  private readonly files = new Map<string, { bytes: Uint8Array; modifiedMs: number }>();
  /** Every location asked for, in order: what the reader read through this store. */
  readonly asked: string[] = [];

  /** Copies a folder's files (recursively) under `root`, keeping their modification times. */
  copyFolder(folder: string, root: string): void {
    for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const location = `${root}/${path.relative(folder, file).split(path.sep).join('/')}`;
      this.files.set(location, { bytes: readFileSync(file), modifiedMs: Math.floor(statSync(file).mtimeMs) });
    }
  }

  async list(folder: string, startAfter?: string): Promise<ListedObject[]> {
    this.asked.push(folder);
    const prefix = `${folder.replace(/\/+$/, '')}/`;
    return [...this.files]
      .filter(([location]) => location.startsWith(prefix) && !location.slice(prefix.length).includes('/'))
      .map(([location, file]) => ({ name: location.slice(prefix.length), size: file.bytes.length, modifiedMs: file.modifiedMs }))
      .filter(({ name }) => startAfter === undefined || name > startAfter)
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** Pages of FOLDER_PAGE_SIZE names, the next starting after the last name of the one before. */
  async listFolder(folder: string, options: { prefix?: string; page?: string } = {}): Promise<FolderPage> {
    this.asked.push(folder);
    const key = `${folder.replace(/\/+$/, '')}/`;
    const names = new Map<string, ListedObject | null>();
    for (const [location, file] of this.files) {
      if (!location.startsWith(key)) continue;
      const rest = location.slice(key.length);
      const slash = rest.indexOf('/');
      if (slash >= 0) names.set(rest.slice(0, slash), null);
      else names.set(rest, { name: rest, size: file.bytes.length, modifiedMs: file.modifiedMs });
    }
    const wanted = [...names]
      .filter(([name]) => name.startsWith(options.prefix ?? '') && (options.page === undefined || name > options.page))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    const shown = wanted.slice(0, FOLDER_PAGE_SIZE);
    return {
      folders: shown.filter(([, file]) => file === null).map(([name]) => name),
      files: shown.flatMap(([, file]) => (file ? [file] : [])),
      next: wanted.length > shown.length ? shown[shown.length - 1][0] : null,
    };
  }

  async read(location: string): Promise<Uint8Array> {
    return this.file(location).bytes;
  }

  async readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    const { bytes } = this.file(location);
    if (offset + length > bytes.length) throw new StorageError('truncated', `${location} ends before byte ${offset + length}`);
    return bytes.subarray(offset, offset + length);
  }

  async stat(location: string): Promise<ObjectMeta> {
    const { bytes, modifiedMs } = this.file(location);
    return { size: bytes.length, modifiedMs };
  }

  async blob(location: string, size: number): Promise<Blob> {
    return rangeBlob(this, location, size);
  }

  async hasFolder(folder: string): Promise<boolean> {
    this.asked.push(folder);
    const prefix = `${folder.replace(/\/+$/, '')}/`;
    return [...this.files.keys()].some((location) => location.startsWith(prefix));
  }

  private file(location: string): { bytes: Uint8Array; modifiedMs: number } {
    this.asked.push(location);
    const file = this.files.get(location);
    if (!file) throw new StorageError('not-found', `no such object: ${location}`);
    return file;
  }
}
