import { cpSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeltaSourceValidationError, forTable, openSource } from '../../../electron/delta/source.js';
import { DeltaportError } from '../../../shared/errors.js';
import { TIMESTAMP_FORMS } from '../../../shared/source-spec.js';
import { tablePath } from '../../support/tables.js';
import { localReads, openLocal } from '../../support/task-tables.js';

async function problemsOf(build: Promise<unknown>): Promise<string[]> {
  const err = await build.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeltaSourceValidationError);
  const v = err as DeltaSourceValidationError;
  expect(v.code).toBe('VALIDATION');
  expect(v.message).toBe(v.problems.join('\n'));
  return v.problems;
}

const partitioned = tablePath('delta-0.8.0-partitioned');
const simple = tablePath('simple_table');

describe('DeltaSourceBuilder on real tables', () => {
  it('reads the latest version and every column in schema order by default', async () => {
    const source = await forTable(partitioned, localReads).build();
    expect(source.snapshot.version).toBe(0);
    // The schema in 00000000000000000000.json: value, year, month, day (partition columns at their position).
    expect(source.columns).toEqual(['value', 'year', 'month', 'day']);
    expect(source.fields.map((f) => f.name)).toEqual(['value', 'year', 'month', 'day']);
    expect(source.schema.fields.map((f) => f.name)).toEqual(['value', 'year', 'month', 'day']);
    expect(source.batchSize).toBe(2048);
  });

  it('keeps the requested column order, from a list or from arguments', async () => {
    const fromList = await forTable(partitioned, localReads).columnNames(['day', 'value']).build();
    expect(fromList.columns).toEqual(['day', 'value']);
    expect(fromList.schema.fields.map((f) => f.name)).toEqual(['day', 'value']);
    const fromArgs = await forTable(partitioned, localReads).columnNames('month', 'year', 'value').build();
    expect(fromArgs.fields.map((f) => f.name)).toEqual(['month', 'year', 'value']);
  });

  it('travels to a version, set by the method or as an option', async () => {
    // simple_table has commits 0..4 in its _delta_log.
    expect((await forTable(simple, localReads).versionAsOf(2).build()).snapshot.version).toBe(2);
    expect((await forTable(simple, localReads).option('versionAsOf', '3').build()).snapshot.version).toBe(3);
    expect((await forTable(simple, localReads).option('versionAsOf', 0).build()).snapshot.version).toBe(0);
    expect((await forTable(simple, localReads).build()).snapshot.version).toBe(4);
  });

  it('honours parquetBatchSize', async () => {
    expect((await forTable(simple, localReads).option('parquetBatchSize', 7).build()).batchSize).toBe(7);
  });

  it('opens a source from a spec', async () => {
    const source = await openSource({ tablePath: simple, versionAsOf: 1, columnNames: ['id'] }, openLocal);
    expect(source.snapshot.version).toBe(1);
    expect(source.columns).toEqual(['id']);
  });

  it('names the readable range for a version outside it', async () => {
    expect(await problemsOf(forTable(simple, localReads).versionAsOf(99).build())).toEqual([
      'no version 99: this table has versions 0 to 4',
    ]);
    // checkpoints_vacuumed keeps commits 5..12 beside a checkpoint: earlier versions are gone.
    const vacuumed = await problemsOf(forTable(tablePath('checkpoints_vacuumed'), localReads).versionAsOf(1).build());
    expect(vacuumed).toHaveLength(1);
    expect(vacuumed[0]).toMatch(/^no version 1: this table has versions \d+ to 12$/);
  });

  it('reports each builder rule', async () => {
    expect(await problemsOf(forTable(simple, localReads).columnNames(null).build())).toEqual([
      'the column list is null: leave it out to read every column',
    ]);
    expect(await problemsOf(forTable(simple, localReads).columnNames([]).build())).toEqual([
      'the column list is empty: name at least one column',
    ]);
    expect(await problemsOf(forTable(simple, localReads).columnNames().build())).toEqual([
      'the column list is empty: name at least one column',
    ]);
    expect(await problemsOf(forTable(simple, localReads).columnNames(['id', ' ']).build())).toEqual(['column name 2 of 2 is blank']);
    expect(await problemsOf(forTable(simple, localReads).columnNames('id', 'id').build())).toEqual([
      "column 'id' is listed more than once",
    ]);
    expect(await problemsOf(forTable(simple, localReads).columnNames('ID').build())).toEqual([
      "no column 'ID' in version 4 (did you mean 'id'?)",
    ]);
    expect(await problemsOf(forTable(partitioned, localReads).columnNames('value', 'nope').build())).toEqual([
      "no column 'nope' in version 0; its columns are 'value', 'year', 'month', 'day'",
    ]);
    expect(await problemsOf(forTable(simple, localReads).versionAsOf(-1).build())).toEqual([
      'versionAsOf must be a non-negative integer, got -1',
    ]);
    expect(await problemsOf(forTable(simple, localReads).versionAsOf(1.5).build())).toEqual([
      'versionAsOf must be a non-negative integer, got 1.5',
    ]);
    expect(await problemsOf(forTable(simple, localReads).option('versionAsOf', true).build())).toEqual([
      'versionAsOf must be a non-negative integer, got true',
    ]);
    expect(await problemsOf(forTable(simple, localReads).timestampAsOf('yesterday').build())).toEqual([
      `timestampAsOf 'yesterday' is not a valid UTC timestamp in one of the forms ${TIMESTAMP_FORMS}`,
    ]);
    expect(await problemsOf(forTable(simple, localReads).versionAsOf(1).timestampAsOf('2020-04-27').build())).toEqual([
      'versionAsOf and timestampAsOf are mutually exclusive: set one of them',
    ]);
    expect(await problemsOf(forTable(simple, localReads).versionAsOf(1).option('timestampAsOf', '2020-04-27').build())).toEqual([
      'versionAsOf and timestampAsOf are mutually exclusive: set one of them',
    ]);
    expect(await problemsOf(forTable(simple, localReads).option('colour', 'red').build())).toEqual([
      "unknown option 'colour' (known options: versionAsOf, timestampAsOf, parquetBatchSize)",
    ]);
    expect(await problemsOf(forTable(simple, localReads).option('ignoreDeletes', true).build())).toEqual([
      "option 'ignoreDeletes' applies only to continuous (streaming) sources; this source reads one snapshot",
    ]);
    expect(await problemsOf(forTable(simple, localReads).option('parquetBatchSize', 'many').build())).toEqual([
      "option parquetBatchSize must be a positive integer, got 'many'",
    ]);
  });

  it('lists every problem of one build()', async () => {
    const problems = await problemsOf(
      forTable(partitioned, localReads)
        .columnNames('value', '', 'value', 'Year', 'nope')
        .versionAsOf(7)
        .option('parquetBatchSize', 0)
        .option('fooBar', 1)
        .build(),
    );
    expect(problems).toEqual([
      'column name 2 of 5 is empty',
      "column 'value' is listed more than once",
      "unknown option 'fooBar' (known options: versionAsOf, timestampAsOf, parquetBatchSize)",
      'option parquetBatchSize must be a positive integer, got 0',
      'no version 7: this table has only version 0',
      "no column 'Year' in version 0 (did you mean 'year'?)",
      "no column 'nope' in version 0; its columns are 'value', 'year', 'month', 'day'",
    ]);
  });

  it('keeps table-level errors as their own types', async () => {
    const notDelta = await forTable(tablePath('.'), localReads)
      .build()
      .catch((e: unknown) => e);
    expect(notDelta).toBeInstanceOf(DeltaportError);
    expect(notDelta).not.toBeInstanceOf(DeltaSourceValidationError);
    expect((notDelta as DeltaportError).code).toBe('NOT_A_DELTA_TABLE');

    const missing = await forTable('/no/such/table', localReads)
      .build()
      .catch((e: unknown) => e);
    expect((missing as DeltaportError).code).toBe('TABLE_NOT_FOUND');

    // simple_table_features declares the reader feature 'blahabl' (see its protocol action).
    const unsupported = await forTable(tablePath('simple_table_features'), localReads)
      .build()
      .catch((e: unknown) => e);
    expect((unsupported as DeltaportError).code).toBe('UNSUPPORTED_PROTOCOL');
    expect((unsupported as DeltaportError).message).toContain('blahabl');
  });
});

