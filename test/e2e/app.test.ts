// The app end to end: the built renderer in real Chromium against `deltaport serve`, reading the shared Delta
// tables. Expected values come from the tables' own logs and from DuckDB reading their Parquet files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { Browser, Locator, Page } from 'playwright-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, openPage, screenshot } from '../support/browser.js';
import { createDatabase, dropDatabase } from '../support/postgres.js';
import { startServe } from '../support/serve.js';
import type { ServedApp } from '../support/serve.js';
import { tablePath } from '../support/tables.js';
import { commitVersions, duck, liveAdds, readCommit, sqlString } from '../electron/delta-writer/log-reading.js';

let app: ServedApp;
let browser: Browser;
let page: Page;
let pageErrors: string[];
let scratch: string;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-e2e-out-'));
  [app, browser] = await Promise.all([startServe(), launchChromium()]);
  ({ page, pageErrors } = await openPage(browser, app.url));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

async function openTable(location: string): Promise<void> {
  await page.getByLabel('Table location', { exact: true }).fill(location);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
}

/** Opens a table and waits until the window shows it (not the table open before). */
async function openAndWait(location: string): Promise<void> {
  await openTable(location);
  await page.locator('.snapshot-bar .table-name', { hasText: path.basename(location) }).waitFor();
  await page.getByText('Latest snapshot').waitFor();
}

function jobNamed(text: string): Locator {
  return page.getByRole('region', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: text }).first();
}

async function showTab(name: 'Overview' | 'History' | 'Data' | 'Export'): Promise<void> {
  await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
}

function grid(): Locator {
  return page.getByRole('grid');
}

/** The grid's header names and the text of its rendered rows (all of them, for the small tables used here). */
async function gridContents(): Promise<{ headers: string[]; rows: string[][] }> {
  const headers = await grid().locator('[role=columnheader] .header-name').allTextContents();
  const rows = await grid()
    .locator('[role=rowgroup].grid-body [role=row]')
    .evaluateAll((els) => els.map((row) => [...row.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? '')));
  return { headers, rows };
}

function sortRows(rows: string[][]): string[][] {
  return [...rows].sort((a, b) => a.join('\u0000').localeCompare(b.join('\u0000')));
}

/** Rows of the given snapshot of simple_table (one column, id), read by DuckDB from the files its log keeps live. */
async function simpleTableIds(version: number): Promise<string[]> {
  const root = tablePath('simple_table');
  const files = [...(await liveAdds(root, version)).keys()].map((p) => sqlString(path.join(root, p)));
  const rows = await duck(`SELECT id FROM read_parquet([${files.join(', ')}]) ORDER BY id`);
  return rows.map((r) => String(r.id));
}

/** (value, month) of every row of delta-0.8.0-partitioned: value from the Parquet files, month from the log. */
async function partitionedValueMonth(): Promise<string[][]> {
  const root = tablePath('delta-0.8.0-partitioned');
  const rows: string[][] = [];
  for (const add of (await liveAdds(root)).values()) {
    const values = await duck(`SELECT value FROM read_parquet(${sqlString(path.join(root, add.path))})`);
    for (const v of values) rows.push([String(v.value), String(add.partitionValues.month)]);
  }
  return sortRows(rows);
}

