// The exact profile's histograms against DuckDB computing the same equal-width bins over the same parquet files, with
// deletion vectors applied (histogram-oracle.ts); min = max, a column that is all null, and the CLI's output.
import path from 'node:path';
import * as arrow from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StructType } from '../../../../shared/delta-schema.js';
import type { ColumnProfile, TableProfile } from '../../../../shared/table-info.js';
import { profileTask } from '../../../../electron/jobs/tasks.js';
import { DeltaTableWriter } from '../../../support/delta-writer/table-writer.js';
import { tablePath } from '../../../support/tables.js';
import { cli } from '../../cli/run-cli.js';
import { expectedHistogram, liveRows } from '../histogram-oracle.js';
import { scratchFolders } from '../log-files.js';
import { taskTables } from '../../../support/task-tables.js';

const tables = taskTables();

const signal = new AbortController().signal;
const scratch = scratchFolders('histogram');
afterAll(() => scratch.removeAll());

async function exact(root: string): Promise<TableProfile> {
  return profileTask(tables, { table: { path: root }, exact: true }, signal);
}

function column(profile: TableProfile, name: string): ColumnProfile {
  return profile.columns.find((c) => c.name === name)!;
}

/** Checks each named column's bins against DuckDB's over the table's latest snapshot. */
async function checkAgainstDuckdb(table: string, columns: string[]): Promise<TableProfile> {
  const root = tablePath(table);
  const [profile, rows] = await Promise.all([exact(root), liveRows(root)]);
  for (const name of columns) {
    const ours = column(profile, name);
    const expected = await expectedHistogram(rows, name, ours.type);
    expect(expected, `${table}.${name}`).not.toBeNull();
    expect(
      ours.histogram?.bins.map((b) => b.count),
      `${table}.${name}`,
    ).toEqual(expected!.counts);
    if (expected!.bounds) expect(ours.histogram!.bins.map((b) => [b.from, b.to])).toEqual(expected!.bounds);
    expect([ours.histogram!.bins[0].from, ours.histogram!.bins.at(-1)!.to]).toEqual([ours.min, ours.max]);
    const counted = ours.histogram!.bins.reduce((n, b) => n + b.count, 0);
    expect(counted).toBe(profile.rowCount! - ours.nullCount!);
  }
  return profile;
}

describe('histograms of the exact profile', () => {
  it('integers over a million rows, with nulls (COVID-19_NYT)', async () => {
    const profile = await checkAgainstDuckdb('COVID-19_NYT', ['cases', 'deaths', 'fips']);
    expect(column(profile, 'cases').histogram!.bins).toHaveLength(10);
    expect(column(profile, 'state').histogram).toBeUndefined();
  }, 180_000);

  it('respects deletion vectors: one bin per value for a small integer range (table-with-dv-small)', async () => {
    const profile = await checkAgainstDuckdb('table-with-dv-small', ['value']);
    expect(column(profile, 'value').histogram).toEqual({
      kind: 'values',
      bins: ['1', '2', '3', '4', '5', '6', '7', '8'].map((v) => ({ from: v, to: v, count: 1 })),
    });
  });

  it('doubles and longs under deletion vectors (table_with_deletion_logs)', async () => {
    const profile = await checkAgainstDuckdb('table_with_deletion_logs', ['age', 'id', 'nbr']);
    expect(column(profile, 'age').histogram!.kind).toBe('range');
  }, 60_000);

  it('dates, a partition column of dates, and timestamps', async () => {
    await checkAgainstDuckdb('delta-0.8.0-date', ['date', 'dayOfYear']);
    await checkAgainstDuckdb('cdf-table', ['birthday', 'id']);
    await checkAgainstDuckdb('checkpoint-v2-table', ['created_at']);
    await checkAgainstDuckdb('table_with_edge_timestamps', ['BIG_DATE', 'NORMAL_DATE']);
  }, 60_000);

  it('has one bin when min = max, and integers in bins of two (delta-1.2.1-only-struct-stats)', async () => {
    const profile = await checkAgainstDuckdb('delta-1.2.1-only-struct-stats', ['integer', 'double', 'decimal', 'date', 'timestamp']);
    for (const name of ['double', 'decimal', 'date']) {
      const c = column(profile, name);
      expect(c.histogram!.bins, name).toEqual([{ from: c.min, to: c.max, count: profile.rowCount! - c.nullCount! }]);
    }
    expect(column(profile, 'integer').histogram!.bins.map((b) => `${b.from}-${b.to}`)).toEqual([
      '0-1',
      '2-3',
      '4-5',
      '6-7',
      '8-9',
      '10-11',
    ]);
  }, 60_000);
});

describe('columns with no histogram', () => {
  let root: string;
  const SCHEMA: StructType = {
    type: 'struct',
    fields: [
      { name: 'empty', type: 'double', nullable: true },
      { name: 'none', type: 'long', nullable: true },
      { name: 'same', type: 'integer', nullable: true },
    ],
  };

  beforeAll(async () => {
    root = path.join(scratch.make(), 't');
    const writer = await DeltaTableWriter.create(root, { schema: SCHEMA });
    const data = new arrow.Table({
      empty: arrow.vectorFromArray([null, null, null], new arrow.Float64()),
      none: arrow.vectorFromArray([null, null, null], new arrow.Int64()),
      same: arrow.vectorFromArray([7, null, 7], new arrow.Int32()),
    });
    await writer.append([{ data }]);
  });

  it('an all-null column has none, DuckDB agreeing that it holds no value', async () => {
    const profile = await exact(root);
    const rows = await liveRows(root);
    for (const [name, type] of [
      ['empty', 'double'],
      ['none', 'long'],
    ]) {
      expect(await expectedHistogram(rows, name, type)).toBeNull();
      expect(column(profile, name).histogram, name).toBeUndefined();
      expect(column(profile, name).nullCount).toBe(3);
    }
    expect(column(profile, 'same').histogram).toEqual({ kind: 'values', bins: [{ from: '7', to: '7', count: 2 }] });
    expect(await expectedHistogram(rows, 'same', 'integer')).toEqual({ counts: [2], bounds: [['7', '7']] });
  });

  it('the CLI prints the bins with --exact, and carries them in --json', async () => {
    const run = await cli('profile', tablePath('table-with-dv-small'), '--exact');
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('histogram of value: 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1\n');
    const json = await cli('profile', root, '--exact', '--json');
    const profile = JSON.parse(json.stdout) as TableProfile;
    expect(profile.columns.map((c) => c.histogram ?? null)).toEqual([
      null,
      null,
      { kind: 'values', bins: [{ from: '7', to: '7', count: 2 }] },
    ]);
  });
});
