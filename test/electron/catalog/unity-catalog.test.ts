// The CLI and the navigator's browsing over a real Unity Catalog server (test/support/unity-catalog.ts, authorization
// on): catalogs, schemas and tables listed as the server holds them, a Delta table opened by its name, time-travelled and exported, and the
// tables it must refuse (one the token may not read, one that is not Delta, a catalog-managed one) refused in one
// line. The tables are copies of shared tables in local folders (file:// locations); expected rows come from DuckDB
// reading the copies' files, expected versions from their logs.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { browseCatalog } from '../../../electron/catalog/browse-catalog.js';
import { openCatalog } from '../../../electron/catalog/catalog-options.js';
import { commitFile, commitVersions } from '../../support/delta-oracle.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { failure } from '../../support/failure.js';
import { isSkipped } from '../../support/object-stores.js';
import { tablePath } from '../../support/tables.js';
import { startUnityCatalog, UNITY_CATALOG_START_MS, type UnityCatalogServer } from '../../support/unity-catalog.js';
import { cli } from '../cli/run-cli.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'deltaport-uc-cli-'));
const orders = path.join(scratch, 'orders');
const managed = path.join(scratch, 'managed');
let server: UnityCatalogServer | undefined;
let skipped: string | null = null;

beforeAll(async () => {
  const started = await startUnityCatalog();
  if (isSkipped(started)) return void (skipped = started.skipped);
  server = started;
  cpSync(tablePath('simple_table'), orders, { recursive: true });
  cpSync(tablePath('simple_table'), managed, { recursive: true });
  catalogManaged(managed);
  await server.createTable('main.sales.orders', pathToFileURL(orders).href);
  await server.createTable('main.sales.managed', pathToFileURL(managed).href);
  await server.createTable('main.sales.raw', pathToFileURL(path.join(scratch, 'raw')).href, 'PARQUET');
  // The server refuses two tables over one folder.
  cpSync(tablePath('simple_table'), path.join(scratch, 'people'), { recursive: true });
  await server.createTable('main.hr.people', pathToFileURL(path.join(scratch, 'people')).href);
}, UNITY_CATALOG_START_MS);
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function running(ctx: TestContext): UnityCatalogServer {
  if (!server) ctx.skip(`Unity Catalog skipped: ${skipped}`);
  return server!;
}

/** The flags that reach the server as its admin. */
const admin = (uc: UnityCatalogServer) => ['--catalog-option', `endpoint=${uc.endpoint}`, '--catalog-option', `token=${uc.adminToken}`];

/** Rewrites the table's first protocol as a catalog-managed table's (reader and writer feature catalogManaged). */
function catalogManaged(root: string): void {
  const file = commitFile(root, 0);
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  const protocol = { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['catalogManaged'], writerFeatures: ['catalogManaged'] };
  const rewritten = lines.map((line) => ('protocol' in JSON.parse(line) ? JSON.stringify({ protocol }) : line));
  writeFileSync(file, `${rewritten.join('\n')}\n`);
}

