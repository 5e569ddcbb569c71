// The diff view, the column profile and the partitions view end to end: the built renderer in real Chromium against
// `deltaport serve`, on cdf-table (partitioned by birthday; two updates that move rows to another partition, then a
// delete). Every expected figure comes from the table's own log (a naive replay) and DuckDB over its parquet files,
// the profile's histogram bins too.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { gridRows, statValue } from '../support/change-views.js';
import { tablePath } from '../support/tables.js';
import { commitInfo, type Json, oracleRecordCount, oracleSnapshot, type OracleSnapshot, readCommit } from '../support/delta-oracle.js';
import { duckCells, fileSelect } from '../support/delta-oracle-rows.js';
import { expectedHistogram, liveRows } from '../electron/delta/histogram-oracle.js';

const e2e = useBrowserSession('deltaport-e2e-diff-');
const TABLE = tablePath('cdf-table');
const COLUMNS = ['id', 'name', 'birthday'];
const count = (n: number) => n.toLocaleString('en-US');

/** Each row of the given files as its columns joined by '|', from DuckDB. */
async function fileRows(snapshot: OracleSnapshot, files: Json[], root = TABLE, columns = COLUMNS, where?: string): Promise<string[]> {
  if (files.length === 0) return [];
  const parts = await Promise.all(files.map((add) => fileSelect(root, snapshot.metaData, add)));
  return duckCells(parts.join(' UNION ALL BY NAME '), columns, where);
}

function stats(add: Json): Json {
  return JSON.parse(add.stats as string) as Json;
}

async function openTable(page: Page, root = TABLE): Promise<void> {
  await page.getByLabel('Table location', { exact: true }).fill(root);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.locator('.snapshot-bar .table-name', { hasText: new RegExp(`^${path.basename(root)}$`) }).waitFor();
}

async function tableRows(page: Page, name: string, section: 'tbody' | 'tfoot' = 'tbody'): Promise<string[][]> {
  return page
    .getByRole('table', { name })
    .locator(`${section} tr`)
    .evaluateAll((els) => els.map((row) => [...row.querySelectorAll('td')].map((c) => c.textContent ?? '')));
}

