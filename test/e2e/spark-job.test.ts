// "Export as Spark job" in the Export tab, in real Chromium against `deltaport serve`: the script shown is the job
// for the export set up in the form (its version pinned), and Save writes it where asked.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { tablePath } from '../support/tables.js';

const e2e = useBrowserSession('deltaport-e2e-spark-');

describe('Export as Spark job', () => {
  it('shows the job for the export in the form and saves it', async () => {
    const table = tablePath('table-with-dv-small');
    await e2e.page.getByLabel('Table location', { exact: true }).fill(table);
    await e2e.page.getByRole('button', { name: 'Open', exact: true }).click();
    await e2e.page.getByText('Latest snapshot').waitFor();
    await e2e.page.getByRole('tab', { name: /^Export/ }).click();
    await e2e.page.getByLabel('Sink', { exact: true }).selectOption('SQLite');
    await e2e.page.getByLabel('SQLite file', { exact: true }).fill(path.join(e2e.scratch, 'target.sqlite'));
    await e2e.page.getByLabel('Write mode', { exact: true }).selectOption('overwrite');

    await e2e.page.getByRole('button', { name: 'Export as Spark job' }).click();
    const script = e2e.page.getByLabel('Spark job script');
    await script.waitFor();
    const text = await script.textContent();
    expect(text).toContain(`TABLE_PATH = ${JSON.stringify(table)}`);
    expect(text).toContain('VERSION = 1');
    expect(text).toContain(`JDBC_URL = ${JSON.stringify(`jdbc:sqlite:${path.join(e2e.scratch, 'target.sqlite')}`)}`);
    await screenshot(e2e.page, '20-export-spark-job');

    const saved = path.join(e2e.scratch, 'job.py');
    await e2e.page.getByLabel('Save as', { exact: true }).fill(saved);
    await e2e.page.getByRole('button', { name: 'Save', exact: true }).click();
    await e2e.page.getByText(`Saved to ${saved}`).waitFor();
    expect(fs.readFileSync(saved, 'utf8')).toBe(text);
    // Nothing was exported.
    expect(fs.existsSync(path.join(e2e.scratch, 'target.sqlite'))).toBe(false);
    expect(e2e.pageErrors).toEqual([]);
  });
});
