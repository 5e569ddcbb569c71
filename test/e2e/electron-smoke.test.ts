// The desktop app itself, started by Playwright's Electron driver with a temporary data folder: the window opens the
// sample table, previews it, copies a cell to the system clipboard and exports the snapshot to SQLite. Where no
// Electron binary (or its build of better-sqlite3, or a display) can be had, each test reports itself skipped with
// the reason: it never passes without having run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../electron/app/package-root.js';
import { electronPackageDir } from '../../electron/launcher/electron-runtime.js';
import { ensureElectronSqlite } from '../../electron/launcher/prepare.js';
import { liveRowCount } from '../support/delta-oracle.js';

const root = packageRoot();

/** Electron's executable as its npm package would run it, or why there is none. */
function electronBinary(): { path: string } | { reason: string } {
  const dir = electronPackageDir();
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return { reason: 'the Electron binary is not installed (its first-launch download is impossible here)' };
  const binary = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8'));
  return fs.existsSync(binary) ? { path: binary } : { reason: `the Electron binary is missing (${binary})` };
}

async function unavailable(): Promise<string | null> {
  const binary = electronBinary();
  if ('reason' in binary) return binary.reason;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'no display to open a window on (run under xvfb-run)';
  try {
    await ensureElectronSqlite(root);
  } catch (err) {
    return (err as Error).message;
  }
  return null;
}

let skipReason: string | null = null;
let dataDir: string;
let electronApp: ElectronApplication | undefined;
let page: Page;

beforeAll(async () => {
  skipReason = await unavailable();
  // The default reporter shows skipped tests only as a count: the reason is also printed, once.
  if (skipReason) return void console.warn(`Electron smoke test skipped: ${skipReason}`);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-electron-'));
  electronApp = await _electron.launch({
    executablePath: (electronBinary() as { path: string }).path,
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
