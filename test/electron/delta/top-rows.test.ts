// Whole-snapshot order for previews: the first rows equal DuckDB's ORDER BY ... NULLS LAST LIMIT over the same files.
import { describe, expect, it } from 'vitest';
import type { JsonValue, PreviewResult } from '../../../shared/api.js';
import { parseOrderBy } from '../../../shared/sort-spec.js';
import { previewTask } from '../../../electron/jobs/tasks.js';
import { tablePath } from '../../support/tables.js';
import { cli } from '../cli/run-cli.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { taskTables } from '../../support/task-tables.js';

const tables = taskTables();

const keysOf = (text: string) => {
  const parsed = parseOrderBy(text);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.keys;
};

async function preview(table: string, orderBy: string, limit: number, filter?: string, columns?: string[]): Promise<PreviewResult> {
  return previewTask(
    tables,
    { source: { tablePath: tablePath(table), filter, columnNames: columns }, limit, orderBy: keysOf(orderBy) },
    new AbortController().signal,
  );
}

const cell = (v: JsonValue) => (v === null ? 'NULL' : String(v));

/** DuckDB's first `limit` rows (ORDER BY ... NULLS LAST), as 'a|b' of `columns`. */
async function duckTop(table: string, orderBy: string, limit: number, columns: string[], where = 'true'): Promise<string[]> {
  const order = keysOf(orderBy)
    .map((k) => `"${k.column}" ${k.descending ? 'DESC' : 'ASC'} NULLS LAST`)
    .join(', ');
  const { rows } = await duckdbRows(tablePath(table), 0, `${where} ORDER BY ${order} LIMIT ${limit}`, columns);
  return rows;
}

describe('whole-snapshot order', () => {
  it("top 50 of COVID-19_NYT by cases desc are the real maximum, not the first file's", async () => {
    const result = await preview('COVID-19_NYT', 'cases desc, date', 50);
    expect(result.order).toEqual({ keys: keysOf('cases desc, date'), rowsSorted: 1111930 });
    expect(result.truncated).toBe(true);
    const ours = result.rows.map((r) => [r[4], r[0]].map(cell).join('|'));
    // duckdbRows sorts its output rows as text; compare as sets of the same size, then our order on its own.
    expect([...ours].sort()).toEqual(await duckTop('COVID-19_NYT', 'cases desc, date', 50, ['cases', 'date']));
    const cases = result.rows.map((r) => r[4] as number);
    expect(cases).toEqual([...cases].sort((a, b) => b - a));
  }, 120_000);

  it('sorts after the filter, nulls last, ascending and descending keys mixed', async () => {
    const filter = "state IN ('Ohio', 'Guam', 'Puerto Rico') AND date > '2021-01-01'";
    const result = await preview('COVID-19_NYT', 'fips desc, deaths, county', 40, filter, ['county', 'fips', 'deaths']);
    expect(result.columns.map((c) => c.name)).toEqual(['county', 'fips', 'deaths']);
    const ours = result.rows.map((r) => r.map(cell).join('|'));
    const where = "state IN ('Ohio', 'Guam', 'Puerto Rico') AND date > '2021-01-01'";
    expect([...ours].sort()).toEqual(await duckTop('COVID-19_NYT', 'fips desc, deaths, county', 40, ['county', 'fips', 'deaths'], where));
    expect(result.order?.rowsSorted).toBe((await duckdbRows(tablePath('COVID-19_NYT'), 0, where, ['county'])).rows.length);
  }, 120_000);

  it('pages through the same order: an offset gives the rows after those already loaded', async () => {
    const filter = "state = 'Ohio' AND county = 'Adams'";
    const columns = ['date', 'cases'];
    const request = { source: { tablePath: tablePath('COVID-19_NYT'), filter, columnNames: columns }, orderBy: keysOf('cases desc, date') };
    const first = await previewTask(tables, { ...request, limit: 30 }, new AbortController().signal);
    const second = await previewTask(tables, { ...request, limit: 30, offset: 30 }, new AbortController().signal);
    expect(first.truncated && second.truncated).toBe(true);
    const where = `${filter} ORDER BY cases DESC NULLS LAST, date LIMIT 30 OFFSET 30`;
    expect(second.rows.map((r) => r.map(cell).join('|')).sort()).toEqual(
      (await duckdbRows(tablePath('COVID-19_NYT'), 0, where, columns)).rows,
    );
    // The pages meet: the second starts where the first ended, in the order.
    expect(second.rows[0][1] as number).toBeLessThanOrEqual(first.rows[29][1] as number);
  }, 120_000);

  it('puts nulls last on a partitioned table with a null partition', async () => {
    const result = await preview('delta-0.8.0-null-partition', 'k', 100);
    const k = result.columns.findIndex((c) => c.name === 'k');
    const values = result.rows.map((r) => r[k]);
    expect(values.indexOf(null)).toBe(values.length - values.filter((v) => v === null).length);
    expect(values.some((v) => v === null)).toBe(true);
  });

  it('puts nulls first where a key asks for it, as DuckDB does with NULLS FIRST', async () => {
    const result = await preview('delta-0.8.0-null-partition', 'k desc nulls first', 100);
    expect(result.order?.keys).toEqual([{ column: 'k', descending: true, nullsFirst: true }]);
    const k = result.columns.findIndex((c) => c.name === 'k');
    const ours = result.rows.map((r) => cell(r[k]));
    const { rows } = await duckdbRows(tablePath('delta-0.8.0-null-partition'), 0, 'true ORDER BY k DESC NULLS FIRST', ['k']);
    const expected = (
      await duck(
        `SELECT k FROM (VALUES ${rows.map((v) => `(${v === 'NULL' ? 'NULL' : sqlText(v)})`).join(', ')}) t(k) ORDER BY k DESC NULLS FIRST`,
      )
    ).map((r) => (r.k === null ? 'NULL' : String(r.k)));
    expect(ours).toEqual(expected);
    expect(ours[0]).toBe('NULL');
  });

  it('says what the order covers in the CLI, and rejects a column that cannot be sorted', async () => {
    const run = await cli(
      'preview',
      tablePath('COVID-19_NYT'),
      '--order-by',
      'deaths desc',
      '--where',
      "state = 'Ohio'",
      '--limit',
      '2',
      '--columns',
      'county',
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/\(ordered by deaths desc over the \d+ rows matching the filter\)\n/);
    expect(
      run.stdout
        .split('\n')
        .slice(2, 4)
        .map((l) => l.trim()),
    ).toEqual(['Cuyahoga', 'Cuyahoga']);
    const bad = await cli('preview', tablePath('delta-1.2.1-only-struct-stats'), '--order-by', 'map');
    expect(bad.stderr).toMatch(
      /^deltaport: Order by: column 'map' holds .* values, which have no order; choose a column of numbers, text, dates or true\/false\n$/,
    );
    const twice = await cli('preview', tablePath('COVID-19_NYT'), '--order-by', 'cases, cases desc');
    expect(twice.stderr).toBe("deltaport: Order by: column 'cases' is listed twice\n");
  }, 120_000);
});
