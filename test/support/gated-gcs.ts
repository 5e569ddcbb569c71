// Delta tables in a real object store (fake-gcs-server) read through a gated proxy (gated-http-proxy.ts): what the
// long-read tests share to make a read as slow as they need with no timing, and to see what it asked of the store.
import { expect } from 'vitest';
import { startGatedProxy, type GatedProxy } from './gated-http-proxy.js';
import { isSkipped, startGcs, uploadFolder, type GcsStore, type Skipped } from './object-stores.js';
import type { ServedApp } from './serve.js';
import { tablePath } from './tables.js';

export const GATED_BUCKET = 'lake';

export interface GatedGcs {
  store: GcsStore;
  proxy: GatedProxy;
}

/** The named test tables in the bucket, each under its own name, behind a proxy holding what `held` matches; or why
 * the store is skipped. */
export async function startGatedGcs(tables: string[], held: (request: string) => boolean): Promise<GatedGcs | Skipped> {
  const store = await startGcs();
  if (isSkipped(store)) return store;
  await store.createBucket(GATED_BUCKET);
  for (const table of tables) await uploadFolder(store, GATED_BUCKET, table, tablePath(table), { spaced: false });
  return { store, proxy: await startGatedProxy(store.endpoint, held) };
}

/** Saves the storage connection through which `app` reads the bucket, by the proxy. */
export async function connectThroughProxy(app: ServedApp, proxy: GatedProxy): Promise<void> {
  const saved = await app.call('saveStorageConnection', {
    name: 'emulator',
    prefix: `gs://${GATED_BUCKET}`,
    options: { endpoint: proxy.url, anonymous: 'true' },
  });
  expect(saved.ok, JSON.stringify(saved)).toBe(true);
}
