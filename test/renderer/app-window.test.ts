// @vitest-environment happy-dom
// The window as one component (App with useTable) against the real engine: a table opens on its first rows, a
// changed choice marks the grid stale until Refresh, and new commits are announced with a way to move to them.
import fs from 'node:fs';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { windowUnderTest } from './in-process-api.js';
import { tablePath } from '../support/tables.js';
import { commitFile, commitVersions, liveFiles } from '../support/delta-oracle.js';
import { duck, sqlText } from '../support/duckdb.js';

const win = windowUnderTest();

async function openTable(location: string): Promise<void> {
  fireEvent.change(screen.getByLabelText('Table location'), { target: { value: location } });
  fireEvent.click(screen.getByRole('button', { name: 'Open' }));
  await screen.findByText(/^Latest snapshot/, undefined, { timeout: 20_000 });
}

function gridHeaders(): string[] {
  return within(screen.getByRole('grid'))
    .getAllByRole('columnheader')
    .map((h) => h.querySelector('.header-name')?.textContent ?? '')
    .filter(Boolean);
}

describe('the window', () => {
  it('opens a table on its first rows, then marks them stale when a column is unchecked until Refresh', async () => {
    const root = tablePath('delta-0.8.0-partitioned');
    win.renderApp();
    await openTable(root);
    const status = await screen.findByText(/snapshot v0/, undefined, { timeout: 20_000 });
    expect(status.textContent).toBe('snapshot v0');
    const rows = (await duck(`SELECT count(*) AS n FROM read_parquet(${sqlText(path.join(root, '**/*.parquet'))})`))[0].n;
    expect(Number(screen.getByRole('grid').getAttribute('aria-rowcount'))).toBe(Number(rows) + 1);
    expect(gridHeaders()).toEqual(['value', 'year', 'month', 'day']);

    fireEvent.click(screen.getByRole('checkbox', { name: 'day' }));
    const stale = await screen.findByText('These rows are of v0, 4 columns; 3 columns are now chosen.');
    expect(gridHeaders()).toEqual(['value', 'year', 'month', 'day']);
    fireEvent.click(within(stale.parentElement!).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(gridHeaders()).toEqual(['value', 'year', 'month']), { timeout: 20_000 });
    expect(screen.queryByText(/These rows are of/)).toBeNull();
  });

  it('announces new commits of the open table and moves to the latest on request', async () => {
    const copy = fs.mkdtempSync(path.join(win.host().dataDir, 'growing-'));
    fs.cpSync(tablePath('simple_table'), copy, { recursive: true });
    const latest = commitVersions(copy).at(-1)!;
    win.renderApp();
    await openTable(copy);
    screen.getByText(`Latest snapshot · v${latest}`);
    const next = latest + 1;
    const info = { commitInfo: { timestamp: Date.now(), operation: 'OPTIMIZE', operationParameters: {} } };
    fs.writeFileSync(commitFile(copy, next), `${JSON.stringify(info)}\n`);
    const go = await screen.findByRole('button', { name: `Go to v${next}` }, { timeout: 15_000 });
    fireEvent.click(go);
    await screen.findByText(`Latest snapshot · v${next}`, undefined, { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: `Go to v${next}` })).toBeNull();
    // The empty commit changed no data: the same files are live.
    expect((await liveFiles(copy, next)).length).toBe((await liveFiles(copy, latest)).length);
  });

  it('starts the Export form afresh for another table: no upsert key or problem of the previous one', async () => {
    win.renderApp();
    await openTable(tablePath('delta-0.8.0-partitioned'));
    fireEvent.change(screen.getByLabelText('Filter rows'), { target: { value: "year = '2021'" } });
    fireEvent.change(screen.getByLabelText('Order by'), { target: { value: 'value desc' } });
    fireEvent.click(screen.getByRole('tab', { name: /^Export/ }));
    fireEvent.change(screen.getByLabelText('Sink'), { target: { value: 'sqlite' } });
    fireEvent.change(screen.getByLabelText('Write mode'), { target: { value: 'upsert' } });
    fireEvent.change(screen.getByLabelText('Key columns'), { target: { value: 'value' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    const bar = () => document.querySelector<HTMLElement>('.export-bar')!;
    expect(within(bar()).getByRole('alert').textContent).toContain('Choose the SQLite file to write into.');

    await openTable(tablePath('simple_table'));
    await screen.findByText('simple_table', { selector: '.table-name' });
    fireEvent.click(screen.getByRole('tab', { name: /^Export/ }));
    expect((screen.getByLabelText('Key columns') as HTMLInputElement).value).toBe('');
    expect(within(bar()).queryByRole('alert')).toBeNull();
    // The filter and the order were that table's too.
    fireEvent.click(screen.getByRole('tab', { name: /^Data/ }));
    expect((screen.getByLabelText('Filter rows') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Order by') as HTMLInputElement).value).toBe('');
  });
});
