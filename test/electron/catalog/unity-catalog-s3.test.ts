// Unity Catalog tables in S3 (moto, IAM auth on), read only with the credentials the catalog vends. The open-source
// server vends S3 credentials from its s3.* properties, and none it can make is one moto's IAM accepts: with a
// session token it vends that token's keys as they are (moto's STS GetSessionToken gives fixed example keys that its
// own S3 refuses, and an IAM user's keys come without one), without one it asks AWS STS for an assumed role, which
// it cannot be pointed away from. So the credentials call is answered by a loopback stand-in that vends a new access
// key of moto's IAM each time, with the expiry the test says, in front of the real server for every other call
// (finding the table, its location). Expected rows come from DuckDB reading the local table's files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { openCatalog } from '../../../electron/catalog/catalog-options.js';
import { RENEW_BEFORE_MS } from '../../../electron/storage/renewed-credentials.js';
import { engineFrom } from '../../../electron/delta/engine/engine-context.js';
import { previewRows } from '../../../electron/delta/preview-rows.js';
import { parallelScan } from '../../../electron/delta/scan/parallel-scan.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { failure } from '../../support/failure.js';
import { startGatedProxy } from '../../support/gated-http-proxy.js';
import { isSkipped, LAKE_BUCKET as BUCKET, startS3WithTable, type S3Store } from '../../support/object-stores.js';
import { tablePath } from '../../support/tables.js';
import { startUnityCatalog, UNITY_CATALOG_START_MS, type UnityCatalogServer } from '../../support/unity-catalog.js';
import { startVendingStandIn, type VendingStandIn } from '../../support/unity-catalog-vending.js';
import { cli } from '../cli/run-cli.js';

const TABLE = tablePath('simple_table');
/** A credential vended with this long to live is due for renewal this soon (RENEW_BEFORE_MS before its expiry): time
 * enough to open the table on a busy machine before it is. */
const SHORT_LIFE_MS = RENEW_BEFORE_MS + 5_000;

/** Until the credential vended `index`-th is due for renewal. */
function untilDue(vending: VendingStandIn, index: number): Promise<void> {
  const wait = vending.expiries[index] - RENEW_BEFORE_MS - Date.now() + 100;
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
}
const scratch = mkdtempSync(path.join(tmpdir(), 'deltaport-uc-s3-'));
let s3: S3Store | undefined;
let uc: UnityCatalogServer | undefined;
let skipped: string | null = null;

