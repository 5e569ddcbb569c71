// Tables named through a saved catalog connection in `deltaport serve` (the real host, over its HTTP API), against the
// real Unity Catalog server (test/support/unity-catalog.ts): opened by uc://<connection>/catalog.schema.table on the
// shared worker, time-travelled, previewed, exported in a job's own thread, remembered by name among the recent
// tables, and refused in one line where the catalog refuses. Expected versions come from the table's log, expected
// rows from DuckDB reading its files. Needs the build (npm run build).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { JobInfo } from '../../../shared/api.js';
import { commitVersions } from '../../support/delta-oracle.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { isSkipped } from '../../support/object-stores.js';
import { apiValue as value, exportToEnd, startServe, type ServedApp } from '../../support/serve.js';
import { tablePath } from '../../support/tables.js';
import { startUnityCatalog, UNITY_CATALOG_START_MS, type UnityCatalogServer } from '../../support/unity-catalog.js';

const ORDERS = 'uc://work/main.sales.orders';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-serve-uc-'));
const orders = path.join(scratch, 'orders');
let uc: UnityCatalogServer | undefined;
let host: ServedApp | undefined;
let skipped: string | null = null;

beforeAll(async () => {
  const started = await startUnityCatalog();
  if (isSkipped(started)) return void (skipped = started.skipped);
  uc = started;
  fs.cpSync(tablePath('simple_table'), orders, { recursive: true });
  await uc.createTable('main.sales.orders', pathToFileURL(orders).href);
  host = await startServe();
}, UNITY_CATALOG_START_MS);
afterAll(async () => {
  await host?.stop();
  await uc?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function running(ctx: TestContext): { uc: UnityCatalogServer; host: ServedApp } {
  if (!uc || !host) ctx.skip(`Unity Catalog skipped: ${skipped}`);
  return { uc: uc!, host: host! };
}

async function message(served: ServedApp, method: string, arg: unknown): Promise<string> {
  const result = await served.call(method, arg);
  return result.ok ? 'accepted' : result.error.message;
}

describe('tables named through a saved catalog connection in deltaport serve', () => {
  it('opens, time-travels, previews and exports a Unity Catalog table by its name, and remembers the name', async (ctx) => {
    const { uc, host } = running(ctx);
    await value(host, 'saveCatalogConnection', { name: 'work', kind: 'unity', options: { endpoint: uc.endpoint, token: uc.adminToken } });
    const versions = commitVersions(orders);

    const info = await value<{ path: string; version: number }>(host, 'openTable', { path: ORDERS });
    expect([info.path, info.version]).toEqual([ORDERS, versions.at(-1)]);
    const history = await value<{ version: number }[]>(host, 'history', { path: ORDERS });
    expect(history.map((c) => c.version)).toEqual([...versions].reverse());
    expect(await value<{ latest: number }>(host, 'latestVersion', { path: ORDERS })).toEqual({ latest: versions.at(-1) });

    const preview = await value<{ version: number; rows: unknown[][] }>(host, 'preview', {
      source: { tablePath: ORDERS, versionAsOf: 1, columnNames: ['id'] },
      limit: 1000,
    });
    expect(preview.version).toBe(1);
    expect(preview.rows.map((r) => String(r[0])).sort()).toEqual((await duckdbRows(orders, 1, 'true', ['id'])).rows);

    const out = path.join(scratch, 'orders-v2.jsonl');
    const done = await exportToEnd(host, {
      source: { tablePath: ORDERS, versionAsOf: 2 },
      sink: { kind: 'jsonl', path: out },
    });
    expect([done.state, done.error]).toEqual(['succeeded', null]);
    const exported = fs
      .readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => String((JSON.parse(line) as { id: unknown }).id));
    expect(exported.sort()).toEqual((await duckdbRows(orders, 2, 'true', ['id'])).rows);

    const recent = await value<{ path: string }[]>(host, 'recentTables');
    expect(recent[0]?.path).toBe(ORDERS);
    // Nothing of the token reached the job's record.
    expect(JSON.stringify(await value<JobInfo[]>(host, 'listJobs'))).not.toContain(uc.adminToken);
  });

  it('refuses in one line a name without a connection, an unknown connection, and a table the token may not read', async (ctx) => {
    const { uc, host } = running(ctx);
    expect(await message(host, 'openTable', { path: 'uc://main.sales.orders' })).toBe(
      '"uc://main.sales.orders" names no catalog connection: write uc://<connection>/catalog.schema.table.',
    );
    expect(await message(host, 'openTable', { path: 'uc://elsewhere/main.sales.orders' })).toBe(
      'no catalog connection named "elsewhere" (for uc://elsewhere/main.sales.orders)',
    );
    const token = await uc.userToken('nobody@example.com');
    await value(host, 'saveCatalogConnection', { name: 'nobody', kind: 'unity', options: { endpoint: uc.endpoint, token } });
    expect(await message(host, 'openTable', { path: 'uc://nobody/main.sales.orders' })).toMatch(
      /^the token may not read main\.sales\.orders: it needs the SELECT permission on the table/,
    );
  });
});