describe('Unity Catalog through the CLI', () => {
  it('lists catalogs, schemas and tables with their formats and locations', async (ctx) => {
    const uc = running(ctx);
    const catalogs = await cli('catalogs', 'uc://', ...admin(uc));
    expect(catalogs).toEqual({ code: 0, stdout: 'main\n', stderr: '' });
    const schemas = await cli('schemas', 'uc://main', ...admin(uc), '--json');
    expect(JSON.parse(schemas.stdout)).toEqual(['hr', 'sales']);
    const tables = await cli('tables', 'uc://main.sales', ...admin(uc), '--json');
    expect(tables.code).toBe(0);
    expect(JSON.parse(tables.stdout)).toEqual([
      { name: 'managed', format: 'delta', location: pathToFileURL(managed).href },
      { name: 'orders', format: 'delta', location: pathToFileURL(orders).href },
      { name: 'raw', format: 'parquet', location: pathToFileURL(path.join(scratch, 'raw')).href },
    ]);
  });

  it('opens a table by its name: history from its log, rows of an older version as DuckDB reads them', async (ctx) => {
    const uc = running(ctx);
    const history = await cli('history', 'uc://main.sales.orders', ...admin(uc), '--json');
    expect(history.code).toBe(0);
    expect((JSON.parse(history.stdout) as { version: number }[]).map((c) => c.version)).toEqual(commitVersions(orders).reverse());
    for (const version of [1, 3]) {
      const preview = await cli(
        'preview',
        'uc://main.sales.orders',
        ...admin(uc),
        '--version',
        String(version),
        '--format',
        'csv',
        '--limit',
        '1000',
      );
      expect(preview.stderr).toBe('');
      const [header, ...rows] = preview.stdout.trimEnd().split('\n');
      expect(header).toBe('id');
      expect(rows.sort()).toEqual((await duckdbRows(orders, version, 'true', ['id'])).rows);
    }
  });

  it('runs SQL over a version of a table named in the catalog', async (ctx) => {
    const uc = running(ctx);
    const run = await cli('sql', 'uc://main.sales.orders', 'SELECT id FROM t@3', ...admin(uc), '--format', 'csv');
    expect(run.stderr).toBe('');
    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(header).toBe('id');
    expect(rows.sort()).toEqual((await duckdbRows(orders, 3, 'true', ['id'])).rows);
  });

  it('exports a version of a table named in the catalog, into a SQLite table named after it', async (ctx) => {
    const uc = running(ctx);
    const db = path.join(scratch, 'orders.db');
    // The token as Databricks' own tools find it.
    vi.stubEnv('DATABRICKS_TOKEN', uc.adminToken);
    try {
      const run = await cli(
        'export',
        'uc://main.sales.orders',
        '--catalog-option',
        `endpoint=${uc.endpoint}`,
        '--version',
        '2',
        '--sink',
        `sqlite:${db}`,
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    const sqlite = new Database(db, { readonly: true });
    const rows = sqlite.prepare('SELECT CAST(id AS TEXT) AS id FROM orders').all() as { id: string }[];
    sqlite.close();
    expect(rows.map((r) => r.id).sort()).toEqual((await duckdbRows(orders, 2, 'true', ['id'])).rows);
  });

  it('refuses in one line a table the token may not read, naming the table and the permission', async (ctx) => {
    const uc = running(ctx);
    const token = await uc.userToken('reader@example.com');
    const run = await cli(
      'preview',
      'uc://main.sales.orders',
      '--catalog-option',
      `endpoint=${uc.endpoint}`,
      '--catalog-option',
      `token=${token}`,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^deltaport: the token may not read main\.sales\.orders: it needs the SELECT permission on the table .*\n$/);
    expect(run.stderr.split('\n')).toHaveLength(2);
  });

  it('says a token is needed where the server asks for one', async (ctx) => {
    const uc = running(ctx);
    vi.stubEnv('DATABRICKS_TOKEN', '');
    vi.stubEnv('UC_TOKEN', '');
    try {
      const run = await cli('schemas', 'uc://main', '--catalog-option', `endpoint=${uc.endpoint}`);
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `deltaport: cannot list the schemas of main: Unity Catalog at ${uc.endpoint} needs a token (set DATABRICKS_TOKEN or UC_TOKEN)\n`,
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses a table that is not Delta, one the catalog does not have, and a catalog-managed one, by name', async (ctx) => {
    const uc = running(ctx);
    const raw = await cli('preview', 'uc://main.sales.raw', ...admin(uc));
    expect(raw).toEqual({
      code: 1,
      stdout: '',
      stderr: 'deltaport: main.sales.raw is a parquet table in Unity Catalog, not a Delta table\n',
    });
    const missing = await cli('schema', 'uc://main.sales.nothing', ...admin(uc));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^deltaport: Unity Catalog has no table main\.sales\.nothing \(.*\)\n$/);
    const managedRun = await cli('preview', 'uc://main.sales.managed', ...admin(uc));
    expect(managedRun.code).toBe(1);
    expect(managedRun.stderr).toBe(
      "deltaport: This table is managed by its catalog (reader feature 'catalogManaged'): its latest commits are kept by the catalog, and Deltaport reads only tables whose log is complete in storage.\n",
    );
  });

  it('says what a catalog name should look like, and which flags apply', async () => {
    expect(await cli('preview', 'uc://main.orders', '--catalog-option', 'endpoint=http://127.0.0.1:1')).toEqual({
      code: 2,
      stdout: '',
      stderr: "deltaport: 'uc://main.orders' is not a Unity Catalog table name: write uc://catalog.schema.table\n",
    });
    expect((await cli('preview', tablePath('simple_table'), '--catalog-option', 'token=x')).stderr).toBe(
      `deltaport: --catalog-option applies to tables named in a catalog (uc://, glue://), not to ${tablePath('simple_table')}\n`,
    );
    expect((await cli('tables', 'uc://main', '--catalog-option', 'endpoint=http://127.0.0.1:1')).stderr).toBe(
      "deltaport: tables takes uc://catalog.schema or glue://database, not 'uc://main'\n",
    );
  });
});

describe('Unity Catalog in the navigator', () => {
  it('shows catalogs and schemas as folders, Delta tables as tables named through the connection, others by format', async (ctx) => {
    const uc = running(ctx);
    const catalog = await openCatalog('unity', { endpoint: uc.endpoint, token: uc.adminToken });
    expect(await browseCatalog(catalog, 'uc://work')).toEqual({
      entries: [{ name: 'main', kind: 'folder', location: 'uc://work/main' }],
      nextPage: null,
    });
    expect(await browseCatalog(catalog, 'uc://work/main')).toEqual({
      entries: [
        { name: 'hr', kind: 'folder', location: 'uc://work/main.hr' },
        { name: 'sales', kind: 'folder', location: 'uc://work/main.sales' },
      ],
      nextPage: null,
    });
    expect(await browseCatalog(catalog, 'uc://work/main.sales')).toEqual({
      entries: [
        { name: 'managed', kind: 'table', location: 'uc://work/main.sales.managed' },
        { name: 'orders', kind: 'table', location: 'uc://work/main.sales.orders' },
        { name: 'raw', kind: 'other', location: 'uc://work/main.sales.raw', detail: 'parquet' },
      ],
      nextPage: null,
    });
    expect((await failure(browseCatalog(catalog, 'uc://work/main.sales.orders'))).message).toBe(
      "'uc://work/main.sales.orders' is a table, not a place that holds tables",
    );
  });
});