describe('diff view', () => {
  it('shows the rows added and removed between two ticked commits, and pairs them by key', async () => {
    const [older, newer] = await Promise.all([oracleSnapshot(TABLE, 1), oracleSnapshot(TABLE, 3)]);
    const removedFiles = [...older.adds].filter(([key]) => !newer.adds.has(key)).map(([, add]) => add);
    const addedFiles = [...newer.adds].filter(([key]) => !older.adds.has(key)).map(([, add]) => add);
    const removed = (await fileRows(newer, removedFiles)).sort();
    const added = (await fileRows(newer, addedFiles)).sort();
    expect(removed.length).toBeGreaterThan(0);
    expect(added.length).toBeGreaterThan(0);

    await openTable(e2e.page);
    await e2e.page.getByRole('tab', { name: /^History/ }).click();
    await e2e.page.getByLabel('Compare v1', { exact: true }).check();
    await e2e.page.getByLabel('Compare v3', { exact: true }).check();
    await e2e.page.getByRole('button', { name: 'Show changes', exact: true }).click();
    await e2e.page.getByRole('heading', { name: 'Changes from v1 to v3' }).waitFor();
    const label = 'Changed rows from v1 to v3';
    await e2e.page.getByRole('grid', { name: label }).waitFor();

    expect(await statValue(e2e.page, 'Rows added')).toBe(count(added.length));
    expect(await statValue(e2e.page, 'Rows removed')).toBe(count(removed.length));
    expect(await statValue(e2e.page, 'Files added')).toBe(count(addedFiles.length));
    expect(await statValue(e2e.page, 'Files removed')).toBe(count(removedFiles.length));
    // The feed covers v2 and v3 (the table's commits updating without copies: its net change is the file sets').
    const changeFiles = [2, 3].reduce((n, version) => n + readCommit(TABLE, version).filter((a) => a.cdc).length, 0);
    expect(await e2e.page.locator('.diff-rows-from').innerText()).toBe(`rows from the change data feed (${changeFiles} files read)`);
    const headers = await e2e.page.getByRole('grid', { name: label }).locator('[role=columnheader] .header-name').allTextContents();
    expect(headers).toEqual([...COLUMNS, '_change']);
    const shown = await gridRows(e2e.page, label);
    const of = (change: string) =>
      shown
        .filter((r) => r[3] === change)
        .map((r) => r.slice(0, 3).join('|'))
        .sort();
    expect(of('removed')).toEqual(removed);
    expect(of('added')).toEqual(added);

    // Paired by id: an id on both sides with other values is one update; the rest stay added or removed.
    const id = (row: string) => row.split('|')[0];
    const removedIds = new Set(removed.map(id));
    const updated = added.filter((row) => removedIds.has(id(row)) && !removed.includes(row));
    const pairedIds = new Set(added.map(id));
    await e2e.page.getByLabel('Pair rows by', { exact: true }).fill('nope');
    await e2e.page.getByText("Pair by: no column 'nope' in this table.").waitFor();
    expect(await e2e.page.getByRole('button', { name: 'Compare', exact: true }).isDisabled()).toBe(true);
    await e2e.page.getByLabel('Pair rows by', { exact: true }).fill('id');
    await e2e.page.getByRole('button', { name: 'Compare', exact: true }).click();
    await e2e.page.locator('.diff-stats .stat-label', { hasText: 'Rows updated' }).waitFor();
    expect(updated.length).toBeGreaterThan(0);
    expect(await statValue(e2e.page, 'Rows updated')).toBe(count(updated.length));
    expect(await statValue(e2e.page, 'Rows removed')).toBe(count(removed.filter((row) => !pairedIds.has(id(row))).length));
    const paired = await gridRows(e2e.page, label);
    expect(
      paired
        .filter((r) => r[3] === 'updated_to')
        .map((r) => r.slice(0, 3).join('|'))
        .sort(),
    ).toEqual(updated);
    await screenshot(e2e.page, 'diff-view');
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it("shows the rows one commit deleted through a deletion vector (a commit's details: what it changed)", async () => {
    const root = tablePath('cdf-table-with-cdc-and-dvs');
    const [before, after] = await Promise.all([oracleSnapshot(root, 4), oracleSnapshot(root, 5)]);
    // Files kept in place whose deletion vector changed; their rows newly deleted are what the commit's predicate
    // matched among the rows live before it (the file had no deletion vector at v4).
    const byPath = (snapshot: OracleSnapshot) => new Map([...snapshot.adds.values()].map((add) => [add.path as string, add]));
    const old = byPath(before);
    const redeleted = [...byPath(after).values()].filter(
      (add) => old.has(add.path) && !old.get(add.path)?.deletionVector && add.deletionVector,
    );
    expect(redeleted.length).toBe(1);
    const commit = commitInfo(root, 5);
    expect(commit.operationParameters.predicate).toBe('["(id#1936 > 3)"]');
    const deleted = (await fileRows(after, redeleted, root, ['id', 'comment'], 'id > 3')).sort();
    expect(deleted.length).toBe(Number(commit.operationMetrics.numDeletedRows));
    expect(deleted.length).toBe(redeleted[0].deletionVector.cardinality);

    await openTable(e2e.page, root);
    await e2e.page.getByRole('tab', { name: /^History/ }).click();
    await e2e.page.getByRole('button', { name: 'Details of v5', exact: true }).click();
    await e2e.page.getByRole('button', { name: 'Show what v5 changed', exact: true }).click();
    await e2e.page.getByRole('heading', { name: 'Changes from v4 to v5' }).waitFor();
    const label = 'Changed rows from v4 to v5';
    await e2e.page.getByRole('grid', { name: label }).waitFor();
    expect(await statValue(e2e.page, 'Rows removed')).toBe(count(deleted.length));
    expect(await statValue(e2e.page, 'Rows added')).toBe('0');
    expect(await statValue(e2e.page, 'Files removed')).toBe('0');
    const shown = await gridRows(e2e.page, label);
    expect(shown.map((r) => `${r[0]}|${r[1]}|${r[2]}`).sort()).toEqual(deleted.map((row) => `${row}|removed`));
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it('profiles the columns from statistics, then by an exact scan', async () => {
    const snapshot = await oracleSnapshot(TABLE, 3);
    const files = [...snapshot.adds.values()];
    const ids = files.map((add) => stats(add));
    const minId = Math.min(...ids.map((s) => s.minValues.id as number));
    const maxId = Math.max(...ids.map((s) => s.maxValues.id as number));
    const names = files.flatMap((add) => [stats(add).minValues.name as string, stats(add).maxValues.name as string]).sort();
    const birthdays = files.map((add) => add.partitionValues.birthday as string).sort();

    await openTable(e2e.page);
    await e2e.page.getByRole('tab', { name: /^Profile/ }).click();
    await e2e.page.getByRole('table', { name: 'Column profile' }).waitFor();
    const rowsStat = e2e.page.locator('#panel-profile .stat', { hasText: 'Rows' }).locator('.stat-value');
    expect(await rowsStat.innerText()).toBe(count(oracleRecordCount(snapshot)!));
    const byStats = await tableRows(e2e.page, 'Column profile');
    expect(byStats).toEqual([
      ['id', 'integer', '0', String(minId), String(maxId), '—', 'from statistics'],
      ['name', 'string', '0', names[0], names[names.length - 1], '—', 'from statistics'],
      ['birthday', 'date', '0', birthdays[0], birthdays[birthdays.length - 1], '—', 'from statistics'],
    ]);

    const rows = await fileRows(snapshot, files);
    const distinct = (k: number) => String(new Set(rows.map((r) => r.split('|')[k])).size);
    await e2e.page.getByRole('button', { name: 'Exact scan', exact: true }).click();
    await e2e.page.getByRole('table', { name: 'Column profile' }).getByText('exact scan').first().waitFor();
    const scanned = await tableRows(e2e.page, 'Column profile');
    expect(scanned.map((r) => [r[0], r[5], r[6]])).toEqual([
      ['id', distinct(0), 'exact scan'],
      ['name', distinct(1), 'exact scan'],
      ['birthday', distinct(2), 'exact scan'],
    ]);
    expect(await rowsStat.innerText()).toBe(count(rows.length));
    // The id column's chart: each bin's range and count in its label, as DuckDB bins the same files.
    const expected = (await expectedHistogram(await liveRows(TABLE, 3), 'id', 'integer'))!;
    const chart = await e2e.page.getByRole('img', { name: /^Histogram of id: / }).getAttribute('aria-label');
    const rowsText = (n: number) => `${count(n)} ${n === 1 ? 'row' : 'rows'}`;
    const bins = expected.bounds!.map(([from, to], k) => `${from === to ? from : `${from} to ${to}`}: ${rowsText(expected.counts[k])}`);
    expect(chart).toBe(`Histogram of id: ${bins.join('; ')}`);
    expect(await e2e.page.getByRole('img', { name: /^Histogram of name: / }).count()).toBe(0);
    await screenshot(e2e.page, 'profile');
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  it('lists every partition with its files, rows and bytes', async () => {
    const snapshot = await oracleSnapshot(TABLE, 3);
    const expected = new Map<string, { files: number; rows: number; bytes: number }>();
    for (const add of snapshot.adds.values()) {
      const value = add.partitionValues.birthday as string;
      const part = expected.get(value) ?? { files: 0, rows: 0, bytes: 0 };
      expected.set(value, {
        files: part.files + 1,
        rows: part.rows + (stats(add).numRecords as number),
        bytes: part.bytes + (add.size as number),
      });
    }

    await openTable(e2e.page);
    await e2e.page.getByRole('tab', { name: /^Partitions/ }).click();
    await e2e.page.getByRole('table', { name: 'Partitions' }).waitFor();
    const shown = await tableRows(e2e.page, 'Partitions');
    const titles = await e2e.page
      .getByRole('table', { name: 'Partitions' })
      .locator('tbody td:last-child')
      .evaluateAll((els) => els.map((c) => c.getAttribute('title')));
    const lines = shown.map((r, i) => `${r[0]} ${r[1]} ${r[2]} ${titles[i]}`).sort();
    const want = [...expected].map(([value, p]) => `${value} ${count(p.files)} ${count(p.rows)} ${count(p.bytes)} bytes`).sort();
    expect(lines).toEqual(want);
    const total = (await tableRows(e2e.page, 'Partitions', 'tfoot'))[0];
    expect(total.slice(0, 3)).toEqual(['Total', count(snapshot.adds.size), count(oracleRecordCount(snapshot)!)]);
    await screenshot(e2e.page, 'partitions');
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);
});
