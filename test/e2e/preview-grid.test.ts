// The Data tab's grid end to end, in real Chromium against `deltaport serve`: a header click orders every row of the
// snapshot (DuckDB's maximum over the table's files comes first, not the largest of the rows loaded), a changed
// filter marks the rows stale until Enter reads them, and scrolling to the end loads the next page beside the
// snapshot's exact row count from its log. Screenshots at 1440x900 and 1024x700.
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { tablePath } from '../support/tables.js';
import { oracleRecordCount, oracleSnapshot } from '../support/delta-oracle.js';
import { duckdbRows } from '../support/delta-oracle-rows.js';

const e2e = useBrowserSession('deltaport-e2e-grid-');
const count = (n: number) => n.toLocaleString('en-US');
const status = () => e2e.page.locator('.preview-status');
const grid = () => e2e.page.getByRole('grid');

async function column(name: string): Promise<string[]> {
  const headers = await grid().locator('[role=columnheader] .header-name').allTextContents();
  const k = headers.indexOf(name);
  return grid()
    .locator('[role=rowgroup].grid-body [role=row]')
    .evaluateAll((els, at) => els.map((row) => row.querySelectorAll('[role=gridcell]')[at]?.textContent ?? ''), k);
}

describe('the preview grid', () => {
  it('orders the whole snapshot on a header click, reads on Enter, and pages when scrolled to the end', async () => {
    const root = tablePath('COVID-19_NYT');
    const exact = oracleRecordCount(await oracleSnapshot(root, 0))!;
    const cases = (await duckdbRows(root, 0, 'true', ['cases'])).rows.map(Number).sort((a, b) => b - a);
    expect(cases.length).toBe(exact);

    await e2e.page.getByLabel('Table location', { exact: true }).fill(root);
    await e2e.page.getByRole('button', { name: 'Open', exact: true }).click();
    await e2e.page.locator('.snapshot-bar .table-name', { hasText: 'COVID-19_NYT' }).waitFor();
    await status()
      .filter({ hasText: `1,000 of ${count(exact)} rows loaded` })
      .waitFor();
    const loadedMax = Math.max(...(await column('cases')).map((t) => Number(t.replace(/\D/g, ''))));
    expect(loadedMax).toBeLessThan(cases[0]);

    const header = grid().locator('[role=columnheader]', { has: e2e.page.locator('.header-name', { hasText: /^cases$/ }) });
    await header.click();
    await status()
      .filter({ hasText: `ordered by cases over all ${count(exact)} rows of the snapshot` })
      .waitFor({ timeout: 60_000 });
    await header.click();
    await status()
      .filter({ hasText: `ordered by cases desc over all ${count(exact)} rows of the snapshot` })
      .waitFor({ timeout: 60_000 });
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    expect(await e2e.page.getByLabel('Order by', { exact: true }).inputValue()).toBe('cases desc');
    const top = (await column('cases')).slice(0, 3).map((t) => Number(t.replace(/\D/g, '')));
    expect(top).toEqual(cases.slice(0, 3));
    await screenshot(e2e.page, 'grid-header-sort-1440');

    // Scrolling to the end adds the next page of the same order.
    await grid().evaluate((el) => (el.scrollTop = el.scrollHeight));
    await status()
      .filter({ hasText: `2,000 of ${count(exact)} rows loaded` })
      .waitFor({ timeout: 60_000 });
    expect(await grid().getAttribute('aria-rowcount')).toBe('2001');
    // Where the pages meet (rows 1,000 and 1,001, still in view), the order goes on as DuckDB's does.
    const headers = await grid().locator('[role=columnheader] .header-name').allTextContents();
    const at = async (rowIndex: number) =>
      Number(
        (
          await grid()
            .locator(`[role=row][aria-rowindex="${rowIndex + 2}"] [role=gridcell]`)
            .nth(headers.indexOf('cases'))
            .textContent()
        )?.replace(/\D/g, ''),
      );
    expect([await at(999), await at(1000)]).toEqual([cases[999], cases[1000]]);

    // A changed filter shows the stale bar; Enter in the field reads.
    const where = "state = 'Ohio'";
    const filter = e2e.page.getByLabel('Filter rows', { exact: true });
    await filter.fill(where);
    await e2e.page.getByRole('status').filter({ hasText: 'the filter has changed' }).waitFor();
    await filter.press('Enter');
    const ohio = (await duckdbRows(root, 0, where, ['cases'])).rows.length;
    await status()
      .filter({ hasText: `1,000 of ${count(ohio)} matching rows loaded (the snapshot has ${count(exact)})` })
      .waitFor({ timeout: 60_000 });
    expect(await e2e.page.getByRole('status').filter({ hasText: 'These rows are of' }).count()).toBe(0);
    await e2e.page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(e2e.page, 'grid-header-sort-1024');
    await e2e.page.setViewportSize({ width: 1440, height: 900 });
    expect(e2e.pageErrors).toEqual([]);
  }, 240_000);

  it('shows a time-travel problem whole under the snapshot bar, at 1440x900 and 1024x700', async () => {
    const root = tablePath('simple_table');
    await e2e.page.getByLabel('Table location', { exact: true }).fill(root);
    await e2e.page.getByRole('button', { name: 'Open', exact: true }).click();
    await e2e.page.locator('.snapshot-bar .table-name', { hasText: 'simple_table' }).waitFor();
    const timestamp = e2e.page.getByLabel('Timestamp', { exact: true });
    // Before the table's first commit (its log's earliest time): the whole sentence is said, not cut to "…".
    await timestamp.fill('2000-01-01 04:55');
    const problem = e2e.page.locator('#travel-problem');
    await problem.waitFor();
    const text = (await problem.textContent()) ?? '';
    expect(text).toMatch(/before the earliest commit/);
    expect(text).not.toContain('…');
    expect(await timestamp.getAttribute('aria-describedby')).toBe('travel-problem');
    // Nothing of it is hidden: the line is as wide as it needs, and wraps.
    expect(await problem.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(e2e.page, 'time-travel-problem-1440');
    await e2e.page.setViewportSize({ width: 1024, height: 700 });
    expect(await problem.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(e2e.page, 'time-travel-problem-1024');
    await e2e.page.setViewportSize({ width: 1440, height: 900 });
    await timestamp.fill('');
    await problem.waitFor({ state: 'detached' });
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);
});
