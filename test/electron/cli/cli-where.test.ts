// `--where` on preview and export: the rows DuckDB keeps over the same files, and the files skipped reported.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tablePath } from '../../support/tables.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { expectedFilteredExport, FILTER, FILTERED_TABLE } from '../export/filtered-export-case.js';
import { cli } from './run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-where-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** CSV data lines (the header left out) as duckdbRows gives rows, cells joined by '|', sorted. */
const csvRows = (lines: string[]) => lines.map((l) => l.replaceAll(',', '|')).sort();

describe('--where', () => {
  it('previews only matching rows and says what was skipped', async () => {
    const table = tablePath('delta-0.8.0-partitioned');
    const where = "year = '2021' AND value <> '6'";
    const expected = await duckdbRows(table, 0, where, ['value', 'year', 'month', 'day']);
    const run = await cli('preview', table, '--where', where, '--format', 'csv');
    expect(run.stderr).toBe('');
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('value,year,month,day');
    expect(csvRows(lines.slice(1))).toEqual(expected.rows);
    const files = expected.files.filter((a) => a.partitionValues.year !== '2021').length;
    const table2 = await cli('preview', table, '--where', where);
    expect(table2.stdout).toMatch(
      new RegExp(`\\(filter skipped ${files} of ${expected.files.length} files \\(.* of .*\\) by partition values and statistics\\)\\n$`),
    );
  });

  it('exports only matching rows', async () => {
    const table = tablePath('COVID-19_NYT');
    const where = "state = 'Ohio' AND cases > 10000";
    const expected = await duckdbRows(table, 0, where, ['county', 'cases']);
    const out = path.join(dir, 'ohio.csv');
    const run = await cli('export', table, '--where', where, '--columns', 'county,cases', '--sink', `csv:${out}`);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      new RegExp(
        `^exported ${expected.rows.length} rows in [^\\n]*; filter skipped 0 of 8 files \\(.* of .*\\) by partition values and statistics\\n$`,
      ),
    );
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(csvRows(lines.slice(1))).toEqual(expected.rows);
  }, 60_000);

  it("ends the export's summary line with the files the filter skipped, as the log says", async () => {
    const want = await expectedFilteredExport();
    const run = await cli('export', FILTERED_TABLE, '--where', FILTER, '--sink', `csv:${path.join(dir, 'filtered.csv')}`);
    expect(run.stderr).toBe('');
    const s = want.skipping;
    // Both sizes are a few KiB (sixteen files of about 830 bytes).
    const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    expect(run.stdout).toMatch(
      new RegExp(
        `^exported ${want.rows} rows in [0-9.]+ s \\([0-9]+ rows/s\\); filter skipped ${s.filesSkipped} of ${s.filesTotal} files ` +
          `\\(${kib(s.bytesSkipped)} of ${kib(s.bytesTotal)}\\) by partition values and statistics\\n$`,
      ),
    );
  }, 60_000);

  it('a bad filter is one line on stderr and writes nothing', async () => {
    const out = path.join(dir, 'bad.csv');
    const run = await cli('export', tablePath('COVID-19_NYT'), '--where', 'cases >> 1', '--sink', `csv:${out}`);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toBe("deltaport: filter: expected a value or column, found '>' at position 8\n");
    expect(() => readFileSync(out)).toThrow();
  });
});