describe('timestampAsOf on a copy whose commit files have known times', () => {
  let copy: string;
  // Commit times of versions 0..4, set on the copy's _delta_log/*.json files below.
  const times = [
    Date.UTC(2022, 1, 23, 12, 0, 0, 0),
    Date.UTC(2022, 1, 24, 0, 0, 0, 0),
    Date.UTC(2022, 1, 24, 4, 55, 0, 0),
    Date.UTC(2022, 1, 24, 4, 55, 0, 1),
    Date.UTC(2022, 1, 24, 4, 55, 0, 2),
  ];

  beforeAll(() => {
    copy = path.join(mkdtempSync(path.join(tmpdir(), 'deltaport-source-')), 'simple_table');
    cpSync(simple, copy, { recursive: true });
    const log = path.join(copy, '_delta_log');
    for (const name of readdirSync(log).filter((n) => n.endsWith('.json'))) {
      // Half a millisecond above the mark, so that the float seconds utimes takes cannot round below it.
      const at = (times[Number(name.slice(0, 20))] + 0.5) / 1000;
      utimesSync(path.join(log, name), at, at);
    }
  });

  afterAll(() => rmSync(path.dirname(copy), { recursive: true, force: true }));

  it.each([
    ['2022-02-24', 1],
    ['2022-02-24 04:55:00', 2],
    ['2022-02-24 04:55:00.001', 3],
    ['2022-02-24T04:55:00', 2],
    ['2022-02-24T04:55:00.001', 3],
    ['2022-02-24T04:55:00.001Z', 3],
    ['2022-02-24T04:54:59.999', 1],
    ['2022-02-24T04:55:00.002Z', 4],
    ['2022-02-23 12:00:00', 0],
  ])('resolves %s to version %i', async (ts, version) => {
    const source = await forTable(copy, localReads).timestampAsOf(ts).build();
    expect(source.snapshot.version).toBe(version);
    expect(await source.table.commitTime(source.snapshot.version)).toBe(times[version]);
    expect((await forTable(copy, localReads).option('timestampAsOf', ts).build()).snapshot.version).toBe(version);
  });

  it('names the earliest commit for a time before it', async () => {
    expect(await problemsOf(forTable(copy, localReads).timestampAsOf('2022-02-23').build())).toEqual([
      'timestamp 2022-02-23T00:00:00.000Z is before the earliest commit (version 0 at 2022-02-23T12:00:00.000Z)',
    ]);
  });

  it('names the latest commit for a time after it', async () => {
    expect(await problemsOf(forTable(copy, localReads).timestampAsOf('2022-02-24 04:55:00.003').build())).toEqual([
      'timestamp 2022-02-24T04:55:00.003Z is after the latest commit (version 4 at 2022-02-24T04:55:00.002Z)',
    ]);
  });
});
