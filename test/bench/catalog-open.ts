// The catalog case of the benchmark: a table opened by its Unity Catalog name costs the catalog's calls (finding the
// table, vending its credential) plus the same storage reads as opening its location directly. The real Unity
// Catalog server holds an external table on moto's S3; its credentials call is answered by the tests' vending
// stand-in (the open-source server cannot vend for moto: test/support/unity-catalog-vending.ts). Loopback proxies in
// front of the store and of the catalog count the requests each open makes. Each open is cold: a new engine, and a
// new catalog client. The table is small and fixed, in quick mode and not.
import path from 'node:path';
import { catalogTableOpener } from '../../electron/cli/catalog-table.js';
import { engineFrom } from '../../electron/delta/engine/engine-context.js';
import { DeltaTable } from '../../electron/delta/table.js';
import { startGatedProxy, type GatedProxy } from '../support/gated-http-proxy.js';
import { isSkipped, LAKE_BUCKET, startS3WithTable, type S3Store } from '../support/object-stores.js';
import { startUnityCatalog, type UnityCatalogServer } from '../support/unity-catalog.js';
import { startVendingStandIn, type VendingStandIn } from '../support/unity-catalog-vending.js';
import type { Figure } from './report.js';

/** A small table with a checkpoint and commits after it, beside the repository. */
const TABLE = path.resolve(import.meta.dirname, '../../../../shared/delta-tables/simple_table_with_checkpoint');
const KEY = 'bench/orders';
const NAME = 'main.bench.orders';

export interface CatalogOpenFigures {
  /** Opening s3://…/orders and reading its latest snapshot. */
  directMs: Figure;
  directStoreRequests: Figure;
  /** The same by its name, uc://main.bench.orders. */
  catalogMs: Figure;
  catalogStoreRequests: Figure;
  catalogCalls: Figure;
}

export async function catalogOpenCase(): Promise<CatalogOpenFigures> {
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const s3 = await startS3WithTable(TABLE, KEY);
    if (isSkipped(s3)) return unmeasured(s3.skipped);
    stops.push(() => s3.stop());
    const uc = await startUnityCatalog();
    if (isSkipped(uc)) return unmeasured(uc.skipped);
    stops.push(() => uc.stop());
    await uc.createTable(NAME, `s3://${LAKE_BUCKET}/${KEY}`);
    const vending = await startVendingStandIn(uc, s3, [3_600_000]);
    stops.push(() => vending.stop());
    const store = await startGatedProxy(s3.endpoint, () => false);
    stops.push(() => store.close());
    const catalog = await startGatedProxy(vending.endpoint, () => false);
    stops.push(() => catalog.close());
    return await measureOpens(s3, uc, vending, store, catalog);
  } catch (err) {
    return unmeasured((err as Error).message.split('\n')[0]);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

async function measureOpens(
  s3: S3Store,
  uc: UnityCatalogServer,
  vending: VendingStandIn,
  store: GatedProxy,
  catalog: GatedProxy,
): Promise<CatalogOpenFigures> {
  const at = { endpoint: store.url, path_style: 'true', region: s3.region };
  const keys = { access_key_id: s3.accessKeyId, secret_access_key: s3.secretAccessKey };

  // The first open from S3 in a process loads the reader's and the S3 client's code (about a second): a warm-up open
  // pays it, with a client of its own (options without the region), so that each open measured still makes its own.
  const { region: _region, ...unregioned } = at;
  await (
    await DeltaTable.open(
      `s3://${LAKE_BUCKET}/${KEY}`,
      engineFrom({ storeOptions: [{ prefix: 's3://', options: { ...unregioned, ...keys } }] }),
    )
  ).snapshot();
  let before = store.requests.length;
  let started = performance.now();
  const direct = await (
    await DeltaTable.open(`s3://${LAKE_BUCKET}/${KEY}`, engineFrom({ storeOptions: [{ prefix: 's3://', options: { ...at, ...keys } }] }))
  ).snapshot();
  const directMs = performance.now() - started;
  const directStoreRequests = store.requests.length - before;

  before = store.requests.length;
  const callsBefore = catalog.requests.length;
  started = performance.now();
  // The bucket's address only: the keys are the catalog's to vend.
  const open = catalogTableOpener(
    `uc://${NAME}`,
    { endpoint: catalog.url, token: uc.adminToken },
    engineFrom({ storeOptions: [{ prefix: 's3://', options: at }] }),
  );
  const named = await (await open(`uc://${NAME}`)).snapshot();
  const catalogMs = performance.now() - started;
  if (named.version !== direct.version)
    throw new Error(`the catalog's table read version ${named.version}, its location ${direct.version}`);
  if (vending.keys.length !== 1) throw new Error(`the catalog vended ${vending.keys.length} credentials for one open`);
  return {
    directMs: { value: directMs },
    directStoreRequests: { value: directStoreRequests },
    catalogMs: { value: catalogMs },
    catalogStoreRequests: { value: store.requests.length - before },
    catalogCalls: { value: catalog.requests.length - callsBefore },
  };
}

function unmeasured(error: string): CatalogOpenFigures {
  const e = { error };
  return { directMs: e, directStoreRequests: e, catalogMs: e, catalogStoreRequests: e, catalogCalls: e };
}
