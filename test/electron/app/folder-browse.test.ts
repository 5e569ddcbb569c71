// The navigator's browse API (electron/app/folder-browse.ts over each store's listFolder) on a local folder of
// thousands of entries and on real object-store servers on loopback holding 3,000 keys in one prefix: paged by the
// store's own continuation, filtered by name, a table folder answered as the table. Expected names come from `find`
// for the disk and from each server's own listing (test/support/object-stores.ts listByDelimiter); a table's latest
// version from its log's file names.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowseEntry, BrowsePage } from '../../../shared/browse.js';
import { dispatchCall } from '../../../electron/app/dispatch.js';
import { browseFolder } from '../../../electron/app/folder-browse.js';
import { engineFrom } from '../../../electron/delta/engine/engine-context.js';
import { AppState } from '../../../electron/state/app-state.js';
import { fetchCounts } from '../../../electron/storage/fetch-counter.js';
import { FOLDER_PAGE_SIZE, type Storage } from '../../../electron/storage/storage.js';
import { withStoreOptions } from '../../../electron/storage/store-options.js';
import { appService } from '../../support/app-service.js';
import { commitVersions } from '../../support/delta-oracle.js';
import { bucketUrl, serverOptions, uploadFolder } from '../../support/object-stores.js';
import { SERVERS, serverForSuite } from '../../support/object-stores-suite.js';
import { tablePath } from '../../support/tables.js';

const FILES = 2_500;
const FOLDERS = 500;
const name = (kind: 'f' | 'd', i: number) => `${kind}-${String(i).padStart(4, '0')}`;
const SIMPLE_LATEST = commitVersions(tablePath('simple_table')).at(-1);

/** Every page of a folder, following nextPage, with the listing calls each page cost. */
async function allPages(storage: (location: string) => Storage, location: string, filter?: string) {
  const pages: BrowsePage[] = [];
  const calls: number[] = [];
  let page: string | undefined;
  do {
    const before = fetchCounts().lists;
    const answer = await browseFolder(storage, { location, page, filter });
    calls.push(fetchCounts().lists - before);
    pages.push(answer);
    page = answer.nextPage ?? undefined;
  } while (page !== undefined);
  return { pages, calls, entries: pages.flatMap((p) => p.entries) };
}

const named = (entries: BrowseEntry[], kind: BrowseEntry['kind']) =>
  entries
    .filter((e) => e.kind === kind)
    .map((e) => e.name)
    .sort();

