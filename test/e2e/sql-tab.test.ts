// The SQL tab end to end: the built renderer in real Chromium against `deltaport serve` (whose responses carry the
// app's CSP, so the editor's styles must get through it), on cdf-table. The expected rows come from DuckDB reading
// the snapshot's Parquet files as the table's log lists them, never from Deltaport.
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { gridRows } from '../support/change-views.js';
import { duckdbRows } from '../support/delta-oracle-rows.js';
import { commitVersions, dataFile, liveFiles } from '../support/delta-oracle.js';
import { duck, sqlText } from '../support/duckdb.js';
import { tablePath } from '../support/tables.js';

const e2e = useBrowserSession('deltaport-e2e-sql-');
const TABLE = tablePath('cdf-table');
const LATEST = Math.max(...commitVersions(TABLE));

async function openSqlTab(page: Page): Promise<void> {
  await page.getByLabel('Table location', { exact: true }).fill(TABLE);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.locator('.snapshot-bar .table-name', { hasText: /^cdf-table$/ }).waitFor();
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
}

/** Replaces the editor's text by typing, as a user does (completion and bracket closing included). */
async function typeQuery(page: Page, sql: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'SQL query' });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // Empty, the editor shows its placeholder.
  await editor.locator('.cm-placeholder').waitFor();
  await page.keyboard.type(sql);
  // Typing may have opened the completion list; Escape closes it so that the text stays as typed.
  await page.keyboard.press('Escape');
  expect(await editor.innerText()).toBe(sql);
}