describe('Deltaport in a browser', () => {
  it('starts on the welcome screen without page errors', async () => {
    await expect.poll(() => page.getByRole('heading', { name: 'Open a Delta table' }).isVisible()).toBe(true);
    await screenshot(page, '01-welcome');
    expect(pageErrors).toEqual([]);
  });

  it('shows an alert when the folder is not a Delta table', async () => {
    const plain = fs.mkdtempSync(path.join(scratch, 'not-delta-'));
    fs.writeFileSync(path.join(plain, 'notes.txt'), 'just a folder');
    await openTable(plain);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/delta/i);
    await screenshot(page, '02-not-a-delta-table');
  });

  it('opens a table and lists every commit with the operation its log records', async () => {
    const root = tablePath('simple_table');
    await openAndWait(root);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, '03-overview');

    await showTab('History');
    const commits = page.getByRole('table', { name: 'Commits' });
    await commits.waitFor();
    const versions = await commitVersions(root);
    const expected: string[][] = [];
    for (const v of versions) {
      const info = (await readCommit(root, v)).find((a) => a.commitInfo)?.commitInfo;
      expected.push([`v${v}`, String(info?.operation)]);
    }
    const shown = await commits
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [r.cells[0].textContent ?? '', r.cells[2].textContent ?? '']));
    expect(sortRows(shown)).toEqual(sortRows(expected));
    await screenshot(page, '04-history');
  });

  it('time-travels to an older commit by clicking it and previews that snapshot', async () => {
    await page.getByRole('table', { name: 'Commits' }).getByRole('button', { name: 'v1', exact: true }).click();
    expect(await page.getByLabel('Version', { exact: true }).inputValue()).toBe('1');
    await page.getByText('→ v1').waitFor();

    await showTab('Data');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText('snapshot v1', { exact: true }).waitFor();
    const { headers, rows } = await gridContents();
    expect(headers).toEqual(['id']);
    expect(rows.map((r) => r[0]).sort((a, b) => Number(a) - Number(b))).toEqual(await simpleTableIds(1));
    expect(await grid().getAttribute('aria-rowcount')).toBe(String(rows.length + 1));
    await screenshot(page, '05-preview-time-travel');

    // And back to the latest snapshot, whose rows differ.
    await page.getByLabel('Version', { exact: true }).fill('');
    await page.getByText('Latest snapshot').waitFor();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const latest = (await simpleTableIds(4)).length;
    await page.getByText(`snapshot v4`, { exact: true }).waitFor();
    expect(await grid().getAttribute('aria-rowcount')).toBe(String(latest + 1));
  });

  it('checks the Timestamp field as it is typed and shows the version it resolves to', async () => {
    // A copy whose commit times the test sets itself: one commit on the first day of each month of 2021.
    const copy = path.join(scratch, 'timed_table');
    fs.cpSync(tablePath('simple_table'), copy, { recursive: true });
    for (const v of await commitVersions(copy)) {
      const file = path.join(copy, '_delta_log', `${String(v).padStart(20, '0')}.json`);
      fs.chmodSync(file, 0o644);
      const time = new Date(Date.UTC(2021, v, 1, 12, 0, 0));
      fs.utimesSync(file, time, time);
    }
    await openAndWait(copy);

    // A version past the last commit is refused where it was typed.
    await page.getByLabel('Version', { exact: true }).fill('99');
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 }).toMatch(/99/);

    const timestamp = page.getByLabel('Timestamp', { exact: true });
    await timestamp.fill('2021-02-30');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/timestamp/i);

    // 2021-03-15 is after the commit of 1 March (version 2) and before that of 1 April (version 3).
    await timestamp.fill('2021-03-15 08:00:00');
    await page.getByText('→ v2').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, '06-timestamp-resolved');
  });

  it('previews only the chosen columns, with the right rows', async () => {
    await openAndWait(tablePath('delta-0.8.0-partitioned'));
    await page.getByRole('checkbox', { name: 'year', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'day', exact: true }).uncheck();

    await showTab('Data');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText('snapshot v0', { exact: true }).waitFor();
    const { headers, rows } = await gridContents();
    expect(headers).toEqual(['value', 'month']);
    expect(sortRows(rows)).toEqual(await partitionedValueMonth());
    await screenshot(page, '07-preview-columns');
  });

  it('sorts by a clicked header and copies the focused cell', async () => {
    const valueHeader = grid().getByRole('columnheader').filter({ hasText: 'value' });
    await valueHeader.click();
    await valueHeader.click();
    expect(await valueHeader.getAttribute('aria-sort')).toBe('descending');
    const [{ top }] = await duck(
      `SELECT max(value) AS top FROM read_parquet(${sqlString(path.join(tablePath('delta-0.8.0-partitioned'), '**/*.parquet'))})`,
    );
    const firstRow = grid().locator('[role=row][aria-rowindex="2"] [role=gridcell]');
    expect(await firstRow.first().textContent()).toBe(String(top));

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await grid().focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Control+c');
    await page.getByText('Cell copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(String(top));
  });

  it('keeps the grid virtual: twenty thousand rows, only those in view rendered', async () => {
    await openAndWait(tablePath('COVID-19_NYT'));
    await showTab('Data');
    await page.getByLabel('Row limit', { exact: true }).fill('20000');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText(/20,000 rows/).waitFor({ timeout: 60_000 });
    // The log's stats say the table holds far more than 20,000 rows, so the preview is exactly the limit.
    expect(await grid().getAttribute('aria-rowcount')).toBe('20001');
    expect(await grid().locator('.grid-body [role=row]').count()).toBeLessThan(100);

    await grid().focus();
    await page.keyboard.press('Control+End');
    await grid().locator('[role=row][aria-rowindex="20001"]').waitFor();
    expect(await grid().locator('.grid-body [role=row]').count()).toBeLessThan(100);
    await screenshot(page, '08-preview-large');
  });

  it('exports the chosen columns to SQLite and the rows are in the file', async () => {
    const file = path.join(scratch, 'export.sqlite');
    await openAndWait(tablePath('delta-0.8.0-partitioned'));
    await page.getByRole('checkbox', { name: 'year', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'day', exact: true }).uncheck();
    await showTab('Export');
    await page.getByLabel('Sink', { exact: true }).selectOption('SQLite');
    await page.getByLabel('SQLite file', { exact: true }).fill(file);
    await page.getByLabel('Target table', { exact: true }).fill('partitioned');
    await page.getByLabel('Write mode', { exact: true }).selectOption('append');
    await page.getByRole('button', { name: 'Show plan' }).click();
    await page.locator('.plan').waitFor();
    await screenshot(page, '09-export-plan');

    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const job = jobNamed('export.sqlite');
    await job.getByText('Done', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await job.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await screenshot(page, '10-export-done');

    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT value, month FROM partitioned').all() as { value: string; month: string }[];
      expect(sortRows(rows.map((r) => [String(r.value), String(r.month)]))).toEqual(await partitionedValueMonth());
    } finally {
      db.close();
    }
  });

  it('cancels a long export and shows it cancelled', async () => {
    const root = tablePath('COVID-19_NYT');
    const info = (await readCommit(root, 0)).find((a) => a.commitInfo)!.commitInfo;
    const total = Number(info.operationMetrics.numOutputRows);
    const file = path.join(scratch, 'covid.sqlite');

    await openAndWait(root);
    await showTab('Export');
    await page.getByLabel('Sink', { exact: true }).selectOption('SQLite');
    await page.getByLabel('SQLite file', { exact: true }).fill(file);
    await page.getByLabel('Batch size', { exact: true }).fill('50');
    await page.getByRole('button', { name: 'Export', exact: true }).click();

    const job = jobNamed('covid.sqlite');
    await job.getByText('Running', { exact: true }).waitFor({ timeout: 30_000 });
    // Cancel once rows are flowing, so that it is the writing that is stopped.
    await job.getByText(/^[1-9][\d,]* rows/).waitFor({ timeout: 30_000 });
    await job.getByRole('button', { name: 'Cancel', exact: true }).click();
    await job.getByText('Cancelled', { exact: true }).waitFor({ timeout: 10_000 });
    await screenshot(page, '11-export-cancelled');

    const db = new Database(file, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'COVID-19_NYT'").all();
      const written = tables.length ? (db.prepare('SELECT count(*) AS n FROM "COVID-19_NYT"').get() as { n: number }).n : 0;
      expect(written).toBeLessThan(total);
    } finally {
      db.close();
    }
  });

  it('shows the schema as a tree whose nested fields open, as the log declares them', async () => {
    const root = tablePath('delta-1.2.1-only-struct-stats');
    const versions = await commitVersions(root);
    let schemaString = '';
    for (const v of versions) {
      const meta = (await readCommit(root, v)).find((a) => a.metaData)?.metaData;
      if (meta) schemaString = meta.schemaString;
    }
    const fields = (JSON.parse(schemaString) as { fields: { name: string; nullable: boolean }[] }).fields;

    await openAndWait(root);
    await showTab('Overview');
    const tree = page.getByRole('list', { name: 'Schema' });
    const topLevel = await tree.locator(':scope > li > .schema-row .schema-name').allTextContents();
    expect(topLevel).toEqual(fields.map((f) => f.name));
    const required = fields.filter((f) => !f.nullable).map((f) => f.name);
    for (const name of required) {
      await expect.poll(() => tree.locator(':scope > li', { hasText: name }).first().locator('.schema-null').textContent()).toBe('not null');
    }

    const outer = tree.getByRole('button', { name: /^nested_struct struct/ });
    expect(await outer.getAttribute('aria-expanded')).toBe('false');
    await outer.click();
    await tree.getByRole('button', { name: /^struct_element struct/ }).click();
    await tree.getByText('nested_struct_element', { exact: true }).waitFor();
    await screenshot(page, '13-schema-tree');
  });

  it('tests a PostgreSQL connection, upserts into it twice, and saves the settings as a profile', async () => {
    const dbUrl = await createDatabase(inject('pgUrl'), 'e2e');
    try {
      await openAndWait(tablePath('delta-0.8.0-partitioned'));
      await showTab('Export');
      await page.getByLabel('Sink', { exact: true }).selectOption('PostgreSQL');
      const destination = page.getByRole('region', { name: 'Destination' });

      const wrong = new URL(dbUrl);
      wrong.password = 'not-the-password';
      await page.getByLabel('Connection URL', { exact: true }).fill(wrong.toString());
      await page.getByRole('button', { name: 'Test connection' }).click();
      await destination.getByRole('alert').waitFor();
      expect((await destination.getByRole('alert').textContent())?.trim()).not.toBe('');

      await page.getByLabel('Connection URL', { exact: true }).fill(dbUrl);
      await page.getByRole('button', { name: 'Test connection' }).click();
      await destination.getByText(/^Connected: .*will be created\.$/).waitFor();
      expect(await destination.getByRole('alert').count()).toBe(0);

      await page.getByLabel('Target table', { exact: true }).fill('partitioned_pg');
      await page.getByLabel('Write mode', { exact: true }).selectOption('upsert');
      await page.getByLabel('Key columns', { exact: true }).fill('value');
      for (const round of [1, 2]) {
        await page.getByRole('button', { name: 'Export', exact: true }).click();
        await expect
          .poll(() => page.getByRole('region', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: 'partitioned_pg' }).count())
          .toBe(round);
        await jobNamed('partitioned_pg').getByText('Done', { exact: true }).waitFor({ timeout: 30_000 });
      }
      await screenshot(page, '14-export-postgres');

      const client = new pg.Client({ connectionString: dbUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ value: string; month: string }>('SELECT value, month FROM partitioned_pg');
        // Upserting the same snapshot twice leaves each row once.
        expect(sortRows(rows.map((r) => [String(r.value), String(r.month)]))).toEqual(await partitionedValueMonth());
      } finally {
        await client.end();
      }

      await page.getByLabel('Profile name', { exact: true }).fill('staging');
      await page.getByRole('button', { name: 'Save profile' }).click();
      // The browser host has no OS keychain, so it keeps the settings without the password, and says so.
      await page.getByRole('status').filter({ hasText: 'Saved “staging”' }).waitFor();
      expect(await page.getByLabel('Saved profiles', { exact: true }).locator('option', { hasText: 'staging (postgres)' }).count()).toBe(1);
    } finally {
      await dropDatabase(dbUrl);
    }
  });

  it('opens a folder dropped on the window as a file:// URI', async () => {
    const root = tablePath('delta-0.8.0-numeric-partition');
    const uri = pathToFileURL(root).href;
    const dataTransfer = await page.evaluateHandle(
      `(() => { const dt = new DataTransfer(); dt.setData('text/uri-list', ${JSON.stringify(uri)}); return dt; })()`,
    );
    await page.dispatchEvent('.app', 'dragenter', { dataTransfer });
    await page.getByText('Drop a Delta table folder to open it').waitFor();
    await page.dispatchEvent('.app', 'drop', { dataTransfer });
    await page.locator('.snapshot-bar .table-name', { hasText: path.basename(root) }).waitFor();
    expect(await page.getByLabel('Table location', { exact: true }).inputValue()).toBe(root);
    expect(await page.getByText('Drop a Delta table folder to open it').count()).toBe(0);
  });

  it('opens the built-in sample, whose history matches its log', async () => {
    await page.getByRole('button', { name: 'Sample table', exact: true }).click();
    await expect.poll(() => page.getByLabel('Table location', { exact: true }).inputValue()).toContain(app.dataDir);
    const root = await page.getByLabel('Table location', { exact: true }).inputValue();
    await page.locator('.snapshot-bar .table-path', { hasText: root }).waitFor();
    await showTab('History');
    const versions = await commitVersions(root);
    expect(versions.length).toBeGreaterThan(1);
    await expect.poll(() => page.getByRole('table', { name: 'Commits' }).locator('tbody tr').count()).toBe(versions.length);
    await screenshot(page, '15-sample-history');
  });

  it('opens the table named in the page address, as the app does for the command line and Open Recent', async () => {
    const root = tablePath('delta-0.8.0-partitioned');
    const named = await openPage(browser, `${app.url}&table=${encodeURIComponent(root)}`);
    try {
      await named.page.locator('.snapshot-bar .table-name', { hasText: path.basename(root) }).waitFor();
      expect(named.pageErrors).toEqual([]);
    } finally {
      await named.page.context().close();
    }
  });

  it('renders the dark theme', async () => {
    await page.getByRole('button', { name: 'Dark theme' }).click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await showTab('Overview');
    await screenshot(page, '12-overview-dark');
    expect(pageErrors).toEqual([]);
  });
});