describe('a local folder', () => {
  let root: string;
  const disk = engineFrom({ storeOptions: [] }).storage;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-browse-'));
    const many = path.join(root, 'many');
    fs.mkdirSync(many);
    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(many, name('f', i)), '');
    for (let i = 0; i < FOLDERS; i++) fs.mkdirSync(path.join(many, name('d', i)));
    fs.cpSync(tablePath('simple_table'), path.join(root, 'tables', 'simple_table'), { recursive: true });
    fs.symlinkSync(path.join(root, 'tables'), path.join(root, 'linked'));
    // A table whose first page of names ends before '_delta_log' (capitals sort first).
    const crowded = path.join(root, 'crowded');
    fs.cpSync(tablePath('simple_table'), crowded, { recursive: true });
    for (let i = 0; i <= FOLDER_PAGE_SIZE; i++) fs.writeFileSync(path.join(crowded, `A-${String(i).padStart(4, '0')}`), '');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  /** What `find` lists right in a folder, by type. */
  const found = (dir: string, type: 'f' | 'd') =>
    execFileSync('find', [dir, '-mindepth', '1', '-maxdepth', '1', '-type', type, '-printf', '%f\\n'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .sort();

  it('pages through thousands of entries, each name once, subfolders apart from files', async () => {
    const { pages, entries } = await allPages(disk, path.join(root, 'many'));
    expect(pages).toHaveLength(Math.ceil((FILES + FOLDERS) / FOLDER_PAGE_SIZE));
    for (const page of pages) expect(page.entries.length).toBeLessThanOrEqual(FOLDER_PAGE_SIZE);
    expect(named(entries, 'folder')).toEqual(found(path.join(root, 'many'), 'd'));
    expect(named(entries, 'other')).toEqual(found(path.join(root, 'many'), 'f'));
    expect(new Set(entries.map((e) => e.location)).size).toBe(FILES + FOLDERS);
    expect(entries.find((e) => e.name === 'd-0007')?.location).toBe(path.join(root, 'many', 'd-0007'));
  });

  it('filters by the start of the name', async () => {
    const { entries } = await allPages(disk, path.join(root, 'many'), 'd-01');
    expect(entries.map((e) => e.name).sort()).toEqual(found(path.join(root, 'many'), 'd').filter((n) => n.startsWith('d-01')));
  });

  it('answers a folder holding _delta_log as the table, with the latest version its log names', async () => {
    expect((await browseFolder(disk, { location: path.join(root, 'tables') })).entries).toEqual([
      { name: 'simple_table', kind: 'folder', location: path.join(root, 'tables', 'simple_table') },
    ]);
    const table = path.join(root, 'tables', 'simple_table');
    expect(await browseFolder(disk, { location: table })).toEqual({
      entries: [{ name: 'simple_table', kind: 'table', location: table, detail: `v${SIMPLE_LATEST}` }],
      nextPage: null,
    });
  });

  it('finds the log of a table folder with more than a page of names before it', async () => {
    const crowded = path.join(root, 'crowded');
    expect((await browseFolder(disk, { location: crowded })).entries).toEqual([
      { name: 'crowded', kind: 'table', location: crowded, detail: `v${SIMPLE_LATEST}` },
    ]);
  });

  it('follows a link to a folder as a folder', async () => {
    const entries = (await browseFolder(disk, { location: root })).entries;
    expect(entries.find((e) => e.name === 'linked')?.kind).toBe('folder');
  });

  it('answers a missing folder as empty, and refuses a relative location in one line, through the API', async () => {
    const state = AppState.open(path.join(root, 'state.db'), { encryptor: null });
    const { api, jobs } = appService(state, { sampleTable: async () => root, sqlTempDirectory: path.join(root, 'sql-temp') });
    try {
      expect(await dispatchCall(api, 'browse', { location: path.join(root, 'nothing-here') })).toEqual({
        ok: true,
        value: { entries: [], nextPage: null },
      });
      const refused = await dispatchCall(api, 'browse', { location: 'relative/folder' });
      expect(refused.ok).toBe(false);
      if (!refused.ok)
        expect(refused.error.message).toMatch(/^browse\.location: the folder must be an absolute path or a cloud URL[^\n]*$/);
    } finally {
      await jobs.cancelAll();
      state.close();
    }
  });
});

for (const server of SERVERS) {
  describe(server.name, () => {
    const BUCKET = 'browse';
    let bucket: string;
    let storage: (location: string) => Storage;
    const suite = serverForSuite(server, async (store) => {
      bucket = bucketUrl(store, BUCKET);
      await store.createBucket(BUCKET);
      const keys = [
        ...Array.from({ length: FILES }, (_, i) => `many/${name('f', i)}`),
        ...Array.from({ length: FOLDERS }, (_, i) => `many/${name('d', i)}/x`),
      ];
      // A few at a time: the servers answer each PUT in a few milliseconds.
      for (let i = 0; i < keys.length; i += 50) {
        await Promise.all(keys.slice(i, i + 50).map((key) => store.putObject(BUCKET, key, new Uint8Array(0))));
      }
      await uploadFolder(store, BUCKET, 'tables/simple_table', tablePath('simple_table'), { spaced: false });
      storage = engineFrom({ storeOptions: withStoreOptions([], bucket, serverOptions(store).options) }).storage;
    });

    it('pages through 3,000 keys in one prefix with the store continuation, one listing call a page', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const own = await suite.store.listByDelimiter(BUCKET, 'many/');
      expect(own.files.length + own.folders.length).toBe(FILES + FOLDERS);
      const { pages, calls, entries } = await allPages(storage, `${bucket}/many`);
      // How many names a page holds is the server's to say (fake-gcs-server counts files alone); paging there is.
      expect(pages.length).toBeGreaterThan(1);
      expect(calls.every((n) => n === 1)).toBe(true);
      expect(new Set(entries.map((e) => e.location)).size).toBe(entries.length);
      expect(named(entries, 'folder')).toEqual(own.folders.sort());
      expect(named(entries, 'other')).toEqual(own.files.sort());
      expect(entries.find((e) => e.name === 'd-0042')?.location).toBe(`${bucket}/many/d-0042`);
    });

    it('filters by the start of the name on the server', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const own = await suite.store.listByDelimiter(BUCKET, 'many/f-12');
      const { entries, calls } = await allPages(storage, `${bucket}/many`, 'f-12');
      expect(calls).toEqual([1]);
      expect(entries.map((e) => e.name).sort()).toEqual(own.files.map((f) => `f-12${f}`).sort());
    });

    it('browses a bucket through the storage connection saved in the app', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-browse-state-'));
      const state = AppState.open(path.join(dir, 'state.db'), { encryptor: null });
      const { api, jobs } = appService(state, { sampleTable: async () => dir, sqlTempDirectory: path.join(dir, 'sql-temp') });
      try {
        const saved = await dispatchCall(api, 'saveStorageConnection', {
          name: 'lake',
          prefix: bucket,
          options: serverOptions(suite.store).options,
        });
        expect(saved.ok).toBe(true);
        expect(await dispatchCall(api, 'browse', { location: `${bucket}/tables` })).toEqual({
          ok: true,
          value: { entries: [{ name: 'simple_table', kind: 'folder', location: `${bucket}/tables/simple_table` }], nextPage: null },
        });
      } finally {
        await jobs.cancelAll();
        state.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('lists the bucket root, and answers a table folder as the table, with its latest version', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const top = await browseFolder(storage, { location: `${bucket}/` });
      expect(top.entries.map((e) => [e.name, e.kind])).toEqual([
        ['many', 'folder'],
        ['tables', 'folder'],
      ]);
      const table = `${bucket}/tables/simple_table`;
      expect((await browseFolder(storage, { location: `${bucket}/tables` })).entries).toEqual([
        { name: 'simple_table', kind: 'folder', location: table },
      ]);
      expect((await browseFolder(storage, { location: table })).entries).toEqual([
        { name: 'simple_table', kind: 'table', location: table, detail: `v${SIMPLE_LATEST}` },
      ]);
    });
  });
}
