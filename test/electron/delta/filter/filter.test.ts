// Filtered reads of the shared tables: the rows kept are exactly DuckDB's over the same files
// (test/support/delta-oracle-rows.ts), files the filter rules out are never opened, and what was skipped is reported.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSource } from '../../../../electron/delta/source.js';
import { displayTextReader } from '../../../../electron/values/text-formats.js';
import { tablePath } from '../../../support/tables.js';
import { oracleSnapshot } from '../../../support/delta-oracle.js';
import { duckdbRows } from '../../../support/delta-oracle-rows.js';
import { scratchFolders } from '../log-files.js';
import { openLocal } from '../../../support/task-tables.js';

const scratch = scratchFolders('filter');
afterAll(() => scratch.removeAll());

async function ourRows(table: string, filter: string, columns: string[], opts: { limit?: number; version?: number } = {}) {
  const source = await openSource({ tablePath: table, filter, versionAsOf: opts.version }, openLocal);
  const rows: string[] = [];
  for await (const { batch } of source.batches({ limit: opts.limit })) {
    const cells = columns.map((name) => displayTextReader(batch.getChild(name)!));
    for (let r = 0; r < batch.numRows; r++) rows.push(cells.map((cell) => cell(r) ?? 'NULL').join('|'));
  }
  return { rows: rows.sort(), skipping: source.filter!.skipping };
}

async function rowCount(table: string, version: number, column: string): Promise<number> {
  let n = 0;
  for await (const { batch } of (await openSource({ tablePath: table, versionAsOf: version, columnNames: [column] }, openLocal)).batches())
    n += batch.numRows;
  return n;
}

interface Case {
  table: string;
  /** Our filter; DuckDB gets the same text unless `duck` is given. */
  filter: string;
  duck?: string;
  columns: string[];
  version?: number;
  /** Files the filter must let the read skip, at least. */
  minSkipped?: number;
}

const CASES: Case[] = [
  { table: 'COVID-19_NYT', filter: "state = 'Ohio' AND cases > 10000", columns: ['date', 'county', 'state', 'cases', 'deaths'] },
  {
    table: 'COVID-19_NYT',
    filter: "(county LIKE 'San%' OR county LIKE '_ew %') AND deaths BETWEEN 100 AND 110",
    columns: ['date', 'county', 'deaths'],
  },
  {
    table: 'COVID-19_NYT',
    filter: "fips IS NULL AND date >= '2021-03-01' AND state NOT IN ('New York', 'Guam')",
    columns: ['date', 'county', 'state'],
  },
  {
    table: 'COVID-19_NYT',
    filter: "NOT (cases > 5 OR deaths IS NOT NULL) OR date = '2020-01-21'",
    columns: ['date', 'county', 'cases', 'deaths'],
  },
  { table: 'COVID-19_NYT', filter: "date < '2020-03-15'", columns: ['date', 'county', 'state', 'cases'], minSkipped: 1 },
  {
    table: 'delta-0.8.0-partitioned',
    filter: "year = '2021' AND month <> '12'",
    columns: ['value', 'year', 'month', 'day'],
    minSkipped: 1,
  },
  { table: 'delta-0.8.0-partitioned', filter: "day IN ('4', '20') OR value LIKE '%5'", columns: ['value', 'year', 'month', 'day'] },
  {
    table: 'delta-0.8.0-partitioned',
    filter: "day IN ('4', '20') AND value LIKE '%5'",
    columns: ['value', 'year', 'month', 'day'],
    minSkipped: 1,
  },
  { table: 'delta-2.2.0-partitioned-types', filter: 'c1 >= 5 AND c2 IS NOT NULL', columns: ['c1', 'c2', 'c3'], minSkipped: 1 },
  {
    table: 'partition-type-primitives',
    filter: "year = '2023' AND category <> 'A' OR id = 3",
    columns: ['id', 'value', 'year', 'is_active', 'event_date', 'category'],
    minSkipped: 1,
  },
  {
    table: 'table_with_column_mapping',
    filter: `"Company Very Short" = 'BMS' OR "Super Name" LIKE 'A%'`,
    columns: ['Company Very Short', 'Super Name'],
    minSkipped: 0,
  },
  {
    table: 'table_with_column_mapping',
    filter: `"Company Very Short" = 'BME'`,
    columns: ['Company Very Short', 'Super Name'],
    minSkipped: 1,
  },
  // One row per file, statistics only in the checkpoint's stats_parsed (version 10) and the JSON commits after it.
  {
    table: 'delta-1.2.1-only-struct-stats',
    filter: 'integer > 7 AND "date" IS NOT NULL',
    columns: ['integer', 'string', 'date'],
    minSkipped: 7,
  },
  {
    table: 'delta-1.2.1-only-struct-stats',
    filter:
      "string = 'string' AND (integer BETWEEN 3 AND 5 OR struct.struct_element = 'x' OR nested_struct.struct_element.nested_struct_element LIKE 'nes%' AND integer < 2)",
    columns: ['integer', 'string'],
    minSkipped: 7,
  },
  {
    table: 'delta-1.2.1-only-struct-stats',
    filter: "timestamp >= TIMESTAMP '2022-10-24 22:59:40' AND decimal < -5.5",
    columns: ['integer', 'decimal'],
    minSkipped: 7,
  },
  { table: 'delta-1.2.1-only-struct-stats', filter: 'integer = 2', columns: ['integer', 'string'], version: 3, minSkipped: 2 },
];

