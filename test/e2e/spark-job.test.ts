// "Export as Spark job" in the Export tab, in real Chromium against `deltaport serve`: the script shown is the job
// for the export set up in the form (its version pinned), and Save writes it where asked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, screenshot } from '../support/browser.js';
import { startServe, type ServedApp } from '../support/serve.js';
import { tablePath } from '../support/tables.js';

let app: ServedApp;
let browser: Browser;
let page: Page;
let pageErrors: string[];
let scratch: string;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-e2e-spark-'));
  [app, browser] = await Promise.all([startServe(), launchChromium()]);
  ({ page, pageErrors } = await openPage(browser, app.url));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('Export as Spark job', () => {
  it('shows the job for the export in the form and saves it', async () => {
    const table = tablePath('table-with-dv-small');
    await page.getByLabel('Table location', { exact: true }).fill(table);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText('Latest snapshot').waitFor();
    await page.getByRole('tab', { name: /^Export/ }).click();
    await page.getByLabel('Sink', { exact: true }).selectOption('SQLite');
    await page.getByLabel('SQLite file', { exact: true }).fill(path.join(scratch, 'target.sqlite'));
    await page.getByLabel('Write mode', { exact: true }).selectOption('overwrite');

    await page.getByRole('button', { name: 'Export as Spark job' }).click();
    const script = page.getByLabel('Spark job script');
    await script.waitFor();
    const text = await script.textContent();
    expect(text).toContain(`TABLE_PATH = ${JSON.stringify(table)}`);
    expect(text).toContain('VERSION = 1');
    expect(text).toContain(`JDBC_URL = ${JSON.stringify(`jdbc:sqlite:${path.join(scratch, 'target.sqlite')}`)}`);
    await screenshot(page, '20-export-spark-job');

    const saved = path.join(scratch, 'job.py');
    await page.getByLabel('Save as', { exact: true }).fill(saved);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(`Saved to ${saved}`).waitFor();
    expect(fs.readFileSync(saved, 'utf8')).toBe(text);
    // Nothing was exported.
    expect(fs.existsSync(path.join(scratch, 'target.sqlite'))).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
