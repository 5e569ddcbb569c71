// Catalog connections end to end: the built renderer in real Chromium against `deltaport serve` and the real Unity
// Catalog server (test/support/unity-catalog.ts) holding external tables over copies of simple_table and
// delta-0.8.0. The user reaches the dialog from the storage connections one, saves a connection with its
// token (kept for this session only: serve has no OS encryption), and opens the table by its name; the rows shown are
// checked against DuckDB over the copy, and the token is written nowhere (not the state folder, not the host's
// output, not the page). From the navigator the table is opened again, travels to an older version (rows against
// DuckDB over the files the log keeps live then) and exports it to SQLite; a second catalog table opens in a second
// tab, and each keeps its own version.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { commitVersions } from '../support/delta-oracle.js';
import { duckdbRows } from '../support/delta-oracle-rows.js';
import { isSkipped } from '../support/object-stores.js';
import { tablePath } from '../support/tables.js';
import { startUnityCatalog, UNITY_CATALOG_START_MS, type UnityCatalogServer } from '../support/unity-catalog.js';

const e2e = useBrowserSession('deltaport-e2e-catalogs-');
let uc: UnityCatalogServer | undefined;
let skipped = '';
let orders = '';
let returns = '';
const MANY = 150;

beforeAll(async () => {
  const started = await startUnityCatalog();
  if (isSkipped(started)) return void (skipped = started.skipped);
  uc = started;
  orders = path.join(e2e.scratch, 'orders');
  fs.cpSync(tablePath('simple_table'), orders, { recursive: true });
  await uc.createTable('main.sales.orders', pathToFileURL(orders).href);
  returns = path.join(e2e.scratch, 'returns');
  fs.cpSync(tablePath('delta-0.8.0'), returns, { recursive: true });
  await uc.createTable('main.sales.returns', pathToFileURL(returns).href);
  // A schema longer than one of the server's pages (100 names): each table a folder of its own, none read.
  await uc.api('POST', '/schemas', { name: 'many', catalog_name: 'main' });
  const names = Array.from({ length: MANY }, (_, i) => `t_${String(i).padStart(4, '0')}`);
  for (let i = 0; i < MANY; i += 8)
    await Promise.all(names.slice(i, i + 8).map((name) => uc!.createTable(`main.many.${name}`, `file:///nowhere/many/${name}`)));
}, UNITY_CATALOG_START_MS);

afterAll(async () => {
  await uc?.stop();
});

/** Every byte under a folder. */
function bytesUnder(dir: string): Buffer {
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Buffer.concat(entries.map((e) => fs.readFileSync(path.join(e.parentPath, e.name))));
}

/** The table tab shown (the others stay in the page, hidden). */
function shownTable(page: Page): Locator {
  return page.locator('.table-view:not([hidden])');
}

/** The Data tab's rows of snapshot `version` as cells joined by '|', sorted, and the columns shown: rows of another
 * snapshot still shown are read again (Refresh). */
async function rowsOf(page: Page, version: number): Promise<{ headers: string[]; rows: string[] }> {
  const table = shownTable(page);
  await table.getByRole('tab', { name: /^Data/ }).click();
  const grid = table.getByRole('grid', { name: `Rows of snapshot v${version}` });
  const stale = table.getByRole('status').filter({ hasText: 'These rows are of' });
  await grid.or(stale).first().waitFor();
  if (await stale.isVisible()) await stale.getByRole('button', { name: 'Refresh' }).click();
  await grid.locator('[role=columnheader] .header-name').first().waitFor();
  const headers = await grid.locator('[role=columnheader] .header-name').allTextContents();
  const rows = await grid
    .locator('[role=rowgroup].grid-body [role=row]')
    .evaluateAll((els) => els.map((r) => [...r.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? '').join('|')));
  return { headers, rows: rows.sort() };
}