describe('filtered reads agree with DuckDB over the same files', () => {
  for (const c of CASES) {
    it(`${c.table}${c.version === undefined ? '' : ` v${c.version}`}: ${c.filter}`, async () => {
      const root = tablePath(c.table);
      const snapshot = await openSource({ tablePath: root, versionAsOf: c.version }, openLocal);
      const version = snapshot.snapshot.version;
      const fromCheckpoint = c.table === 'delta-1.2.1-only-struct-stats' && version >= 10 ? 10 : undefined;
      const expected = await duckdbRows(root, version, c.duck ?? c.filter, c.columns, fromCheckpoint);
      const ours = await ourRows(root, c.filter, c.columns, { version: c.version });
      expect(ours.rows).toEqual(expected.rows);
      // Neither everything nor nothing: the filter decides.
      expect(expected.rows.length).toBeGreaterThan(0);
      expect(expected.rows.length).toBeLessThan(await rowCount(root, version, c.columns[0]));
      expect(ours.skipping.filesTotal).toBe(expected.files.length);
      expect(ours.skipping.filesSkipped).toBeGreaterThanOrEqual(c.minSkipped ?? 0);
      expect(ours.skipping.bytesSkipped).toBeLessThanOrEqual(ours.skipping.bytesTotal);
    }, 60_000);
  }
});

describe('skipping', () => {
  it('never opens a file that the partition values rule out', async () => {
    const root = scratch.make();
    cpSync(tablePath('delta-0.8.0-partitioned'), root, { recursive: true });
    const snapshot = await oracleSnapshot(root, 0);
    const adds = [...snapshot.adds.values()];
    const others = adds.filter((a) => a.partitionValues.year !== '2020');
    // Every file outside year 2020 is replaced by garbage: reading one would fail.
    for (const add of others) writeFileSync(path.join(root, decodeURIComponent(add.path)), 'not parquet');
    const ours = await ourRows(root, "year = '2020'", ['value', 'year']);
    expect(ours.skipping.filesSkipped).toBe(others.length);
    expect(ours.rows.length).toBeGreaterThan(0);
    expect(ours.rows.every((r) => r.endsWith('|2020'))).toBe(true);
    await expect(ourRows(root, "year <> '2020'", ['value'])).rejects.toThrow(/cannot read data file/);
  });

  it('never opens a file that the statistics rule out', async () => {
    const root = scratch.make();
    cpSync(tablePath('COVID-19_NYT'), root, { recursive: true });
    const all = await openSource({ tablePath: root }, openLocal);
    const source = await openSource({ tablePath: root, filter: "date < '2020-03-15'" }, openLocal);
    const kept = new Set(source.filter!.snapshot.files.map((f) => f.add.path));
    const skipped = all.snapshot.files.filter((f) => !kept.has(f.add.path));
    expect(skipped.length).toBeGreaterThan(0);
    for (const f of skipped) rmSync(f.absolutePath);
    const rows = (await ourRows(root, "date < '2020-03-15'", ['date'])).rows;
    expect(rows.length).toBeGreaterThan(0);
  }, 60_000);

  it('applies deletion vectors before the filter (table-with-dv-small keeps 1..8 of 0..9)', async () => {
    const root = tablePath('table-with-dv-small');
    expect((await ourRows(root, 'value >= 0', ['value'])).rows).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect((await ourRows(root, 'value > 6 OR value < 2 OR value IS NULL', ['value'])).rows).toEqual(['1', '7', '8']);
  });

  it('a limit counts kept rows', async () => {
    const { rows } = await ourRows(tablePath('COVID-19_NYT'), "state = 'Ohio'", ['state'], { limit: 3000 });
    expect(rows).toHaveLength(3000);
    expect(new Set(rows)).toEqual(new Set(['Ohio']));
  }, 60_000);

  it('a bad filter is one line naming the problem and where', async () => {
    await expect(openSource({ tablePath: tablePath('COVID-19_NYT'), filter: 'cases > 1 AND county = 3' }, openLocal)).rejects.toThrow(
      /^filter: = cannot compare string column 'county' with a long value at position 24; put the value in single quotes: county = '3'$/,
    );
    await expect(openSource({ tablePath: tablePath('COVID-19_NYT'), filter: 'cases >' }, openLocal)).rejects.toThrow(
      /^filter: .* at position 8$/,
    );
    // COVID-19_NYT's date column is a string.
    await expect(openSource({ tablePath: tablePath('COVID-19_NYT'), filter: "date > DATE '2021-01-01'" }, openLocal)).rejects.toThrow(
      /^filter: > cannot compare string column 'date' with a date value at position 8; put the value in single quotes: date > '.*'$/,
    );
  });
});
