// Storage connections end to end: the built renderer in real Chromium against `deltaport serve`, a real S3 server
// (moto, with IAM auth on) holding a copy of simple_table. The user saves a connection in the dialog and opens the
// table by its s3:// URL; its schema and rows are checked against the table's own log and DuckDB over the local copy.
// `deltaport serve` has no OS encryption: the secret is kept for the session only, which the dialog says, and it is
// written nowhere (not the state folder, not the host's output, not the page).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import type { S3Store } from '../support/object-stores.js';
import { startS3WithTable } from '../support/s3-table.js';
import { tablePath } from '../support/tables.js';
import { commitVersions, readCommit } from '../support/delta-oracle.js';
import { duckdbRows } from '../support/delta-oracle-rows.js';

const e2e = useBrowserSession('deltaport-e2e-connections-');
let s3: S3Store | null = null;
let skipReason = '';

beforeAll(async () => {
  const started = await startS3WithTable('lake', 'simple_table');
  if ('skipped' in started) skipReason = started.skipped;
  else s3 = started.s3;
}, 120_000);

afterAll(async () => {
  await s3?.stop();
});

/** The latest schema the local copy's log declares. */
function logFields(root: string): { name: string; type: string }[] {
  let schemaString = '';
  for (const version of commitVersions(root)) {
    const meta = readCommit(root, version).find((a) => a.metaData)?.metaData;
    if (meta) schemaString = meta.schemaString as string;
  }
  return (JSON.parse(schemaString) as { fields: { name: string; type: string }[] }).fields;
}

/** Every byte under a folder. */
function bytesUnder(dir: string): Buffer {
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Buffer.concat(entries.map((e) => fs.readFileSync(path.join(e.parentPath, e.name))));
}

describe('storage connections', () => {
  it('saves an S3 connection in the dialog (its secret for this session only) and opens a table in the bucket', async (ctx: TestContext) => {
    if (!s3) return ctx.skip(`S3 skipped: ${skipReason}`);
    const page = e2e.page;
    await page.getByRole('button', { name: 'Storage connections' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Storage connections' });
    await dialog.getByText('None saved yet.').waitFor();
    await dialog.getByText('This host cannot encrypt secrets: they are kept in memory until it stops and never written to disk.').waitFor();

    await dialog.getByRole('button', { name: 'Add connection' }).click();
    const form = dialog.getByRole('form', { name: 'New storage connection' });
    const field = (name: string) => form.getByLabel(name, { exact: true });
    await field('Connection name').fill('moto');
    expect(await field('Store').inputValue()).toBe('s3');
    await field('Applies to').fill('s3://lake');
    await field('Endpoint').fill(s3.endpoint);
    await field('Region').fill('us-east-1');
    await field('Path style').selectOption('true');
    await field('Access key ID').fill(s3.accessKeyId);
    await field('Secret access key').fill(s3.secretAccessKey);
    expect(await field('Secret access key').getAttribute('type')).toBe('password');
    // Azure's fields belong to another store.
    expect(await form.getByLabel('Account key', { exact: true }).count()).toBe(0);
    await screenshot(page, 'storage-connections-form');
    await form.getByRole('button', { name: 'Save connection' }).click();

    await dialog.getByRole('status').filter({ hasText: 'Saved “moto”; its secrets are kept until this host stops, not on disk' }).waitFor();
    const row = dialog.getByRole('row').filter({ hasText: 'moto' });
    expect(await row.locator('td').allTextContents()).toEqual([
      'moto',
      's3://lake',
      'Secret access key set (this session only)',
      'EditDelete',
    ]);
    await screenshot(page, 'storage-connections');

    // Edited again, the secret's field is empty and says it is saved; the page never held the value again.
    await row.getByRole('button', { name: 'Edit moto' }).click();
    const editForm = dialog.getByRole('form', { name: 'Edit moto' });
    const secretField = editForm.getByLabel('Secret access key', { exact: true });
    expect([await secretField.inputValue(), await secretField.getAttribute('placeholder')]).toEqual(['', 'saved']);
    expect(await editForm.getByLabel('Endpoint', { exact: true }).inputValue()).toBe(s3.endpoint);
    await editForm.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const location = 's3://lake/simple_table';
    await page.getByLabel('Table location', { exact: true }).fill(location);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText('Latest snapshot').waitFor();

    const root = tablePath('simple_table');
    const version = Math.max(...commitVersions(root));
    await page.getByRole('tab', { name: /^Overview/ }).click();
    const tree = page.getByRole('list', { name: 'Schema' });
    const names = await tree.locator(':scope > li .schema-name').allTextContents();
    const types = await tree.locator(':scope > li .schema-type').allTextContents();
    expect(names.map((n, i) => [n, types[i]])).toEqual(logFields(root).map((f) => [f.name, f.type]));

    await page.getByRole('tab', { name: /^Data/ }).click();
    const grid = page.getByRole('grid');
    await grid.locator('[role=columnheader] .header-name').first().waitFor();
    const headers = await grid.locator('[role=columnheader] .header-name').allTextContents();
    const expected = await duckdbRows(root, version, 'true', headers);
    await expect.poll(() => grid.locator('[role=rowgroup].grid-body [role=row]').count()).toBe(expected.rows.length);
    const rows = await grid
      .locator('[role=rowgroup].grid-body [role=row]')
      .evaluateAll((els) => els.map((r) => [...r.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? '').join('|')));
    expect(rows.sort()).toEqual(expected.rows);
    await screenshot(page, 'storage-connections-s3-table');

    expect(bytesUnder(e2e.app.dataDir).includes(s3.secretAccessKey)).toBe(false);
    expect(e2e.app.stderr()).not.toContain(s3.secretAccessKey);
    expect(await page.content()).not.toContain(s3.secretAccessKey);

    // The navigator lists the connection's bucket, down to the table; opening it shows the tab that has it.
    await page.getByRole('button', { name: 'Navigator', exact: true }).click();
    const navigator = page.getByRole('tree', { name: 'Places and buckets' });
    await navigator.getByRole('treeitem', { name: 'moto (s3://lake)', exact: true }).click();
    await navigator.getByRole('treeitem', { name: 'simple_table', exact: true }).click();
    const table = navigator.getByRole('treeitem', { name: `simple_table (table, v${version})`, exact: true });
    await table.waitFor();
    expect(await table.getAttribute('title')).toBe(location);
    await table.click();
    expect(await page.locator('.table-view').count()).toBe(1);
    await screenshot(page, 'storage-connections-navigator');

    await page.getByRole('button', { name: 'Storage connections' }).first().click();
    await dialog.getByRole('row').filter({ hasText: 'moto' }).getByRole('button', { name: 'Delete moto' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Deleted “moto”.' }).waitFor();
    await dialog.getByText('None saved yet.').waitFor();
    expect(e2e.pageErrors).toEqual([]);
  }, 180_000);
});
