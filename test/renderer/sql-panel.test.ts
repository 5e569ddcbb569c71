// @vitest-environment happy-dom
// The SQL tab against the real engine: the history of recent queries per table in the window's stored state, a run
// whose rows and scanned counts are DuckDB's over the table's files, a failure in one line, and Export these rows
// handing over the query that gave the rows shown (not the editor's later text).
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import path from 'node:path';
import { createElement } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RowsToExport } from '../../renderer/src/components/RowsExport.js';
import { duckdbRows } from '../support/delta-oracle-rows.js';
import { commitVersions, liveRowCount } from '../support/delta-oracle.js';
import { tablePath } from '../support/tables.js';
import { installInProcessApi, type InProcessApi } from './in-process-api.js';

const CDF = tablePath('cdf-table');
const OTHER = tablePath('simple_table');
const LATEST = Math.max(...commitVersions(CDF));
const GROUP_BY = 'SELECT birthday, count(*) AS n FROM t GROUP BY birthday ORDER BY birthday';

let host: InProcessApi;
let SqlPanel: typeof import('../../renderer/src/components/SqlPanel.js').SqlPanel;
let history: typeof import('../../renderer/src/sql-history.js');

beforeAll(async () => {
  host = installInProcessApi();
  ({ SqlPanel } = await import('../../renderer/src/components/SqlPanel.js'));
  history = await import('../../renderer/src/sql-history.js');
});
beforeEach(() => localStorage.clear());
afterEach(cleanup);
afterAll(() => host.close());

function renderPanel(exported: RowsToExport[] = []) {
  const fields = [{ name: 'id' }, { name: 'name' }, { name: 'birthday' }];
  return render(createElement(SqlPanel, { path: CDF, version: LATEST, fields, onExportRows: (rows) => exported.push(rows) }));
}

describe('recent queries', () => {
  it('keeps each table its own, newest first, a query run again once, at most HISTORY_LENGTH', () => {
    history.rememberQuery(CDF, 'SELECT 1');
    history.rememberQuery(OTHER, 'SELECT 2');
    history.rememberQuery(CDF, 'SELECT 3');
    history.rememberQuery(CDF, 'SELECT 1');
    expect(history.recentQueries(CDF)).toEqual(['SELECT 1', 'SELECT 3']);
    expect(history.recentQueries(OTHER)).toEqual(['SELECT 2']);
    for (let i = 0; i < history.HISTORY_LENGTH + 5; i++) history.rememberQuery(CDF, `SELECT ${i + 10}`);
    const kept = history.recentQueries(CDF);
    expect(kept).toHaveLength(history.HISTORY_LENGTH);
    expect(kept[0]).toBe(`SELECT ${history.HISTORY_LENGTH + 14}`);
  });

  it('starts over from a stored value it cannot read', () => {
    localStorage.setItem('deltaport.sqlHistory', '{not json');
    expect(history.recentQueries(CDF)).toEqual([]);
    expect(history.rememberQuery(CDF, 'SELECT 1')).toEqual(['SELECT 1']);
  });
});

