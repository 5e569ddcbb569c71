// The change feed in History and exporting a diff's rows, end to end: the built renderer in real Chromium against
// `deltaport serve`. On cdf-table (v0 writes, v1 and v2 update with _change_data files, v3 deletes) the expected
// feed is DuckDB's read of the files each commit names (its cdc files, else its adds as inserts) with the log's
// commit times; the exported diff is DuckDB's read of the files that differ between the two snapshots. A table
// without a feed, and one whose feed was turned on later, say why in one line.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { gridRows, statValue } from '../support/change-views.js';
import { tablePath } from '../support/tables.js';
import { expectedFeed, expectedNetDiff } from '../electron/delta/change-oracle.js';
import { readCommit, type Json } from '../support/delta-oracle.js';

const e2e = useBrowserSession('deltaport-e2e-feed-');
const TABLE = tablePath('cdf-table');
const COLUMNS = ['id', 'name', 'birthday'];
const count = (n: number) => n.toLocaleString('en-US');

async function openTable(page: Page, root: string): Promise<void> {
  await page.getByLabel('Table location', { exact: true }).fill(root);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.locator('.snapshot-bar .table-name', { hasText: new RegExp(`^${path.basename(root)}$`) }).waitFor();
  await page.getByRole('tab', { name: /^History/ }).click();
}

async function pick(page: Page, ...versions: number[]): Promise<void> {
  for (const v of versions) await page.getByLabel(`Compare v${v}`, { exact: true }).check();
}

