// An AWS Glue table through a saved catalog connection in `deltaport serve`, on moto's Glue and S3 (IAM auth on):
// the host's AWS credential chain (its environment's keys) reaches Glue and the bucket, the saved storage connection
// gives the bucket's endpoint. The database is browsed and the Delta table opened by glue://<connection>/db/table and
// time-travelled. Glue's entries are made through its own API, the rows expected come from DuckDB reading the local
// table's files. Needs the build (npm run build).
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import type { BrowsePage } from '../../../shared/browse.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { glueCall } from '../../support/glue.js';
import { isSkipped, startS3WithTable, type S3Store } from '../../support/object-stores.js';
import { apiValue as value, startServe, type ServedApp } from '../../support/serve.js';
import { tablePath } from '../../support/tables.js';

const TABLE = tablePath('simple_table');
let s3: S3Store | undefined;
let host: ServedApp | undefined;
let skipped: string | null = null;

beforeAll(async () => {
  const store = await startS3WithTable(TABLE, 'warehouse/orders');
  if (isSkipped(store)) return void (skipped = store.skipped);
  s3 = store;
  await glueCall(store, 'CreateDatabase', { DatabaseInput: { Name: 'sales' } });
  await glueCall(store, 'CreateTable', {
    DatabaseName: 'sales',
    TableInput: { Name: 'orders', Parameters: { table_type: 'DELTA' }, StorageDescriptor: { Location: 's3://lake/warehouse/orders' } },
  });
  await glueCall(store, 'CreateTable', {
    DatabaseName: 'sales',
    TableInput: { Name: 'raw', Parameters: { classification: 'parquet' }, StorageDescriptor: { Location: 's3://lake/raw' } },
  });
  vi.stubEnv('AWS_ACCESS_KEY_ID', store.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', store.secretAccessKey);
  try {
    host = await startServe();
  } finally {
    vi.unstubAllEnvs();
  }
}, 120_000);
afterAll(async () => {
  await host?.stop();
  await s3?.stop();
});

function running(ctx: TestContext) {
  if (!host || !s3) ctx.skip(`AWS Glue skipped: ${skipped}`);
  return { host: host!, s3: s3! };
}

describe('an AWS Glue table in deltaport serve', () => {
  it('browses the database and opens the Delta table by its name, at an older version', async (ctx) => {
    const { host, s3 } = running(ctx);
    await value(host, 'saveStorageConnection', {
      name: 'moto',
      prefix: 's3://lake',
      options: { endpoint: s3.endpoint, path_style: 'true' },
    });
    await value(host, 'saveCatalogConnection', { name: 'lake', kind: 'glue', options: { endpoint: s3.endpoint, region: s3.region } });
    const page = await value<BrowsePage>(host, 'browseCatalog', { location: 'glue://lake/sales' });
    // Glue lists in no promised order.
    expect(page.entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'orders', kind: 'table', location: 'glue://lake/sales/orders' },
      { name: 'raw', kind: 'other', location: 'glue://lake/sales/raw', detail: 'parquet' },
    ]);
    const info = await value<{ path: string }>(host, 'openTable', { path: 'glue://lake/sales/orders' });
    expect(info.path).toBe('glue://lake/sales/orders');
    const preview = await value<{ version: number; rows: unknown[][] }>(host, 'preview', {
      source: { tablePath: 'glue://lake/sales/orders', versionAsOf: 2, columnNames: ['id'] },
      limit: 1000,
    });
    expect(preview.version).toBe(2);
    expect(preview.rows.map((r) => String(r[0])).sort()).toEqual((await duckdbRows(TABLE, 2, 'true', ['id'])).rows);
  });
});