beforeAll(async () => {
  const store = await startS3WithTable(TABLE, 'sales/orders', 'sales/renewed');
  if (isSkipped(store)) return void (skipped = store.skipped);
  s3 = store;
  const server = await startUnityCatalog();
  if (isSkipped(server)) return void (skipped = server.skipped);
  uc = server;
  await uc.createTable('main.sales.orders', `s3://${BUCKET}/sales/orders`);
  await uc.createTable('main.sales.renewed', `s3://${BUCKET}/sales/renewed`);
}, UNITY_CATALOG_START_MS);
afterAll(async () => {
  await uc?.stop();
  await s3?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function running(ctx: TestContext): { uc: UnityCatalogServer; s3: S3Store } {
  if (!uc || !s3) ctx.skip(`Unity Catalog on S3 skipped: ${skipped}`);
  return { uc: uc!, s3: s3! };
}

/** Where the bucket is; no keys: those are the catalog's to give. */
const storeFlags = (s3: S3Store) => ['--storage-option', `endpoint=${s3.endpoint}`, '--storage-option', 'path_style=true'];

describe('Unity Catalog tables in S3', () => {
  it('reads a table with the credential the catalog vends, not the environment’s', async (ctx) => {
    const { uc, s3 } = running(ctx);
    const vending = await startVendingStandIn(uc, s3, [3_600_000]);
    // Keys moto does not know: a read that used them would be refused.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIANOTKNOWNTOMOTO00');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'not-a-secret');
    try {
      const flags = ['--catalog-option', `endpoint=${vending.endpoint}`, '--catalog-option', `token=${uc.adminToken}`, ...storeFlags(s3)];
      const preview = await cli('preview', 'uc://main.sales.orders', ...flags, '--version', '3', '--format', 'csv', '--limit', '1000');
      expect(preview.stderr).toBe('');
      expect(preview.stdout.trimEnd().split('\n').slice(1).sort()).toEqual((await duckdbRows(TABLE, 3, 'true', ['id'])).rows);
      // An export scans in a thread of its own, which is given the vended credential as data.
      const out = path.join(scratch, 'orders.csv');
      const run = await cli('export', 'uc://main.sales.orders', ...flags, '--sink', `csv:${out}`);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^exported \d+ rows/);
      expect(vending.keys).toHaveLength(2);
    } finally {
      vi.unstubAllEnvs();
      await vending.stop();
    }
  });

  it('asks for a new credential before the old one expires, and goes on reading with it', async (ctx) => {
    const { uc, s3 } = running(ctx);
    // The first credential is due for renewal soon after it is vended; the next lasts an hour.
    const vending = await startVendingStandIn(uc, s3, [SHORT_LIFE_MS, 3_600_000]);
    try {
      const catalog = await openCatalog('unity', { endpoint: vending.endpoint, token: uc.adminToken });
      const base = engineFrom({ storeOptions: [{ prefix: 's3://', options: { endpoint: s3.endpoint, path_style: 'true' } }] });
      const resolved = await catalog.resolveTable({ catalog: 'main', schema: 'sales', table: 'renewed' }, base);
      const table = await DeltaTable.open(resolved.location, resolved.engine);
      expect(vending.keys).toHaveLength(1);
      // The first credential comes within RENEW_BEFORE_MS of its expiry, then is revoked: only a new one can read.
      await untilDue(vending, 0);
      await vending.revoke(vending.keys[0]);
      const preview = await previewRows({ tablePath: resolved.location, versionAsOf: 1 }, { limit: 1000, openTable: async () => table });
      const ids: string[] = [];
      for await (const batch of preview.batches) for (const row of batch.toArray()) ids.push(String(row.id));
      expect(ids.sort()).toEqual((await duckdbRows(TABLE, 1, 'true', ['id'])).rows);
      expect(vending.keys).toHaveLength(2);
    } finally {
      await vending.stop();
    }
  });

  it('renews the credential in a scan thread mid-scan: the thread asks the thread that opened the table for the next', async (ctx) => {
    const { uc, s3 } = running(ctx);
    // Vending a credential revokes the one before it: a thread that went on with the first would be refused.
    const vending = await startVendingStandIn(uc, s3, [SHORT_LIFE_MS, 3_600_000]);
    // The scan's data files are held at the store's door until the first credential is due for renewal.
    const proxy = await startGatedProxy(s3.endpoint, (request) => request.includes('.parquet'));
    try {
      const catalog = await openCatalog('unity', { endpoint: vending.endpoint, token: uc.adminToken });
      const base = engineFrom({ storeOptions: [{ prefix: 's3://', options: { endpoint: proxy.url, path_style: 'true' } }] });
      const resolved = await catalog.resolveTable({ catalog: 'main', schema: 'sales', table: 'renewed' }, base);
      const snapshot = await (await DeltaTable.open(resolved.location, resolved.engine)).snapshot({ version: 1 });
      const ids: string[] = [];
      const scanning = (async () => {
        for await (const { batch } of parallelScan(snapshot, { engine: resolved.engine }))
          for (const row of batch.toArray()) ids.push(String(row.id));
      })();
      await proxy.firstHeld();
      expect(vending.keys).toHaveLength(1);
      await untilDue(vending, 0);
      proxy.open();
      await scanning;
      expect(ids.sort()).toEqual((await duckdbRows(TABLE, 1, 'true', ['id'])).rows);
      expect(vending.keys).toHaveLength(2);
    } finally {
      await proxy.close();
      await vending.stop();
    }
  });

  it('ends a scan thread in one line, the catalog’s, when the catalog refuses the next credential', async (ctx) => {
    const { uc, s3 } = running(ctx);
    const vending = await startVendingStandIn(uc, s3, [SHORT_LIFE_MS]);
    const proxy = await startGatedProxy(s3.endpoint, (request) => request.includes('.parquet'));
    try {
      const catalog = await openCatalog('unity', { endpoint: vending.endpoint, token: uc.adminToken });
      const base = engineFrom({ storeOptions: [{ prefix: 's3://', options: { endpoint: proxy.url, path_style: 'true' } }] });
      const resolved = await catalog.resolveTable({ catalog: 'main', schema: 'sales', table: 'renewed' }, base);
      const snapshot = await (await DeltaTable.open(resolved.location, resolved.engine)).snapshot({ version: 1 });
      const scanning = (async () => {
        for await (const _ of parallelScan(snapshot, { engine: resolved.engine }));
      })();
      await proxy.firstHeld();
      // The permission is taken away while the scan reads: the next credential is refused.
      vending.refuse();
      await untilDue(vending, 0);
      proxy.open();
      const err = await failure(scanning);
      expect([err.code, err.message]).toEqual([
        'FORBIDDEN',
        'the token may not read main.sales.renewed: it needs the SELECT permission on the table (with USE CATALOG and USE SCHEMA on its catalog and schema) (User does not have SELECT on the table)',
      ]);
      expect(vending.keys).toHaveLength(1);
    } finally {
      await proxy.close();
      await vending.stop();
    }
  });

  it('exports a table with credentials that expire mid-export, renewed as it goes', async (ctx) => {
    const { uc, s3 } = running(ctx);
    const vending = await startVendingStandIn(uc, s3, [SHORT_LIFE_MS, SHORT_LIFE_MS, 3_600_000]);
    const proxy = await startGatedProxy(s3.endpoint, (request) => request.includes('.parquet'));
    try {
      const out = path.join(scratch, 'renewed.csv');
      const flags = [
        '--catalog-option',
        `endpoint=${vending.endpoint}`,
        '--catalog-option',
        `token=${uc.adminToken}`,
        '--storage-option',
        `endpoint=${proxy.url}`,
        '--storage-option',
        'path_style=true',
      ];
      const exporting = cli('export', 'uc://main.sales.renewed', ...flags, '--version', '1', '--sink', `csv:${out}`);
      // Held twice, each time until the credential the export reads with is due for renewal: the next one vended
      // revokes it, so each hold is passed only with a new credential.
      await proxy.firstHeld();
      expect(vending.keys).toHaveLength(1);
      await untilDue(vending, 0);
      proxy.open();
      proxy.shut();
      await proxy.firstHeld();
      expect(vending.keys).toHaveLength(2);
      await untilDue(vending, 1);
      proxy.open();
      const run = await exporting;
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^exported \d+ rows/);
      expect(vending.keys).toHaveLength(3);
      const rows = (await duck(`SELECT CAST(id AS VARCHAR) AS id FROM read_csv(${sqlText(out)}) ORDER BY id`)).map((r) => r.id);
      expect(rows.sort()).toEqual((await duckdbRows(TABLE, 1, 'true', ['id'])).rows);
    } finally {
      await proxy.close();
      await vending.stop();
    }
  });

  it('fails in one line when the credential the catalog vends is refused by the store', async (ctx) => {
    const { uc, s3 } = running(ctx);
    const vending = await startVendingStandIn(uc, s3, [3_600_000], { revokeAtOnce: true });
    try {
      const catalog = await openCatalog('unity', { endpoint: vending.endpoint, token: uc.adminToken });
      const base = engineFrom({ storeOptions: [{ prefix: 's3://', options: { endpoint: s3.endpoint, path_style: 'true' } }] });
      const resolved = await catalog.resolveTable({ catalog: 'main', schema: 'sales', table: 'renewed' }, base);
      const err = await failure(DeltaTable.open(resolved.location, resolved.engine));
      expect(err.code).toBe('STORAGE');
      expect(err.message).toBe(`cannot list s3://${BUCKET}/sales/renewed: access denied for access key ${vending.keys[0]}`);
    } finally {
      await vending.stop();
    }
  });
});