describe('SQL tab', () => {
  it('completes column names, runs a GROUP BY typed in the editor with Ctrl+Enter and shows its rows, time and rows scanned', async () => {
    const { rows } = await duckdbRows(TABLE, LATEST, 'true', ['birthday']);
    const counts = new Map<string, number>();
    for (const birthday of rows) counts.set(birthday, (counts.get(birthday) ?? 0) + 1);
    const expected = [...counts].map(([birthday, n]) => [birthday, String(n)]).sort((a, b) => a[0]!.localeCompare(b[0]!));

    await openSqlTab(e2e.page);
    // The editor completes the table's columns.
    await typeQuery(e2e.page, 'SELECT bir');
    await e2e.page.getByRole('textbox', { name: 'SQL query' }).press('Control+Space');
    await e2e.page.getByRole('option', { name: 'birthday' }).waitFor();
    await typeQuery(e2e.page, 'SELECT birthday, count(*) AS n FROM t GROUP BY birthday ORDER BY birthday');
    await e2e.page.keyboard.press('Control+Enter');
    await e2e.page.getByRole('grid', { name: 'Query result' }).waitFor();

    expect(await gridRows(e2e.page, 'Query result')).toEqual(expected);
    const status = await e2e.page.locator('.sql-status').innerText();
    expect(status).toMatch(new RegExp(`^${expected.length} rows in [0-9.]+ s; rows scanned t v${LATEST}: ${rows.length}\\.`));
    expect(e2e.pageErrors).toEqual([]);
    await screenshot(e2e.page, 'sql-tab');
    const dark = e2e.page.getByRole('button', { name: 'Dark theme' });
    await dark.click();
    // Every field of the tab wears the theme: the one that adds a table is drawn as the Columns filter is.
    const look = (label: string) =>
      e2e.page
        .getByLabel(label, { exact: true })
        .evaluate((field) =>
          ['backgroundColor', 'color', 'borderColor'].map((p) => field.ownerDocument.defaultView.getComputedStyle(field)[p]),
        );
    expect(await look('Add a table')).toEqual(await look('Filter columns'));
    await screenshot(e2e.page, 'sql-tab-dark');
    await dark.click();
  });

  it('exports the rows of that query to SQLite through a job in the Jobs dock', async () => {
    const file = path.join(e2e.scratch, 'query.sqlite');
    const { rows } = await duckdbRows(TABLE, LATEST, 'true', ['birthday']);
    await e2e.page.getByRole('button', { name: 'Export these rows', exact: true }).click();
    await e2e.page
      .getByRole('status')
      .filter({ hasText: 'Exporting the rows of the query "SELECT birthday, count(*) AS n FROM t GROUP BY birthday ORDER BY birthday"' })
      .waitFor();
    await e2e.page.getByLabel('Sink', { exact: true }).selectOption('SQLite');
    await e2e.page.getByLabel('SQLite file', { exact: true }).fill(file);
    await e2e.page.getByLabel('Target table', { exact: true }).fill('per_birthday');
    await e2e.page.getByRole('button', { name: 'Export', exact: true }).click();
    const job = e2e.page.getByRole('region', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: 'query.sqlite' }).first();
    await job.getByText('Done', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await job.innerText()).toContain('cdf-table query result -> sqlite:');

    const db = new Database(file, { readonly: true });
    try {
      const written = db.prepare('SELECT birthday, n FROM per_birthday ORDER BY birthday').all() as { birthday: string; n: number }[];
      const counts = new Map<string, number>();
      for (const birthday of rows) counts.set(birthday, (counts.get(birthday) ?? 0) + 1);
      expect(written.map((r) => [String(r.birthday), Number(r.n)])).toEqual([...counts].sort((a, b) => a[0].localeCompare(b[0])));
    } finally {
      db.close();
    }
    await e2e.page.getByRole('tab', { name: 'SQL', exact: true }).click();
  });

  it('shows an error as one line with its place in the query', async () => {
    await typeQuery(e2e.page, 'SELECT birthday FROM t WHERE');
    await e2e.page.getByRole('button', { name: 'Run', exact: true }).click();
    const alert = e2e.page.getByRole('alert');
    await alert.waitFor();
    // The alert's icon aside, one line: the cause and where, no stack.
    expect(await alert.locator('span').last().innerText()).toBe('Query failed: Syntax error at end of input (line 1, column 29)');
  });

  it('remembers the queries run on the table and puts one back in the editor', async () => {
    const recent = e2e.page.getByLabel('Recent queries', { exact: true });
    const options = await recent.locator('option').allTextContents();
    expect(options.slice(1)).toEqual([
      'SELECT birthday FROM t WHERE',
      'SELECT birthday, count(*) AS n FROM t GROUP BY birthday ORDER BY birthday',
    ]);
    await recent.selectOption({ index: 2 });
    expect(await e2e.page.getByRole('textbox', { name: 'SQL query' }).innerText()).toBe(
      'SELECT birthday, count(*) AS n FROM t GROUP BY birthday ORDER BY birthday',
    );
  });

  it('names another table in the tab and completes its columns', async () => {
    const covid = tablePath('COVID-19_NYT');
    await e2e.page.getByLabel('Add a table', { exact: true }).fill(`covid=${covid}`);
    await e2e.page.getByRole('button', { name: 'Add', exact: true }).click();
    await e2e.page.getByRole('button', { name: 'Remove covid', exact: true }).waitFor({ timeout: 30_000 });
    // Its name completes, and its columns after `covid.` (cdf-table has no column `cases`).
    await typeQuery(e2e.page, 'SELECT * FROM cov');
    await e2e.page.getByRole('textbox', { name: 'SQL query' }).press('Control+Space');
    await e2e.page.getByRole('option', { name: 'covid' }).waitFor();
    await typeQuery(e2e.page, 'SELECT covid.cas');
    await e2e.page.getByRole('textbox', { name: 'SQL query' }).press('Control+Space');
    await e2e.page.getByRole('option', { name: 'cases' }).waitFor();
    await typeQuery(e2e.page, "SELECT count(*) AS n FROM covid WHERE state = 'Ohio'");
    await e2e.page.keyboard.press('Control+Enter');
    await e2e.page.getByRole('grid', { name: 'Query result' }).waitFor();
    const files = (await liveFiles(covid)).map((a) => sqlText(dataFile(covid, a)));
    const [ohio] = await duck<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM read_parquet([${files.join(', ')}]) WHERE state = 'Ohio'`);
    expect(await gridRows(e2e.page, 'Query result')).toEqual([[String(ohio.n)]]);
    await e2e.page.getByRole('button', { name: 'Remove covid', exact: true }).click();
  });

  it('interrupts a long query on Cancel', async () => {
    // Ten billion pairs: minutes of work for DuckDB, so only the cancel can end it.
    await typeQuery(e2e.page, 'SELECT sum(a.range * b.range) FROM range(100000) a, range(100000) b');
    await e2e.page.keyboard.press('Control+Enter');
    const cancel = e2e.page.getByRole('button', { name: 'Cancel', exact: true });
    await expect.poll(() => cancel.isEnabled(), { timeout: 30_000 }).toBe(true);
    // Let the query get going in DuckDB before cancelling it.
    await e2e.page.waitForTimeout(500);
    await cancel.click();
    // Only the cancel can end it; how soon is the benchmark's business, not a test's.
    await expect
      .poll(() => e2e.page.getByRole('alert').filter({ hasText: 'The query was cancelled.' }).count(), { timeout: 30_000 })
      .toBe(1);
    expect(await e2e.page.locator('.sql-status').innerText()).toBe('Ctrl+Enter runs the query.');
  });
});
