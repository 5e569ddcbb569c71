// The navigator and the table tabs end to end: the built renderer in real Chromium against `deltaport serve`. A folder
// added to Places is expanded by keyboard down to a table, which opens in a tab, travels to an older version and
// exports it; a second table opens in a second tab, and each keeps its own version and filter. A folder of 1,500
// names pages ("Load more") and filters. Expected rows come from DuckDB over the files the table's log keeps live.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { commitVersions, dataFile, liveFiles } from '../support/delta-oracle.js';
import { duck, sqlText } from '../support/duckdb.js';
import { tablePath } from '../support/tables.js';

const e2e = useBrowserSession('deltaport-e2e-nav-');
const MANY = 1_500;

/** simple_table's ids at a version, read by DuckDB from the files its log keeps live then. */
async function idsAt(root: string, version: number): Promise<string[]> {
  const files = (await liveFiles(root, version)).map((add) => sqlText(dataFile(root, add)));
  return (await duck(`SELECT id FROM read_parquet([${files.join(', ')}]) ORDER BY id`)).map((r) => String(r.id));
}

function tree(): Locator {
  return e2e.page.getByRole('tree', { name: 'Places and buckets' });
}

function item(name: string | RegExp): Locator {
  return tree().getByRole('treeitem', { name, exact: typeof name === 'string' });
}

/** The table tab shown (the others stay in the page, hidden). */
function shownTable(): Locator {
  return e2e.page.locator('.table-view:not([hidden])');
}

