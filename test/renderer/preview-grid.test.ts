// @vitest-environment happy-dom
// The Data tab's grid must not tell a wrong answer, against the real engine: a header click orders every row of the
// snapshot (not just those loaded) and the status says what the order covers; a changed filter, order or row limit
// marks the rows stale; the status gives the snapshot's exact row count from its log beside the rows loaded; and
// scrolling to the end loads the next page of the same read until every row is there, once each.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { windowUnderTest } from './in-process-api.js';
import { tablePath } from '../support/tables.js';
import { oracleRecordCount, oracleSnapshot } from '../support/delta-oracle.js';
import { duckdbRows } from '../support/delta-oracle-rows.js';

const win = windowUnderTest();

const count = (n: number) => n.toLocaleString('en-US');

async function openTable(location: string): Promise<void> {
  fireEvent.change(screen.getByLabelText('Table location'), { target: { value: location } });
  fireEvent.click(screen.getByRole('button', { name: 'Open' }));
  await screen.findByText(/^Latest snapshot/, undefined, { timeout: 20_000 });
}

function header(name: string): HTMLElement {
  return within(screen.getByRole('grid'))
    .getAllByRole('columnheader')
    .find((h) => h.querySelector('.header-name')?.textContent === name)!;
}

/** The grid's cells as text, row by row, in the order shown. */
function gridRows(): string[][] {
  return within(screen.getByRole('grid'))
    .queryAllByRole('row')
    .filter((row) => row.querySelector('[role=gridcell]'))
    .map((row) => [...row.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? ''));
}

function status(): string {
  return document.querySelector('.preview-status')?.textContent ?? '';
}