describe('SqlPanel', () => {
  it("runs the table's last query, shows DuckDB's rows and the rows scanned, and exports that query", async () => {
    const { rows } = await duckdbRows(CDF, LATEST, 'true', ['birthday']);
    const counts = new Map<string, number>();
    for (const birthday of rows) counts.set(birthday, (counts.get(birthday) ?? 0) + 1);
    history.rememberQuery(CDF, GROUP_BY);
    const exported: RowsToExport[] = [];
    renderPanel(exported);
    expect(screen.getByRole('button', { name: 'Export these rows' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    const grid = await screen.findByRole('grid', { name: 'Query result' }, { timeout: 20_000 });
    expect(grid.getAttribute('aria-rowcount')).toBe(String(counts.size + 1));
    expect(screen.getByRole('status').textContent).toMatch(
      new RegExp(`^${counts.size} rows in [0-9.]+ s; rows scanned t v${LATEST}: ${rows.length}\\. Clicking a header sorts`),
    );

    // The button says that the export runs the query again, and why.
    const exportButton = screen.getByRole('button', { name: 'Export these rows' });
    expect(exportButton.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(exportButton.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Export these rows runs the query again, over the same versions, and writes every row: this window keeps at most 10,000.',
    );
    fireEvent.click(exportButton);
    expect(exported).toEqual([
      {
        source: { rows: 'sql', tablePath: CDF, sql: GROUP_BY, tables: { t: { path: CDF, versionAsOf: LATEST } } },
        columns: ['birthday', 'n'],
      },
    ]);
  });

  it('brings at most SQL_ROWS_SHOWN rows into the window and says there are more', async () => {
    const { SQL_ROWS_SHOWN } = await import('../../renderer/src/components/SqlPanel.js');
    history.rememberQuery(CDF, `SELECT range FROM range(${SQL_ROWS_SHOWN + 1})`);
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    const grid = await screen.findByRole('grid', { name: 'Query result' }, { timeout: 20_000 });
    expect(grid.getAttribute('aria-rowcount')).toBe(String(SQL_ROWS_SHOWN + 1));
    expect(screen.getByRole('status').textContent).toMatch(/^first 10,000 rows shown \(the query returns more\) in /);
  });

  it('names other tables, each at the version it had when added, remembered per table, and exports with them', async () => {
    const otherLatest = Math.max(...commitVersions(OTHER));
    const exported: RowsToExport[] = [];
    const query = 'SELECT count(*)::INTEGER AS n FROM other';
    history.rememberQuery(CDF, query);
    renderPanel(exported);
    const input = screen.getByLabelText('Add a table');
    // Bad input is refused in one line, and nothing is added.
    fireEvent.change(input, { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect((await screen.findByRole('alert')).textContent).toBe('!Give the table as name=location, e.g. orders=/data/orders.');
    fireEvent.change(input, { target: { value: 't=/somewhere' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect((await screen.findByRole('alert')).textContent).toBe("!The name 't' is already in use.");
    fireEvent.change(input, { target: { value: `other=${path.join(OTHER, 'no-such-table')}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^!Cannot add the table: /), { timeout: 20_000 });
    fireEvent.change(input, { target: { value: `other=${OTHER}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await screen.findByRole('button', { name: 'Remove other' }, { timeout: 20_000 });
    expect(screen.queryByRole('alert')).toBeNull();
    const { namedTables } = await import('../../renderer/src/sql-tables.js');
    expect(namedTables(CDF)).toEqual([{ name: 'other', path: OTHER }]);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    const grid = await screen.findByRole('grid', { name: 'Query result' }, { timeout: 20_000 });
    expect(grid.getAttribute('aria-rowcount')).toBe('2');
    expect(
      within(grid)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    ).toContain(String(await liveRowCount(OTHER)));
    expect(screen.getByRole('status').textContent).toContain(`rows scanned other v${otherLatest}: `);
    fireEvent.click(screen.getByRole('button', { name: 'Export these rows' }));
    expect(exported[0].source).toEqual({
      rows: 'sql',
      tablePath: CDF,
      sql: query,
      tables: { t: { path: CDF, versionAsOf: LATEST }, other: { path: OTHER, versionAsOf: otherLatest } },
    });

    // The tab opened again on the same table names it still; removed, it is gone.
    cleanup();
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove other' }, { timeout: 20_000 }));
    expect(screen.queryByRole('button', { name: 'Remove other' })).toBeNull();
    expect(namedTables(CDF)).toEqual([]);
  });

  it('says a failure in one line with its place, and keeps the query in the history', async () => {
    history.rememberQuery(CDF, 'SELECT birthday FROM t WHERE');
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 20_000 });
    expect(alert.textContent).toBe('!Query failed: Syntax error at end of input (line 1, column 29)');
    const options = within(screen.getByLabelText('Recent queries')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['1 on this table', 'SELECT birthday FROM t WHERE']);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Run' }).hasAttribute('disabled')).toBe(false));
  });
});
