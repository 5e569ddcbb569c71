// Progress and Cancel of the window's long reads, end to end: the built renderer in real Chromium against `deltaport
// serve`, the tables in a real object store (fake-gcs-server) behind a proxy that holds the data files a test names,
// so a read is as slow as the test needs with no timing. The exact profile shows its progress at once, a diff and a
// change feed once they have run a second; the figures are the table's own log's (file sizes, change files), and
// Cancel stops the read: the view says so and keeps what it showed before, and the next read runs whole. Each state is
// looked at, and screenshot, at 1440x900 and 1024x700 in both themes.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot, showsWholeOnOneLine } from '../support/browser.js';
import { dataFile, liveFiles, readCommit } from '../support/delta-oracle.js';
import { duck, sqlText } from '../support/duckdb.js';
import { connectThroughProxy, GATED_BUCKET as BUCKET, startGatedGcs } from '../support/gated-gcs.js';
import type { GatedProxy } from '../support/gated-http-proxy.js';
import { isSkipped, type GcsStore } from '../support/object-stores.js';
import { tablePath } from '../support/tables.js';
import { formatCount, humanBytes } from '../../renderer/src/format.js';

const e2e = useBrowserSession('deltaport-e2e-progress-');
const COVID = 'COVID-19_NYT';
const CDF = 'cdf-table';
let proxy: GatedProxy;

/** The data file (or change file) a request reads, or null for any other request (the log, listings). */
function dataFileOf(request: string): string | null {
  const match = /\/o\/([^?]+\.parquet)/.exec(request);
  return match && !match[1].includes('/_delta_log/') ? match[1] : null;
}

async function openTable(page: Page, location: string): Promise<void> {
  await page.getByLabel('Table location', { exact: true }).fill(location);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.locator('.snapshot-bar .table-name', { hasText: new RegExp(`^${path.posix.basename(location)}$`) }).waitFor();
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];

/** Looks at the page at each size in each theme (as the window's theme button sets it): the view's `line` is said whole
 * on one line and its buttons are inside the window; a screenshot of each. The page is left at 1440x900, light. */
async function lookAtEverySize(page: Page, view: Locator, line: Locator, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    if ((await page.locator('html').getAttribute('data-theme')) !== theme) {
      await page.getByRole('button', { name: 'Dark theme', exact: true }).click();
    }
    for (const size of SIZES) {
      await page.setViewportSize(size);
      expect(await showsWholeOnOneLine(line), `${name} ${size.width} ${theme}`).toBe(true);
      for (const button of await view.getByRole('button').all()) {
        const box = await button.boundingBox();
        if (box) expect(box.x + box.width, `${name} ${size.width} ${theme}`).toBeLessThanOrEqual(size.width);
      }
      await screenshot(page, `${name}-${size.width}x${size.height}-${theme}`);
    }
  }
  await page.getByRole('button', { name: 'Dark theme', exact: true }).click();
  await page.setViewportSize(SIZES[0]);
}

/** Clicks the view's Cancel, which the host takes; the view then says the read was cancelled (a status) while its
 * file is still held at the gate: a stalled store does not hold up a cancel. The held files go through after. */
async function cancel(page: Page, view: Locator): Promise<void> {
  const taken = page.waitForResponse((response) => response.url().endsWith('/api/cancelRead'));
  await view.getByRole('button', { name: 'Cancel', exact: true }).click();
  expect(await (await taken).json()).toEqual({ ok: true, value: { cancelled: true } });
  // The outcome the user asked for: said as a status, not as an error.
  await view
    .getByRole('status')
    .filter({ hasText: /^Cancelled: the read stopped\.$/ })
    .waitFor();
  expect(await view.getByRole('alert').count()).toBe(0);
  proxy.open();
}