describe('change feed in History', () => {
  it('shows the feed of a picked range: counts per change type and the rows, as the log and its files say', async () => {
    const want = await expectedFeed(TABLE, 0, 3);
    const typeOf = (row: string) => row.split('|')[3];
    expect(new Set(want.rows.map(typeOf))).toEqual(new Set(['insert', 'update_preimage', 'update_postimage', 'delete']));

    await openTable(e2e.page, TABLE);
    await pick(e2e.page, 0, 3);
    await e2e.page.getByRole('button', { name: 'Show change feed', exact: true }).click();
    await e2e.page.getByRole('heading', { name: 'Change feed from v0 to v3' }).waitFor();
    const label = 'Change feed from v0 to v3';
    await e2e.page.getByRole('grid', { name: label }).waitFor();
    for (const type of ['insert', 'delete', 'update_preimage', 'update_postimage']) {
      expect(await statValue(e2e.page, type), type).toBe(count(want.rows.filter((r) => typeOf(r) === type).length));
    }
    const headers = await e2e.page.getByRole('grid', { name: label }).locator('[role=columnheader] .header-name').allTextContents();
    expect(headers).toEqual([...COLUMNS, '_change_type', '_commit_version', '_commit_timestamp']);
    const shown = await gridRows(e2e.page, label);
    expect(shown.length).toBe(want.rows.length);
    expect(shown.map((r) => r.slice(0, 5).join('|')).sort()).toEqual(want.rows);
    for (const row of shown) expect(new Date(row[5]).toISOString(), `time of v${row[4]}`).toBe(want.times.get(Number(row[4])));
    await screenshot(e2e.page, 'change-feed');

    // One commit's own feed, from its details.
    const v3 = await expectedFeed(TABLE, 3, 3);
    await e2e.page.getByRole('button', { name: 'Details of v3', exact: true }).click();
    await e2e.page.getByRole('button', { name: "Show v3's change feed", exact: true }).click();
    await e2e.page.getByRole('heading', { name: 'Change feed from v3 to v3' }).waitFor();
    const one = await gridRows(e2e.page, 'Change feed from v3 to v3');
    expect(one.map((r) => r.slice(0, 5).join('|')).sort()).toEqual(v3.rows);
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it('says in one line why a table without a feed has none, and disables the button', async () => {
    await openTable(e2e.page, tablePath('simple_table'));
    await pick(e2e.page, 1, 3);
    expect(await e2e.page.getByRole('button', { name: 'Show change feed', exact: true }).isDisabled()).toBe(true);
    await e2e.page
      .getByRole('group', { name: 'Compare versions' })
      .getByText('No change feed: the table does not record one at v4 (delta.enableChangeDataFeed is not true).', { exact: true })
      .waitFor();
    // The diff still works there.
    expect(await e2e.page.getByRole('button', { name: 'Show changes', exact: true }).isDisabled()).toBe(false);
    await screenshot(e2e.page, 'change-feed-unavailable');
    expect(e2e.pageErrors).toEqual([]);
  }, 60_000);

  it('refuses, in an alert, a range that starts before the feed was turned on', async () => {
    // simple_table (v0..v4, no feed) with a v5 that turns the feed on, as ALTER TABLE ... SET TBLPROPERTIES writes it.
    const root = path.join(e2e.scratch, 'feed-later');
    fs.cpSync(tablePath('simple_table'), root, { recursive: true });
    const metaData = readCommit(root, 0).find((a) => a.metaData)!.metaData as Json;
    const v5 = [
      { commitInfo: { timestamp: Date.now(), operation: 'SET TBLPROPERTIES', operationParameters: {} } },
      { metaData: { ...metaData, configuration: { 'delta.enableChangeDataFeed': 'true' } } },
    ];
    fs.writeFileSync(path.join(root, '_delta_log', `${String(5).padStart(20, '0')}.json`), v5.map((a) => JSON.stringify(a)).join('\n'));
    await openTable(e2e.page, root);
    await pick(e2e.page, 2, 5);
    await e2e.page.getByRole('button', { name: 'Show change feed', exact: true }).click();
    const view = e2e.page.locator('section', { has: e2e.page.getByRole('heading', { name: 'Change feed from v2 to v5' }) });
    await view
      .getByRole('alert')
      .getByText(
        'The change data feed starts at version 5 (delta.enableChangeDataFeed was turned on then): start the range at 5 or later',
        { exact: true },
      )
      .waitFor();
    expect(await view.getByRole('button', { name: 'Export these rows', exact: true }).isDisabled()).toBe(true);
    await screenshot(e2e.page, 'change-feed-refused');
    expect(e2e.pageErrors).toEqual([]);
  }, 60_000);
});

describe('exporting a diff from the app', () => {
  it("sends the diff view's rows through the Export tab into SQLite, as DuckDB's difference of the two snapshots", async () => {
    const want = await expectedNetDiff(TABLE, 1, 3, ['id', 'name', 'birthday']);
    expect(want.length).toBeGreaterThan(0);

    await openTable(e2e.page, TABLE);
    await pick(e2e.page, 1, 3);
    await e2e.page.getByRole('button', { name: 'Show changes', exact: true }).click();
    const diff = e2e.page.locator('section', { has: e2e.page.getByRole('heading', { name: 'Changes from v1 to v3' }) });
    await diff.getByRole('grid').waitFor();
    await diff.getByRole('button', { name: 'Export these rows', exact: true }).click();

    await e2e.page
      .getByRole('status')
      .filter({ hasText: 'Exporting the rows of cdf-table v1→v3 diff, with their change columns, instead of the snapshot.' })
      .waitFor();
    const file = path.join(e2e.scratch, 'diff.sqlite');
    await e2e.page.getByLabel('Sink', { exact: true }).selectOption('sqlite');
    await e2e.page.getByLabel('SQLite file', { exact: true }).fill(file);
    expect(await e2e.page.getByLabel('Target table', { exact: true }).inputValue()).toBe('cdf-table_diff');

    // Exactly once cannot be ticked for changes; the reason is beside it and names it for screen readers.
    const exactlyOnce = e2e.page.getByLabel('Exactly once', { exact: true });
    expect(await exactlyOnce.isDisabled()).toBe(true);
    expect(await exactlyOnce.isChecked()).toBe(false);
    const reason = await exactlyOnce.getAttribute('aria-describedby');
    expect(await e2e.page.locator(`[id="${reason}"]`).textContent()).toBe(
      'Not for changed rows: a diff or a change feed has no position a rerun could resume from.',
    );

    await e2e.page.getByRole('button', { name: 'Export', exact: true }).click();
    const title = `cdf-table v1→v3 diff -> sqlite:${file} (cdf-table_diff)`;
    const job = e2e.page.getByRole('region', { name: 'Jobs' }).getByRole('listitem', { name: title });
    await job.getByText('Done', { exact: true }).waitFor({ timeout: 30_000 });
    await e2e.page
      .locator('.export-bar')
      .getByText(new RegExp(`^Done: ${want.length} rows exported`))
      .waitFor();
    await screenshot(e2e.page, 'diff-export');

    const db = new Database(file, { readonly: true });
    try {
      const landed = db.prepare('SELECT id, name, birthday, _change FROM "cdf-table_diff"').all() as Record<string, unknown>[];
      expect(landed.map((r) => [r.id, r.name, r.birthday, r._change].map(String).join('|')).sort()).toEqual(want);
    } finally {
      db.close();
    }

    // Back to the snapshot: the Export tab exports the table again.
    await e2e.page.getByRole('button', { name: 'Export the snapshot instead', exact: true }).click();
    expect(await e2e.page.getByLabel('Target table', { exact: true }).inputValue()).toBe('cdf-table');
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);
});
