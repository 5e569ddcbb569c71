// An export into a DuckDB file from the Export tab, end to end: the built renderer in real Chromium against `deltaport
// serve`. The form's DuckDB kind (its file, Test connection, Show plan), then the job; what landed is read by the
// tests' own DuckDB and compared with DuckDB reading the table's Parquet files and its log's partition values.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from '../support/browser-session.js';
import { screenshot } from '../support/browser.js';
import { dataFile, liveFiles } from '../support/delta-oracle.js';
import { duck, sqlText } from '../support/duckdb.js';
import { tablePath } from '../support/tables.js';

const e2e = useBrowserSession('deltaport-e2e-duckdb-');
const TABLE = tablePath('delta-0.8.0-partitioned');

/** "value|month" of every row: value from the Parquet files, month from the log's partition values. */
async function expectedRows(): Promise<string[]> {
  const rows: string[] = [];
  for (const add of await liveFiles(TABLE)) {
    const values = await duck(`SELECT value FROM read_parquet(${sqlText(dataFile(TABLE, add))})`);
    for (const v of values) rows.push(`${String(v.value)}|${String(add.partitionValues.month)}`);
  }
  return rows.sort();
}

describe('export into DuckDB', () => {
  it('writes the chosen columns into a new DuckDB file, after Test connection and Show plan', async () => {
    const file = path.join(e2e.scratch, 'local.duckdb');
    const page = e2e.page;
    await page.getByLabel('Table location', { exact: true }).fill(TABLE);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.locator('.snapshot-bar .table-name', { hasText: 'delta-0.8.0-partitioned' }).waitFor();
    await page.getByRole('checkbox', { name: 'year', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'day', exact: true }).uncheck();
    await page.getByRole('tab', { name: /^Export/ }).click();

    await page.getByLabel('Sink', { exact: true }).selectOption('DuckDB');
    await page.getByLabel('DuckDB file', { exact: true }).fill('local.duckdb');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.locator('.export-bar').getByRole('alert').filter({ hasText: 'Give the full path of the DuckDB file' }).waitFor();
    await page.getByLabel('DuckDB file', { exact: true }).fill(file);
    await page.getByLabel('Target table', { exact: true }).fill('partitioned');

    await page.getByRole('button', { name: 'Test connection' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Connected: DuckDB v\d/ })
      .filter({ hasText: 'will be created' })
      .waitFor();
    await page.getByRole('button', { name: 'Show plan' }).click();
    await page.locator('.plan', { hasText: 'CREATE TABLE "partitioned" ("value" VARCHAR, "month" VARCHAR)' }).waitFor();
    await screenshot(page, 'duckdb-export-plan');

    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const job = page.getByRole('region', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: 'local.duckdb' }).first();
    await job.getByText('Done', { exact: true }).waitFor({ timeout: 60_000 });
    const want = await expectedRows();
    await page
      .locator('.export-bar')
      .getByText(new RegExp(`^Done: ${want.length} rows exported`))
      .waitFor();

    await duck(`ATTACH ${sqlText(file)} AS landed (READ_ONLY)`);
    try {
      const rows = await duck(`SELECT value || '|' || month AS r FROM landed.partitioned`);
      expect(rows.map((r) => r.r as string).sort()).toEqual(want);
    } finally {
      await duck('DETACH landed');
    }
    expect(e2e.pageErrors).toEqual([]);
  });
});
