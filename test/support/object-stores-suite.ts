// One object-store server per describe block: started before its tests (servers are slow to start), stopped after,
// and reported as skipped, with the reason, when its program is not installed.
import { afterAll, beforeAll, type TestContext } from 'vitest';
import {
  isSkipped,
  startAzurite,
  startGcs,
  startS3,
  type AzuriteStore,
  type GcsStore,
  type S3Store,
  type Skipped,
} from './object-stores.js';

export type Store = S3Store | AzuriteStore | GcsStore;

export const SERVERS: { name: string; start(): Promise<Store | Skipped> }[] = [
  { name: 'S3 (moto)', start: startS3 },
  { name: 'Azure Blob (Azurite)', start: startAzurite },
  { name: 'GCS (fake-gcs-server)', start: startGcs },
];

export interface SuiteServer {
  /** The running server; only inside tests that did not skip. */
  readonly store: Store;
  /** Why the server is not there, or null. */
  readonly skipped: string | null;
  skipIfUnavailable(ctx: TestContext): void;
}

/** Registers the hooks of `server` in the current describe block; `setUp` runs once, after it starts. */
export function serverForSuite(server: (typeof SERVERS)[number], setUp: (store: Store) => Promise<void>): SuiteServer {
  let store: Store | undefined;
  let skipped: string | null = null;
  beforeAll(async () => {
    const started = await server.start();
    if (isSkipped(started)) return void (skipped = started.skipped);
    store = started;
    await setUp(store);
  });
  afterAll(() => store?.stop());
  return {
    get store() {
      if (!store) throw new Error(`${server.name} is not running`);
      return store;
    },
    get skipped() {
      return skipped;
    },
    skipIfUnavailable(ctx) {
      if (skipped) ctx.skip(`${server.name} skipped: ${skipped}`);
    },
  };
}