describe('the navigator and tabs', () => {
  let places: string;
  let simple: string;
  let partitioned: string;

  it('adds a folder to Places and expands it by keyboard to a table, which opens in a tab', async () => {
    places = path.join(e2e.scratch, 'lake');
    simple = path.join(places, 'simple_table');
    partitioned = path.join(places, 'partitioned');
    fs.cpSync(tablePath('simple_table'), simple, { recursive: true });
    fs.cpSync(tablePath('delta-0.8.0-partitioned'), partitioned, { recursive: true });
    fs.mkdirSync(path.join(places, 'many'));
    for (let i = 0; i < MANY; i++) fs.mkdirSync(path.join(places, 'many', `d-${String(i).padStart(4, '0')}`));

    // At 1440 pixels the window starts with the navigator hidden (the grid needs the room), one click away.
    const toggle = e2e.page.getByRole('button', { name: 'Navigator', exact: true });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await e2e.page.getByRole('button', { name: 'Add a folder…' }).click();
    await e2e.page.getByLabel('Folder to add').fill(places);
    await e2e.page.getByRole('button', { name: 'Add', exact: true }).click();
    const place = item('lake');
    await place.waitFor();
    expect(await place.getAttribute('title')).toBe(places);

    await place.focus();
    await e2e.page.keyboard.press('ArrowRight');
    await item('simple_table').waitFor();
    expect(await place.getAttribute('aria-expanded')).toBe('true');
    // Down past "many" and "partitioned" to simple_table (key order), then expanded: it holds a log, so it is a table.
    for (const name of ['many', 'partitioned', 'simple_table']) {
      await e2e.page.keyboard.press('ArrowDown');
      expect(await e2e.page.locator(':focus').textContent()).toContain(name);
    }
    await e2e.page.keyboard.press('ArrowRight');
    const latest = commitVersions(simple).at(-1)!;
    await item(`simple_table (table, v${latest})`).waitFor();
    await e2e.page.keyboard.press('Enter');

    await shownTable().locator('.snapshot-bar .table-path', { hasText: simple }).waitFor();
    await shownTable().getByText('Latest snapshot').waitFor();
    // One table needs no tab strip; it comes with the second.
    expect(await e2e.page.getByRole('tablist', { name: 'Open tables' }).count()).toBe(0);
    expect(await e2e.page.getByLabel('Table location', { exact: true }).inputValue()).toBe(simple);
    await screenshot(e2e.page, 'nav-01-opened-from-places');
  });

  it('time-travels the table and exports that version', async () => {
    await shownTable().getByLabel('Version', { exact: true }).fill('1');
    await shownTable().getByText('→ v1').waitFor();
    await shownTable()
      .getByRole('tab', { name: /^Export/ })
      .click();
    const file = path.join(e2e.scratch, 'v1.sqlite');
    await shownTable().getByLabel('Sink', { exact: true }).selectOption('SQLite');
    await shownTable().getByLabel('SQLite file', { exact: true }).fill(file);
    await shownTable().getByRole('button', { name: 'Export', exact: true }).click();
    await shownTable()
      .locator('.export-bar')
      .getByText(/^Done: \d+ rows exported/)
      .waitFor({ timeout: 30_000 });
    const db = new Database(file, { readonly: true });
    try {
      const ids = (db.prepare('SELECT id FROM simple_table ORDER BY id').all() as { id: number }[]).map((r) => String(r.id));
      expect(ids).toEqual(await idsAt(simple, 1));
    } finally {
      db.close();
    }
  });

  it('opens a second table in a second tab; each keeps its own version and filter', async () => {
    await item('partitioned').click();
    const table = item(`partitioned (table, v${commitVersions(partitioned).at(-1)})`);
    await table.waitFor();
    await table.click();
    const second = e2e.page.getByRole('tab', { name: 'partitioned', exact: true });
    await second.waitFor();
    expect(await second.getAttribute('aria-selected')).toBe('true');
    expect(await second.getAttribute('title')).toBe(partitioned);
    expect(await e2e.page.getByRole('tab', { name: 'simple_table', exact: true }).getAttribute('title')).toBe(simple);
    await shownTable().getByText('Latest snapshot').waitFor();
    await shownTable().getByLabel('Filter rows').fill("year = '2021'");
    await shownTable()
      .getByText(/^snapshot v\d+/)
      .waitFor();
    expect(await shownTable().getByLabel('Version', { exact: true }).inputValue()).toBe('');

    const first = e2e.page.getByRole('tab', { name: 'simple_table', exact: true });
    await first.click();
    expect(await shownTable().getByLabel('Version', { exact: true }).inputValue()).toBe('1');
    expect(await e2e.page.getByLabel('Table location', { exact: true }).inputValue()).toBe(simple);
    await second.click();
    expect(await shownTable().getByLabel('Filter rows').inputValue()).toBe("year = '2021'");
    expect(await e2e.page.getByLabel('Table location', { exact: true }).inputValue()).toBe(partitioned);
    // Opening a table that has a tab shows that tab instead of a second one.
    await item(`simple_table (table, v${commitVersions(simple).at(-1)})`).click();
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(await e2e.page.getByRole('tab', { name: 'simple_table', exact: true }).count()).toBe(1);
    await screenshot(e2e.page, 'nav-02-two-tabs');

    await e2e.page.getByRole('button', { name: 'Close simple_table' }).click();
    expect(await first.count()).toBe(0);
    expect(await e2e.page.locator('.table-view').count()).toBe(1);
    expect(await shownTable().getByLabel('Filter rows').inputValue()).toBe("year = '2021'");
    expect(await e2e.page.getByLabel('Table location', { exact: true }).inputValue()).toBe(partitioned);
  });

  it('pages a large folder with Load more, and filters it by the start of the name', async () => {
    await item('many').click();
    const children = tree().locator('[role=treeitem][aria-level="4"]:not(.tree-more)');
    await item('Load more').waitFor();
    expect(await children.count()).toBe(1_000);
    await item('Load more').click();
    await expect.poll(() => children.count()).toBe(MANY);
    expect(await item('Load more').count()).toBe(0);

    await item('d-0003').focus();
    await e2e.page.getByLabel('Filter many').fill('d-14');
    await expect.poll(() => children.count()).toBe(100);
    expect(await children.first().textContent()).toContain('d-1400');
    await e2e.page.getByLabel('Filter many').fill('zzz');
    await tree().getByText('Nothing here starts with "zzz".').waitFor();
    expect(e2e.pageErrors).toEqual([]);
  });
});