describe('the preview grid', () => {
  it('sorts the whole snapshot on a header click, with the order in the Order by field and the status', async () => {
    const root = tablePath('COVID-19_NYT');
    win.renderApp();
    await openTable(root);
    await waitFor(() => expect(status()).toMatch(/in file order/), { timeout: 30_000 });
    const expected = (await duckdbRows(root, 0, 'true', ['cases'])).rows.map(Number).sort((a, b) => b - a);
    const headers = within(screen.getByRole('grid'))
      .getAllByRole('columnheader')
      .map((h) => h.querySelector('.header-name')?.textContent ?? '')
      .filter(Boolean);
    const cases = headers.indexOf('cases');
    // The rows loaded first are a small part of the snapshot: their largest is not the snapshot's.
    const loadedMax = Math.max(...gridRows().map((r) => Number(r[cases].replace(/[^0-9]/g, ''))));
    expect(loadedMax).toBeLessThan(expected[0]);

    fireEvent.click(header('cases'));
    await waitFor(() => expect(status()).toContain(`ordered by cases over all ${count(expected.length)} rows of the snapshot`), {
      timeout: 60_000,
    });
    expect((screen.getByLabelText('Order by') as HTMLInputElement).value).toBe('cases');
    fireEvent.click(header('cases'));
    await waitFor(() => expect(status()).toContain(`ordered by cases desc over all ${count(expected.length)} rows`), {
      timeout: 60_000,
    });
    expect((screen.getByLabelText('Order by') as HTMLInputElement).value).toBe('cases desc');
    expect(header('cases').getAttribute('aria-sort')).toBe('descending');
    const shown = gridRows()
      .slice(0, 5)
      .map((r) => Number(r[cases].replace(/[^0-9]/g, '')));
    expect(shown).toEqual(expected.slice(0, 5));
    // A third click goes back to file order, for the whole snapshot too.
    fireEvent.click(header('cases'));
    await waitFor(() => expect(status()).toContain('in file order'), { timeout: 60_000 });
    expect((screen.getByLabelText('Order by') as HTMLInputElement).value).toBe('');
  }, 180_000);

  it('marks the rows stale when the filter, the order or the row limit changes, and Enter in a field reads', async () => {
    const root = tablePath('delta-0.8.0-partitioned');
    win.renderApp();
    await openTable(root);
    await waitFor(() => expect(status()).toMatch(/in file order/), { timeout: 20_000 });
    const stale = () => document.querySelector('.stale-bar')?.textContent ?? null;
    expect(stale()).toBeNull();

    const filter = screen.getByLabelText('Filter rows') as HTMLInputElement;
    fireEvent.change(filter, { target: { value: "year = '2021'" } });
    expect(stale()).toContain('These rows are of v0, 4 columns, unfiltered; the filter has changed.');
    // The fields sit in the form Preview submits: Enter in one of them submits it.
    expect(filter.form).toBe(screen.getByRole('button', { name: 'Preview' }).closest('form'));
    fireEvent.submit(filter.form!);
    const matching = (await duckdbRows(root, 0, "year = '2021'", ['value'])).rows.length;
    await waitFor(() => expect(status()).toContain(`${count(matching)} of ${count(matching)} matching rows loaded`), { timeout: 20_000 });
    expect(stale()).toBeNull();

    fireEvent.change(screen.getByLabelText('Order by'), { target: { value: 'value desc' } });
    expect(stale()).toContain('in file order; the order has changed.');
    fireEvent.change(screen.getByLabelText('Order by'), { target: { value: '' } });
    expect(stale()).toBeNull();
    fireEvent.change(screen.getByLabelText('Row limit'), { target: { value: '2' } });
    expect(stale()).toContain('read 1,000 at a time; the row limit is now 2.');
  }, 60_000);

  it("shows the snapshot's exact row count from its log and loads the next page when scrolled to the end", async () => {
    const root = tablePath('COVID-19_NYT');
    const exact = oracleRecordCount(await oracleSnapshot(root, 0))!;
    expect(exact).toBe((await duckdbRows(root, 0, 'true', ['date'])).rows.length);
    const where = "state = 'Ohio' AND county = 'Adams'";
    const columns = ['date', 'county', 'state', 'fips', 'cases', 'deaths'];
    const matching = (await duckdbRows(root, 0, where, columns)).rows;
    expect(matching.length).toBeGreaterThan(100);
    win.renderApp();
    await openTable(root);
    await waitFor(() => expect(status()).toContain(`1,000 of ${count(exact)} rows loaded · scroll to the end for more`), {
      timeout: 30_000,
    });
    fireEvent.change(screen.getByLabelText('Filter rows'), { target: { value: where } });
    fireEvent.change(screen.getByLabelText('Row limit'), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(status()).toContain(`50 matching rows loaded (the snapshot has ${count(exact)})`), { timeout: 30_000 });
    // Each scroll to the end adds a page of the same read, until the read says there are no more rows. The grid
    // shows only the rows in view: they are collected by row number on the way down.
    const grid = screen.getByRole('grid');
    const loaded = () => Number(grid.getAttribute('aria-rowcount')) - 1;
    const seen = new Map<string, string>();
    const collect = () => {
      for (const row of grid.querySelectorAll('[role=rowgroup].grid-body [role=row]')) {
        const cells = [...row.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? '');
        seen.set(
          row.getAttribute('aria-rowindex')!,
          cells.map((cell, i) => (['cases', 'deaths'].includes(columns[i]) ? cell.replaceAll(',', '') : cell)).join('|'),
        );
      }
    };
    for (let page = 0; page < matching.length && status().includes('scroll to the end'); page++) {
      const before = loaded();
      for (let top = 0; top <= before * 28; top += 280) {
        grid.scrollTop = top;
        fireEvent.scroll(grid);
        collect();
      }
      await waitFor(() => expect(loaded() > before || !status().includes('scroll to the end')).toBe(true), { timeout: 30_000 });
    }
    expect(status()).toContain(`${count(matching.length)} of ${count(matching.length)} matching rows loaded`);
    expect(loaded()).toBe(matching.length);
    for (let top = 0; top <= loaded() * 28; top += 280) {
      grid.scrollTop = top;
      fireEvent.scroll(grid);
      collect();
    }
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((h) => h.querySelector('.header-name')?.textContent ?? '')
      .filter(Boolean);
    expect(headers).toEqual(columns);
    expect([...seen.values()].sort()).toEqual(matching);
  }, 180_000);

  it('says each problem of the Data tab in plain words, tied to its field for screen readers', async () => {
    win.renderApp();
    await openTable(tablePath('COVID-19_NYT'));
    const described = (field: HTMLElement) => {
      const id = field.getAttribute('aria-describedby');
      expect(id).not.toBeNull();
      return document.getElementById(id!)?.textContent ?? '';
    };
    const filter = screen.getByLabelText('Filter rows');
    fireEvent.change(filter, { target: { value: 'county = 5' } });
    expect(described(filter)).toBe(
      "filter: = cannot compare string column 'county' with a long value at position 10; put the value in single quotes: county = '5'",
    );
    const order = screen.getByLabelText('Order by');
    fireEvent.change(order, { target: { value: 'cases desc,' } });
    expect(described(order)).toBe('Order by: a column name is missing after the last comma (e.g. cases desc nulls last, state)');
    const limit = screen.getByLabelText('Row limit');
    fireEvent.change(limit, { target: { value: '0' } });
    expect(described(limit)).toBe('Row limit must be a whole number from 1 to 100,000.');
    expect(limit.getAttribute('aria-invalid')).toBe('true');
  }, 60_000);

  it("filters by a cell's value and sums a range of numeric cells", async () => {
    const root = tablePath('COVID-19_NYT');
    win.renderApp();
    await openTable(root);
    await waitFor(() => expect(status()).toMatch(/in file order/), { timeout: 30_000 });
    const grid = screen.getByRole('grid');
    const cell = (row: number, col: number) =>
      grid.querySelector<HTMLElement>(`[role=row][aria-rowindex="${row + 2}"] [role=gridcell][aria-colindex="${col + 2}"]`)!;
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((h) => h.querySelector('.header-name')?.textContent ?? '')
      .filter(Boolean);
    const cases = headers.indexOf('cases');
    const county = headers.indexOf('county');

    // Rows 1 to 3 of cases and deaths: the status sums the numeric cells.
    fireEvent.mouseDown(cell(0, cases));
    fireEvent.mouseDown(cell(2, cases + 1), { shiftKey: true });
    const numbers = [0, 1, 2].flatMap((r) => [cases, cases + 1].map((c) => Number(cell(r, c).textContent!.replaceAll(',', ''))));
    const position = document.querySelector('.grid-position')!.textContent!;
    expect(position).toContain(
      `count 6, sum ${numbers.reduce((a, b) => a + b, 0).toLocaleString('en-US')}, min ${Math.min(...numbers).toLocaleString('en-US')}, max ${Math.max(...numbers).toLocaleString('en-US')}`,
    );

    fireEvent.mouseDown(cell(0, county));
    const name = cell(0, county).textContent!;
    fireEvent.click(screen.getByRole('button', { name: 'Filter by value' }));
    const where = `county = '${name.replaceAll("'", "''")}'`;
    expect((screen.getByLabelText('Filter rows') as HTMLInputElement).value).toBe(where);
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const matching = (await duckdbRows(root, 0, where, ['county'])).rows.length;
    await waitFor(
      () =>
        expect(status()).toMatch(
          new RegExp(`^snapshot v0 ${count(Math.min(matching, 1000))} (of ${count(matching)} )?matching rows loaded`),
        ),
      {
        timeout: 30_000,
      },
    );
  }, 120_000);
});