describe('progress and Cancel of long reads', () => {
  let store: GcsStore | null = null;
  let skipped: string | null = null;
  /** Which data files the gate holds while shut (the test sets it). */
  let holds: (file: string) => boolean = () => true;

  beforeAll(async () => {
    const started = await startGatedGcs([COVID, CDF], (request) => {
      const file = dataFileOf(request);
      return file !== null && holds(file);
    });
    if (isSkipped(started)) return void (skipped = started.skipped);
    ({ store, proxy } = started);
    await connectThroughProxy(e2e.app, proxy);
  }, 120_000);

  afterAll(async () => {
    proxy?.open();
    await proxy?.close();
    await store?.stop();
  });

  it('shows the exact scan’s progress from its files, and Cancel stops it and keeps the statistics', async (ctx: TestContext) => {
    if (skipped) ctx.skip(skipped);
    const files = await liveFiles(tablePath(COVID));
    const total = files.reduce((sum, add) => sum + (add.size as number), 0);
    // The scan's first file goes through; every other one waits at the gate.
    let first: string | null = null;
    holds = (file) => (first ??= file) !== file;
    proxy.shut();

    await openTable(e2e.page, `gs://${BUCKET}/${COVID}`);
    await e2e.page.getByRole('tab', { name: /^Profile/ }).click();
    await e2e.page.getByRole('table', { name: 'Column profile' }).getByText('from statistics').first().waitFor();
    await e2e.page.getByRole('button', { name: 'Exact scan', exact: true }).click();
    const bar = e2e.page.getByRole('progressbar', { name: 'Exact scan: progress' });
    await bar.waitFor();
    await proxy.firstHeld();
    const firstSize = files.find((add) => first!.endsWith(`/${add.path as string}`))!.size as number;
    // Two passes over every file (values, then histograms): the first file is read, the second waits.
    const expected = `${humanBytes(firstSize)} of ${humanBytes(total * 2)} read (0 of ${files.length * 2} files done)`;
    await expect.poll(() => bar.getAttribute('aria-valuetext'), { timeout: 30_000 }).toBe(expected);
    expect(await bar.getAttribute('aria-valuenow')).toBe(String(Math.round((firstSize / (total * 2)) * 100)));
    const panel = e2e.page.locator('#panel-profile');
    await lookAtEverySize(e2e.page, panel, panel.getByRole('status').filter({ hasText: /^Exact scan: / }), 'profile-exact-scan-progress');

    await cancel(e2e.page, panel);
    expect(await bar.count()).toBe(0);
    const profile = e2e.page.getByRole('table', { name: 'Column profile' });
    expect(await profile.getByText('exact scan').count()).toBe(0);
    expect(await profile.getByText('from statistics').count()).toBeGreaterThan(0);
    await lookAtEverySize(e2e.page, panel, panel.getByText('Cancelled: the read stopped.'), 'profile-exact-scan-cancelled');

    // The host goes on serving: the scan asked again reads every row, and its counts are DuckDB's of the same files.
    const [{ states }] = await duck<{ states: bigint }>(
      `SELECT count(DISTINCT state) AS states FROM read_parquet([${files.map((add) => sqlText(dataFile(tablePath(COVID), add))).join(', ')}])`,
    );
    await e2e.page.getByRole('button', { name: 'Exact scan', exact: true }).click();
    await profile.getByText('exact scan').first().waitFor({ timeout: 60_000 });
    const state = profile.getByRole('row').filter({ has: e2e.page.getByRole('cell', { name: 'state', exact: true }) });
    expect(await state.getByRole('cell').nth(5).innerText()).toBe(formatCount(Number(states)));
    expect(await profile.getByText('from statistics').count()).toBe(0);
    expect(e2e.pageErrors).toEqual([]);
  }, 120_000);

  for (const view of ['Diff', 'Change feed'] as const) {
    it(`shows a ${view.toLowerCase()} read’s progress after a second, and Cancel stops it`, async (ctx: TestContext) => {
      if (skipped) ctx.skip(skipped);
      // Versions 2 and 3 record their changes: both views read those change files.
      const changeFiles = [2, 3].flatMap((version) =>
        readCommit(tablePath(CDF), version)
          .filter((a) => a.cdc)
          .map((a) => a.cdc),
      );
      expect(changeFiles.length).toBeGreaterThan(0);
      const bytes = changeFiles.reduce((sum, cdc) => sum + (cdc.size as number), 0);
      holds = () => true;
      proxy.shut();

      await e2e.page.reload();
      await openTable(e2e.page, `gs://${BUCKET}/${CDF}`);
      await e2e.page.getByRole('tab', { name: /^History/ }).click();
      const from = view === 'Diff' ? 1 : 2;
      for (const v of [from, 3]) await e2e.page.getByLabel(`Compare v${v}`, { exact: true }).check();
      await e2e.page.getByRole('button', { name: view === 'Diff' ? 'Show changes' : 'Show change feed', exact: true }).click();
      const heading = view === 'Diff' ? `Changes from v${from} to v3` : `Change feed from v${from} to v3`;
      const section = e2e.page.locator('section', { has: e2e.page.getByRole('heading', { name: heading }) });
      const bar = section.getByRole('progressbar', { name: `${view}: progress` });
      await bar.waitFor({ timeout: 30_000 });
      await expect
        .poll(() => bar.getAttribute('aria-valuetext'), { timeout: 30_000 })
        .toBe(`0 B of ${humanBytes(bytes)} read (0 of ${changeFiles.length} files done)`);
      const name = view === 'Diff' ? 'diff' : 'change-feed';
      await lookAtEverySize(
        e2e.page,
        section,
        section.getByRole('status').filter({ hasText: new RegExp(`^${view}: `) }),
        `${name}-progress`,
      );

      await cancel(e2e.page, section);
      expect(await bar.count()).toBe(0);
      await lookAtEverySize(e2e.page, section, section.getByText('Cancelled: the read stopped.'), `${name}-cancelled`);
      expect(e2e.pageErrors).toEqual([]);
    }, 120_000);
  }
});
