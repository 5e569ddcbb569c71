// The desktop app itself, started by Playwright's Electron driver with a temporary data folder: the window opens the
// sample table, previews it, copies a cell to the system clipboard and exports the snapshot to SQLite. Only a missing
// Electron binary (its download is impossible on a machine without the network) makes it skip, with the reason;
// anything else that keeps the app from starting (a native module that does not load, no display, a window that never
// shows) fails it. What it cannot run here, test/electron/launcher/packaged-app.test.ts covers under a stand-in.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/app/package-root.js';
import { electronExecutable } from '../../electron/launcher/electron-runtime.js';
import { liveRowCount } from '../support/delta-oracle.js';

const root = packageRoot();
const binary = electronExecutable();
const skipReason = binary
  ? null
  : 'the Electron binary is not installed (it downloads on the first `npm start`, impossible without the network)';

let dataDir: string;
let electronApp: ElectronApplication | undefined;
let page: Page;

beforeAll(async () => {
  if (!binary) return;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-electron-'));
  electronApp = await _electron.launch({
    executablePath: binary,
    args: [root],
    cwd: root,
    env: { ...process.env, DELTAPORT_DATA_DIR: dataDir },
    timeout: 60_000,
  });
  page = await electronApp.firstWindow();
}, 120_000);

afterAll(async () => {
  await electronApp?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the desktop app (Electron)', () => {
  it('opens the sample table and previews it', async (ctx) => {
    if (skipReason) ctx.skip(`Electron smoke test skipped: ${skipReason}`);
    expect(page.url()).toBe('app://deltaport/index.html');
    await page.getByRole('button', { name: 'Sample table', exact: true }).click();
    await page.getByText('Latest snapshot').waitFor({ timeout: 30_000 });
    const sample = await page.getByLabel('Table location', { exact: true }).inputValue();
    expect(sample.startsWith(dataDir)).toBe(true);
    await page.getByRole('tab', { name: /^Data/ }).click();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByRole('grid').getByRole('gridcell').first().waitFor();
    expect(await page.getByRole('grid').locator('.grid-body [role=row]').count()).toBeGreaterThan(0);
  });

  it('copies a cell to the system clipboard', async (ctx) => {
    if (skipReason) ctx.skip(`Electron smoke test skipped: ${skipReason}`);
    const cell = page.getByRole('grid').getByRole('gridcell').first();
    await cell.click();
    await page.getByRole('button', { name: 'Copy cell', exact: true }).click();
    await page.getByText('Cell copied').waitFor();
    const copied = await electronApp!.evaluate(({ clipboard }) => clipboard.readText());
    expect(copied).toBe((await cell.textContent())?.trim());
  });

  it('exports the sample to SQLite, with every live row of its log in the file', async (ctx) => {
    if (skipReason) ctx.skip(`Electron smoke test skipped: ${skipReason}`);
    const sample = await page.getByLabel('Table location', { exact: true }).inputValue();
    const file = path.join(dataDir, 'sample.sqlite');
    await page.getByRole('tab', { name: /^Export/ }).click();
    await page.getByLabel('Sink', { exact: true }).selectOption('SQLite');
    await page.getByLabel('SQLite file', { exact: true }).fill(file);
    await page.getByLabel('Target table', { exact: true }).fill('sales');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const job = page.getByRole('region', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: 'sample.sqlite' }).first();
    await job.getByText('Done', { exact: true }).waitFor({ timeout: 60_000 });
    const db = new Database(file, { readonly: true });
    try {
      expect((db.prepare('SELECT count(*) AS n FROM sales').get() as { n: number }).n).toBe(await liveRowCount(sample));
    } finally {
      db.close();
    }
  });
});
