// AWS Glue through the CLI, on moto's Glue and S3 (IAM auth on) with the AWS credential chain (the environment's
// keys): databases and tables listed as Glue holds them, Delta ones told apart by their parameters as Spark and
// Athena register them, a Delta table opened at its StorageDescriptor.Location and time-travelled, and the rest
// refused in one line. Glue's entries are made through its own API (aws4fetch's signing), the rows expected come
// from DuckDB reading the local table's files.
import { browseCatalog } from '../../../electron/catalog/browse-catalog.js';
import { openCatalog } from '../../../electron/catalog/catalog-options.js';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { glueCall } from '../../support/glue.js';
import { isSkipped, startS3WithTable, type S3Store } from '../../support/object-stores.js';
import { tablePath } from '../../support/tables.js';
import { cli } from '../cli/run-cli.js';

const TABLE = tablePath('simple_table');
let s3: S3Store | undefined;
let skipped: string | null = null;

beforeAll(async () => {
  const store = await startS3WithTable(TABLE, 'warehouse/orders');
  if (isSkipped(store)) return void (skipped = store.skipped);
  s3 = store;
  const glue = (action: string, body: object) => glueCall(store, action, body);
  await glue('CreateDatabase', { DatabaseInput: { Name: 'sales' } });
  const table = (name: string, parameters: Record<string, string>, storage: object) =>
    glue('CreateTable', { DatabaseName: 'sales', TableInput: { Name: name, Parameters: parameters, StorageDescriptor: storage } });
  // As Athena registers a Delta table; as Spark does (the path in the SerDe's parameters, a placeholder location);
  // a Parquet table beside them.
  await table('orders', { table_type: 'DELTA' }, { Location: 's3://lake/warehouse/orders' });
  await table(
    'events',
    { 'spark.sql.sources.provider': 'delta' },
    { Location: 's3a://lake/warehouse/orders-__PLACEHOLDER__', SerdeInfo: { Parameters: { path: 's3a://lake/warehouse/orders' } } },
  );
  await table('raw', { classification: 'parquet' }, { Location: 's3://lake/raw' });
}, 120_000);
afterAll(() => s3?.stop());

function running(ctx: TestContext): S3Store {
  if (!s3) ctx.skip(`AWS Glue skipped: ${skipped}`);
  return s3!;
}

/** The environment's keys (the AWS credential chain), moto's Glue as the endpoint and its S3 for the tables' files. */
function aws(s3: S3Store, secret = s3.secretAccessKey): string[] {
  vi.stubEnv('AWS_ACCESS_KEY_ID', s3.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', secret);
  vi.stubEnv('AWS_REGION', s3.region);
  return [
    '--catalog-option',
    `endpoint=${s3.endpoint}`,
    '--storage-option',
    `endpoint=${s3.endpoint}`,
    '--storage-option',
    'path_style=true',
  ];
}

describe('AWS Glue through the CLI', () => {
  afterAll(() => vi.unstubAllEnvs());

  it('lists the databases, and the tables with their formats, Delta ones as delta', async (ctx) => {
    const store = running(ctx);
    const flags = aws(store);
    const catalogFlags = flags.slice(0, 2);
    expect(await cli('schemas', 'glue://', ...catalogFlags)).toEqual({ code: 0, stdout: 'sales\n', stderr: '' });
    const tables = await cli('tables', 'glue://sales', ...catalogFlags, '--json');
    expect(tables.stderr).toBe('');
    // Glue lists in no promised order.
    expect((JSON.parse(tables.stdout) as { name: string }[]).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'events', format: 'delta', location: 's3a://lake/warehouse/orders' },
      { name: 'orders', format: 'delta', location: 's3://lake/warehouse/orders' },
      { name: 'raw', format: 'parquet', location: 's3://lake/raw' },
    ]);
  });

  it('opens a Delta table at its location and reads an older version, as DuckDB reads it', async (ctx) => {
    const store = running(ctx);
    for (const name of ['orders', 'events']) {
      const run = await cli('preview', `glue://sales/${name}`, ...aws(store), '--version', '2', '--format', 'csv', '--limit', '1000');
      expect(run.stderr).toBe('');
      expect(run.stdout.trimEnd().split('\n').slice(1).sort()).toEqual((await duckdbRows(TABLE, 2, 'true', ['id'])).rows);
    }
  });

  it('refuses a table that is not Delta, one Glue does not have, and credentials it refuses, in one line', async (ctx) => {
    const store = running(ctx);
    expect(await cli('preview', 'glue://sales/raw', ...aws(store))).toEqual({
      code: 1,
      stdout: '',
      stderr: 'deltaport: sales.raw is a parquet table in AWS Glue, not a Delta table\n',
    });
    const missing = await cli('preview', 'glue://sales/nothing', ...aws(store));
    expect(missing.stderr).toMatch(/^deltaport: AWS Glue has no table sales\.nothing \(.*\)\n$/);
    const refused = await cli('schemas', 'glue://', ...aws(store, 'not-the-secret').slice(0, 2));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^deltaport: cannot list the databases: AWS Glue refused the credentials \(.*\)\n$/);
    expect(refused.stderr.split('\n')).toHaveLength(2);
    expect(await cli('catalogs', 'glue://', ...aws(store).slice(0, 2))).toEqual({
      code: 2,
      stdout: '',
      stderr: 'deltaport: AWS Glue has one catalog per account and region: list its databases with deltaport schemas glue://\n',
    });
  });
});

describe('AWS Glue in the navigator', () => {
  afterAll(() => vi.unstubAllEnvs());

  it('shows databases as folders, Delta tables as tables named through the connection, others by format', async (ctx) => {
    const store = running(ctx);
    aws(store);
    const catalog = await openCatalog('glue', { endpoint: store.endpoint });
    expect(await browseCatalog(catalog, 'glue://lake')).toEqual({
      entries: [{ name: 'sales', kind: 'folder', location: 'glue://lake/sales' }],
      nextPage: null,
    });
    const tables = await browseCatalog(catalog, 'glue://lake/sales');
    expect(tables.nextPage).toBeNull();
    expect(tables.entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'events', kind: 'table', location: 'glue://lake/sales/events' },
      { name: 'orders', kind: 'table', location: 'glue://lake/sales/orders' },
      { name: 'raw', kind: 'other', location: 'glue://lake/sales/raw', detail: 'parquet' },
    ]);
  });
});