describe('catalog connections', () => {
  it('saves a Unity Catalog connection in the dialog and opens a table by its name', async (ctx: TestContext) => {
    if (!uc) return ctx.skip(`Unity Catalog skipped: ${skipped}`);
    const page = e2e.page;
    await page.getByRole('button', { name: 'Storage connections' }).first().click();
    await page.getByRole('dialog', { name: 'Storage connections' }).getByRole('button', { name: 'Catalog connections' }).click();
    const dialog = page.getByRole('dialog', { name: 'Catalog connections' });
    await dialog.getByText('None saved yet.').waitFor();

    await dialog.getByRole('button', { name: 'Add connection' }).click();
    const form = dialog.getByRole('form', { name: 'New catalog connection' });
    const field = (name: string) => form.getByLabel(name, { exact: true });
    await field('Connection name').fill('work');
    expect(await field('Catalog').inputValue()).toBe('unity');
    await field('Endpoint').fill(uc.endpoint);
    await field('Token').fill(uc.adminToken);
    expect(await field('Token').getAttribute('type')).toBe('password');
    // Glue's fields belong to the other kind.
    expect(await form.getByLabel('Region', { exact: true }).count()).toBe(0);
    await form.getByRole('button', { name: 'Save connection' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Saved “work”; its token is kept until this host stops' }).waitFor();
    const row = dialog.getByRole('row').filter({ hasText: 'work' });
    expect(await row.locator('td').allTextContents()).toEqual([
      'work',
      'Unity Catalog',
      'uc://work/catalog.schema.table',
      'Token set (this session only)',
      'EditDelete',
    ]);
    await screenshot(page, 'catalog-connections');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByLabel('Table location', { exact: true }).fill('uc://work/main.sales.orders');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText('Latest snapshot').waitFor();
    const latest = Math.max(...commitVersions(orders));
    const expected = await duckdbRows(orders, latest, 'true', ['id']);
    expect(await rowsOf(page, latest)).toEqual({ headers: ['id'], rows: expected.rows });
    await screenshot(page, 'catalog-connections-table');

    expect(bytesUnder(e2e.app.dataDir).includes(uc.adminToken)).toBe(false);
    expect(e2e.app.stderr()).not.toContain(uc.adminToken);
    expect(await page.content()).not.toContain(uc.adminToken);
    expect(e2e.pageErrors).toEqual([]);
  }, 180_000);

  it('lists the saved catalog in the navigator, level by level, and opens its table from there', async (ctx: TestContext) => {
    if (!uc) return ctx.skip(`Unity Catalog skipped: ${skipped}`);
    const page = e2e.page;
    const tree = page.getByRole('tree', { name: 'Places and buckets' });
    const item = (name: string | RegExp) => tree.getByRole('treeitem', { name, exact: typeof name === 'string' });
    const toggle = page.getByRole('button', { name: 'Navigator', exact: true });
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    // The catalog, its catalogs and schemas are folders; the schema lists the table the server holds.
    for (const level of [/^work/, /^main/, /^sales/]) {
      await item(level).waitFor();
      await item(level).click();
    }
    const table = item(/^orders/);
    await table.waitFor();
    await table.focus();
    await page.keyboard.press('Enter');
    await page.locator('.table-view:not([hidden]) .snapshot-bar .table-path', { hasText: 'uc://work/main.sales.orders' }).waitFor();
    await page.locator('.table-view:not([hidden])').getByText('Latest snapshot').waitFor();
    await screenshot(page, 'catalog-navigator');
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it('time-travels the catalog table, shows that version’s rows and exports them to SQLite', async (ctx: TestContext) => {
    if (!uc) return ctx.skip(`Unity Catalog skipped: ${skipped}`);
    const page = e2e.page;
    const table = shownTable(page);
    await table.getByLabel('Version', { exact: true }).fill('1');
    await table.getByText('→ v1').waitFor();
    const expected = await duckdbRows(orders, 1, 'true', ['id']);
    expect(expected.rows.length).toBeGreaterThan(0);
    expect(expected.rows).not.toEqual((await duckdbRows(orders, Math.max(...commitVersions(orders)), 'true', ['id'])).rows);
    expect(await rowsOf(page, 1)).toEqual({ headers: ['id'], rows: expected.rows });

    await table.getByRole('tab', { name: /^Export/ }).click();
    const file = path.join(e2e.scratch, 'orders-v1.sqlite');
    await table.getByLabel('Sink', { exact: true }).selectOption('SQLite');
    await table.getByLabel('SQLite file', { exact: true }).fill(file);
    await table.getByRole('button', { name: 'Export', exact: true }).click();
    await table
      .locator('.export-bar')
      .getByText(/^Done: \d+ rows exported/)
      .waitFor({ timeout: 60_000 });
    await screenshot(page, 'catalog-navigator-exported');
    const db = new Database(file, { readonly: true });
    try {
      const ids = (db.prepare('SELECT id FROM orders').all() as { id: number }[]).map((r) => String(r.id));
      expect(ids.sort()).toEqual(expected.rows);
    } finally {
      db.close();
    }
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it('opens a second catalog table in a second tab; each keeps its own version', async (ctx: TestContext) => {
    if (!uc) return ctx.skip(`Unity Catalog skipped: ${skipped}`);
    const page = e2e.page;
    const tree = page.getByRole('tree', { name: 'Places and buckets' });
    await tree.getByRole('treeitem', { name: /^returns/ }).click();
    const second = page.getByRole('tab', { name: 'main.sales.returns', exact: true });
    await second.waitFor();
    expect(await second.getAttribute('aria-selected')).toBe('true');
    expect(await second.getAttribute('title')).toBe('uc://work/main.sales.returns');
    const first = page.getByRole('tab', { name: 'main.sales.orders', exact: true });
    expect(await first.getAttribute('title')).toBe('uc://work/main.sales.orders');
    await shownTable(page).getByText('Latest snapshot').waitFor();
    await shownTable(page).getByLabel('Version', { exact: true }).fill('0');
    await shownTable(page).getByText('→ v0').waitFor();
    const returnsV0 = await duckdbRows(returns, 0, 'true', ['value']);
    expect(returnsV0.rows).not.toEqual((await duckdbRows(returns, 1, 'true', ['value'])).rows);
    expect(await rowsOf(page, 0)).toEqual({ headers: ['value'], rows: returnsV0.rows });
    await screenshot(page, 'catalog-navigator-two-tabs');

    await first.click();
    expect(await shownTable(page).getByLabel('Version', { exact: true }).inputValue()).toBe('1');
    expect(await rowsOf(page, 1)).toEqual({ headers: ['id'], rows: (await duckdbRows(orders, 1, 'true', ['id'])).rows });
    await second.click();
    expect(await shownTable(page).getByLabel('Version', { exact: true }).inputValue()).toBe('0');
    expect(await rowsOf(page, 0)).toEqual({ headers: ['value'], rows: returnsV0.rows });
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it('pages a schema longer than one of the catalog’s pages with Load more, and filters it across pages', async (ctx: TestContext) => {
    if (!uc) return ctx.skip(`Unity Catalog skipped: ${skipped}`);
    const page = e2e.page;
    const tree = page.getByRole('tree', { name: 'Places and buckets' });
    // The server's own listing, every page of it.
    const listed: string[] = [];
    let token = '';
    do {
      const answer = await uc.api<{ tables?: { name: string }[]; next_page_token?: string }>(
        'GET',
        `/tables?catalog_name=main&schema_name=many${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
      );
      listed.push(...(answer.tables ?? []).map((t) => t.name));
      token = answer.next_page_token ?? '';
    } while (token);
    expect(listed).toHaveLength(MANY);

    await tree.getByRole('treeitem', { name: /^many/ }).click();
    const tables = tree.getByRole('treeitem', { name: /^t_\d{4}/ });
    const more = tree.getByRole('treeitem', { name: 'Load more' });
    await more.waitFor();
    const shown = async () => (await tables.allTextContents()).map((text) => /t_\d{4}/.exec(text)![0]);
    expect(await shown()).toEqual(listed.slice(0, 100));
    await more.click();
    await expect.poll(() => tables.count(), { timeout: 15_000 }).toBe(MANY);
    expect(await shown()).toEqual(listed);
    expect(await more.count()).toBe(0);

    // None of the first page starts with t_014: the filter goes on to the page that holds them.
    await tables.first().focus();
    await page.getByLabel('Filter many').fill('t_014');
    await expect.poll(() => tables.count(), { timeout: 15_000 }).toBe(10);
    expect(await shown()).toEqual(listed.filter((name) => name.startsWith('t_014')));
    await screenshot(page, 'catalog-navigator-filtered');
    await page.getByLabel('Filter many').fill('zzz');
    await tree.getByText('Nothing here starts with "zzz".').waitFor();
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);
});
