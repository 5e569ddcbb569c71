// The reader's cloud Storage implementations (electron/storage/) against real servers on loopback
// (test/support/object-stores.ts): listing in key order from a start key, ranged and whole reads, stat, hasFolder, and
// the failures the reader branches on (refused credentials, a missing bucket, a missing key) as one-line
// StorageErrors. Expected bytes and sizes come from the local copy of the table, modification times from each server's
// own API; a server whose program is missing reports itself skipped.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStoreLocation } from '../../../shared/store-location.js';
import { openStore } from '../../../electron/storage/open-store.js';
import { isNotFound, StorageError, type Storage } from '../../../electron/storage/storage.js';
import { StoreSettings } from '../../support/store-settings.js';
import { readCommit } from '../../support/delta-oracle.js';
import { tablePath } from '../../support/tables.js';
import { bucketUrl, serverOptions, uploadFolder } from '../../support/object-stores.js';
import { SERVERS, serverForSuite } from '../../support/object-stores-suite.js';

const TABLE = tablePath('simple_table');
const BUCKET = 'tables';
const PREFIX = 'tables/simple_table';
const stores = new StoreSettings();

/** Names of the files (not folders) right in a local folder, in key (code-unit) order. */
function localNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Expects `run` to fail with a StorageError of `reason` whose message is one line; returns the message. */
async function storageFailure(run: () => Promise<unknown>, reason: StorageError['reason']): Promise<string> {
  const err = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StorageError);
  const failure = err as StorageError;
  expect(failure.reason).toBe(reason);
  expect(failure.message).not.toContain('\n');
  return failure.message;
}

for (const server of SERVERS) {
  describe(server.name, () => {
    let storage: Storage;
    let root: string;
    let table: string;
    let log: string;
    const suite = serverForSuite(server, async (store) => {
      root = bucketUrl(store, BUCKET);
      table = `${root}/${PREFIX}`;
      log = `${table}/_delta_log`;
      await store.createBucket(BUCKET);
      await uploadFolder(store, BUCKET, PREFIX, TABLE, { spaced: false });
      stores.add(root, serverOptions(store).options);
      storage = stores.engine.storage(table);
    });

    it('lists a folder in key order, its files only, and from a start key', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const commits = await storage.list(log);
      const names = localNames(path.join(TABLE, '_delta_log'));
      expect(commits.map((entry) => entry.name)).toEqual(names);
      expect(commits.map((entry) => entry.size)).toEqual(names.map((name) => statSync(path.join(TABLE, '_delta_log', name)).size));
      expect((await storage.list(log, names[1])).map((entry) => entry.name)).toEqual(names.slice(2));
      // A start key that is not itself a key: everything after it.
      expect((await storage.list(log, `${names[2].slice(0, 20)}`)).map((entry) => entry.name)).toEqual(names.slice(2));
      // The table's root holds the data files and the _delta_log folder, which is no file.
      expect((await storage.list(table)).map((entry) => entry.name)).toEqual(localNames(TABLE));
      expect(await storage.list(`${table}/no-such-folder`)).toEqual([]);
    });

    it('reads exactly the requested byte range, and a whole object', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const file = firstDataFile();
      const local = readFileSync(path.join(TABLE, file));
      const location = `${table}/${file}`;
      expect(Buffer.from(await storage.readRange(location, local.length - 8, 8)).equals(local.subarray(local.length - 8))).toBe(true);
      expect(Buffer.from(await storage.readRange(location, 4, 100)).equals(local.subarray(4, 104))).toBe(true);
      expect(await storage.readRange(location, 10, 0)).toHaveLength(0);
      expect(Buffer.from(await storage.read(location)).equals(local)).toBe(true);
      // parquet-wasm's view of the object: slices become ranged reads.
      const blob = await storage.blob(location, local.length);
      expect(Buffer.from(await blob.slice(-12, -4).arrayBuffer()).equals(local.subarray(local.length - 12, local.length - 4))).toBe(true);
      // A range past the end is the caller's mistake about the object, not a short answer to pass on.
      await storageFailure(() => storage.readRange(location, local.length - 4, 8), 'truncated');
    });

    it("stats an object with its size and the server's modification time", async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const file = firstDataFile();
      const meta = await storage.stat(`${table}/${file}`);
      expect(meta.size).toBe(statSync(path.join(TABLE, file)).size);
      const commit = '_delta_log/00000000000000000002.json';
      const serverTime = await suite.store.lastModified(BUCKET, `${PREFIX}/${commit}`);
      expect((await storage.stat(`${table}/${commit}`)).modifiedMs).toBe(serverTime);
      const listed = (await storage.list(log)).find((entry) => entry.name === path.basename(commit));
      expect(listed?.modifiedMs).toBe(serverTime);
    });

    it('knows a folder with something under it from one without', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      expect(await storage.hasFolder(table)).toBe(true);
      expect(await storage.hasFolder(log)).toBe(true);
      expect(await storage.hasFolder(`${root}/tables/simple`)).toBe(false);
      expect(await storage.hasFolder(`${root}/no-such-prefix`)).toBe(false);
    });

    it('reports a missing key as not found', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const missing = `${log}/00000000000000000099.json`;
      for (const run of [() => storage.stat(missing), () => storage.read(missing), () => storage.readRange(missing, 0, 4)]) {
        const err = await run().then(
          () => null,
          (e: unknown) => e,
        );
        expect(isNotFound(err)).toBe(true);
        expect((err as StorageError).code).toBe('MISSING_FILE');
        expect((err as Error).message).toMatch(new RegExp(`^cannot read ${escape(missing)}: no such object`));
      }
    });

    it('reports a missing bucket as such, when listing and when reading', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const missing = bucketUrl(suite.store, 'no-such-bucket');
      stores.add(missing, serverOptions(suite.store).options);
      const elsewhere = stores.engine.storage(missing);
      const folder = `${missing}/${PREFIX}/_delta_log`;
      expect(await storageFailure(() => elsewhere.list(folder), 'no-bucket')).toBe(`cannot list ${folder}: no such bucket`);
      expect(await storageFailure(() => elsewhere.hasFolder(folder), 'no-bucket')).toMatch(/: no such bucket$/);
      expect(await storageFailure(() => elsewhere.stat(`${folder}/00000000000000000000.json`), 'no-bucket')).toMatch(/: no such bucket$/);
    });

    it('refuses wrong credentials in one line naming whose they were', async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const wrong = serverOptions(suite.store, true);
      if (!wrong.refused) return ctx.skip(`${server.name} checks no credentials`);
      const identity = wrong.refused;
      const refused = openStore(parseStoreLocation(table)!, wrong.options);
      const file = `${table}/${firstDataFile()}`;
      expect(await storageFailure(() => refused.stat(file), 'denied')).toBe(`cannot read ${file}: access denied for ${identity}`);
      expect(await storageFailure(() => refused.read(file), 'denied')).toBe(`cannot read ${file}: access denied for ${identity}`);
      expect(await storageFailure(() => refused.list(log), 'denied')).toBe(`cannot list ${log}: access denied for ${identity}`);
      // The secret itself is never part of the message.
      const message = await storageFailure(() => refused.readRange(file, 0, 4), 'denied');
      for (const secret of Object.entries(wrong.options).filter(([name]) => /secret|key$/.test(name) && name !== 'access_key_id')) {
        expect(message).not.toContain(secret[1]);
      }
    });
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function firstDataFile(): string {
  const add = readCommit(TABLE, 0).find((action) => action.add)?.add;
  if (!add) throw new Error('simple_table version 0 adds no file');
  return decodeURIComponent(add.path);
}
