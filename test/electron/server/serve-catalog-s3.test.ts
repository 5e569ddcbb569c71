// A Unity Catalog table in S3 (moto, IAM auth on) read by `deltaport serve` with only the credentials the catalog
// vends: the host's environment holds keys moto does not know, and the saved storage connection gives the bucket's
// endpoint and no keys. The worker threads ask the catalog for the credential themselves and ask again before it
// expires (test/support/unity-catalog-vending.ts vends moto IAM keys with the life the test says, in front of the
// real server). Expected rows come from DuckDB reading the local table's files. Needs the build (npm run build).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { RENEW_BEFORE_MS } from '../../../electron/storage/renewed-credentials.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { isSkipped, startS3WithTable, type S3Store } from '../../support/object-stores.js';
import { apiValue as value, exportToEnd, startServe, type ServedApp } from '../../support/serve.js';
import { tablePath } from '../../support/tables.js';
import { startUnityCatalog, UNITY_CATALOG_START_MS, type UnityCatalogServer } from '../../support/unity-catalog.js';
import { startVendingStandIn, type VendingStandIn } from '../../support/unity-catalog-vending.js';

const TABLE = tablePath('simple_table');
const ORDERS = 'uc://work/main.sales.orders';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-serve-uc-s3-'));
let s3: S3Store | undefined;
let uc: UnityCatalogServer | undefined;
let vending: VendingStandIn | undefined;
let host: ServedApp | undefined;
let skipped: string | null = null;

beforeAll(async () => {
  const store = await startS3WithTable(TABLE, 'sales/orders');
  if (isSkipped(store)) return void (skipped = store.skipped);
  s3 = store;
  const server = await startUnityCatalog();
  if (isSkipped(server)) return void (skipped = server.skipped);
  uc = server;
  await uc.createTable('main.sales.orders', 's3://lake/sales/orders');
  // The first credential is due for renewal 5 s after it is vended (time to open the table on a busy machine); the
  // next lasts an hour.
  vending = await startVendingStandIn(uc, s3, [RENEW_BEFORE_MS + 5_000, 3_600_000]);
  // Keys moto does not know: a read that used them would be refused.
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIANOTKNOWNTOMOTO00');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'not-a-secret');
  try {
    host = await startServe();
  } finally {
    vi.unstubAllEnvs();
  }
}, UNITY_CATALOG_START_MS);
afterAll(async () => {
  await host?.stop();
  await vending?.stop();
  await uc?.stop();
  await s3?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function running(ctx: TestContext) {
  if (!host || !vending || !uc || !s3) ctx.skip(`Unity Catalog on S3 skipped: ${skipped}`);
  return { host: host!, vending: vending!, uc: uc!, s3: s3! };
}

describe('a Unity Catalog table in S3 in deltaport serve', () => {
  it('is read with the vended credential, renewed in the worker before it expires, and exported', async (ctx) => {
    const { host, vending, uc, s3 } = running(ctx);
    await value(host, 'saveStorageConnection', { name: 'moto', prefix: 's3://', options: { endpoint: s3.endpoint, path_style: 'true' } });
    await value(host, 'saveCatalogConnection', {
      name: 'work',
      kind: 'unity',
      options: { endpoint: vending.endpoint, token: uc.adminToken },
    });
    const info = await value<{ path: string }>(host, 'openTable', { path: ORDERS });
    expect(info.path).toBe(ORDERS);
    expect(vending.keys).toHaveLength(1);
    // Once the first credential is within RENEW_BEFORE_MS of its expiry, it is revoked: only a new one can read.
    await new Promise((resolve) => setTimeout(resolve, vending.expiries[0] - RENEW_BEFORE_MS - Date.now() + 100));
    await vending.revoke(vending.keys[0]);
    const preview = await value<{ rows: unknown[][] }>(host, 'preview', {
      source: { tablePath: ORDERS, versionAsOf: 1, columnNames: ['id'] },
      limit: 1000,
    });
    expect(preview.rows.map((r) => String(r[0])).sort()).toEqual((await duckdbRows(TABLE, 1, 'true', ['id'])).rows);
    expect(vending.keys).toHaveLength(2);

    // An export runs in a thread of its own, which asks the catalog for its own credential.
    const out = path.join(scratch, 'orders.jsonl');
    const done = await exportToEnd(host, {
      source: { tablePath: ORDERS, versionAsOf: 2 },
      sink: { kind: 'jsonl', path: out },
    });
    expect([done.state, done.error]).toEqual(['succeeded', null]);
    const ids = fs
      .readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => String((JSON.parse(line) as { id: unknown }).id));
    expect(ids.sort()).toEqual((await duckdbRows(TABLE, 2, 'true', ['id'])).rows);
    expect(vending.keys).toHaveLength(3);
  });
});
