// The filter bar end to end: the built renderer in real Chromium against `deltaport serve`. The filter is checked as
// it is typed (the problem and its position shown, Preview held back), and the grid then holds exactly the rows
// DuckDB keeps over the table's files; the export takes the same filter, and its job says what the filter skipped.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { tablePath } from '../support/tables.js';
import { duckdbRows } from '../support/delta-oracle-rows.js';

const e2e = useBrowserSession('deltaport-e2e-filter-');

describe('filter bar', () => {
  it('validates as the user types and previews only the matching rows', async () => {
    const table = tablePath('delta-0.8.0-partitioned');
    await e2e.page.getByLabel('Table location', { exact: true }).fill(table);
    await e2e.page.getByRole('button', { name: 'Open', exact: true }).click();
    await e2e.page.getByText('Latest snapshot').waitFor();
    await e2e.page.getByRole('tab', { name: /^Data/ }).click();

    const field = e2e.page.getByLabel('Filter rows', { exact: true });
    await field.fill("year = '2021' AND");
    await e2e.page.getByText('filter: the filter ends where a value or column was expected at position 18').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await e2e.page.getByRole('button', { name: 'Preview', exact: true }).isDisabled()).toBe(true);
    await field.fill("year = '2021' AND nope = 1");
    await e2e.page.getByText(/^filter: no column 'nope'/).waitFor();

    const where = "year = '2021' AND month <> '4'";
    await field.fill(where);
    expect(await field.getAttribute('aria-invalid')).toBe('false');
    await e2e.page.getByRole('button', { name: 'Preview', exact: true }).click();
    // Opening the table already read its first rows, unfiltered: wait for the read that says what the filter skipped.
    await e2e.page.locator('.preview-status', { hasText: 'filter skipped' }).waitFor();
    const headers = await e2e.page.getByRole('grid').locator('[role=columnheader] .header-name').allTextContents();
    const rows = await e2e.page
      .getByRole('grid')
      .locator('[role=rowgroup].grid-body [role=row]')
      .evaluateAll((els) => els.map((row) => [...row.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? '')));
    const expected = await duckdbRows(table, 0, where, headers);
    expect(rows.map((r) => r.join('|')).sort()).toEqual(expected.rows);
    expect(rows.length).toBeGreaterThan(0);
    await screenshot(e2e.page, 'filter-bar');
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it('exports with the filter, and the job says how many files it skipped', async () => {
    const table = tablePath('delta-0.8.0-partitioned');
    await e2e.page.getByLabel('Table location', { exact: true }).fill(table);
    await e2e.page.getByRole('button', { name: 'Open', exact: true }).click();
    await e2e.page.getByText('Latest snapshot').waitFor();
    await e2e.page.getByRole('tab', { name: /^Data/ }).click();
    const where = "year = '2021' AND month <> '4'";
    await e2e.page.getByLabel('Filter rows', { exact: true }).fill(where);
    await e2e.page.getByRole('button', { name: 'Preview', exact: true }).click();
    await e2e.page.locator('.preview-status', { hasText: 'filter skipped' }).waitFor();
    // From the log: the partition values rule out every file of another year, and those of April.
    const files = (await duckdbRows(table, 0, where, ['value'])).files;
    const skipped = files.filter((add) => add.partitionValues.year !== '2021' || add.partitionValues.month === '4');
    const size = (list: typeof files) => list.reduce((n, add) => n + (add.size as number), 0);
    const kib = (n: number) => `${(n / 1024).toFixed(2)} KiB`; // a few KiB: two decimals below 10
    await e2e.page.getByRole('tab', { name: /^Export/ }).click();
    await e2e.page.getByLabel('Sink', { exact: true }).selectOption('CSV');
    await e2e.page.getByLabel('Output file', { exact: true }).fill(path.join(e2e.scratch, 'filtered.csv'));
    await e2e.page.getByRole('button', { name: 'Export', exact: true }).click();
    const job = e2e.page.getByRole('region', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: 'filtered.csv' }).first();
    await job.getByText('Done', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await job.locator('.job-figures').innerText()).toContain(
      `skipped ${skipped.length} of ${files.length} files (${kib(size(skipped))} of ${kib(size(files))})`,
    );
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it('orders the whole snapshot, after the filter, and says what the order covers', async () => {
    const table = tablePath('COVID-19_NYT');
    await e2e.page.getByLabel('Table location', { exact: true }).fill(table);
    await e2e.page.getByRole('button', { name: 'Open', exact: true }).click();
    await e2e.page.locator('.snapshot-bar .table-name', { hasText: 'COVID-19_NYT' }).waitFor();
    await e2e.page.getByRole('tab', { name: /^Data/ }).click();
    const order = e2e.page.getByLabel('Order by', { exact: true });
    await order.fill('nope desc');
    await e2e.page.getByText("Order by: there is no column 'nope'").waitFor();
    expect(await e2e.page.getByRole('button', { name: 'Preview', exact: true }).isDisabled()).toBe(true);

    const where = "state = 'Ohio'";
    await e2e.page.getByLabel('Filter rows', { exact: true }).fill(where);
    await order.fill('cases desc, date');
    await e2e.page.getByLabel('Row limit', { exact: true }).fill('5');
    await e2e.page.getByRole('button', { name: 'Preview', exact: true }).click();
    const matching = (await duckdbRows(table, 0, where, ['cases'])).rows.length;
    // Wait for the read of five rows that the Preview press asked for.
    await e2e.page
      .locator('.preview-status', {
        hasText: `ordered by cases desc, date over the ${matching.toLocaleString('en-US')} rows matching the filter`,
      })
      .filter({ hasText: `5 of ${matching.toLocaleString('en-US')} matching rows loaded` })
      .waitFor();
    const headers = await e2e.page.getByRole('grid').locator('[role=columnheader] .header-name').allTextContents();
    const cases = headers.indexOf('cases');
    const shown = await e2e.page
      .getByRole('grid')
      .locator('[role=rowgroup].grid-body [role=row]')
      .evaluateAll((els, k) => els.map((row) => row.querySelectorAll('[role=gridcell]')[k].textContent ?? ''), cases);
    // DuckDB's five largest Ohio case counts, in order.
    const top = (await duckdbRows(table, 0, `${where} ORDER BY cases DESC LIMIT 5`, ['cases'])).rows.map(Number).sort((a, b) => b - a);
    expect(shown.map((t) => Number(t.replace(/[^0-9]/g, '')))).toEqual(top);
    await screenshot(e2e.page, 'order-by');
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);
});
