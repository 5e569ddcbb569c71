import { describe, expect, it } from 'vitest';
import { resolveSourceSpec, TIMESTAMP_FORMS, validateSourceSpec } from '../../shared/source-spec.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';

const base: DeltaSourceSpec = { tablePath: '/tables/people' };

function problems(extra: Partial<DeltaSourceSpec> | Record<string, unknown>): string[] {
  return validateSourceSpec({ ...base, ...extra } as DeltaSourceSpec);
}

describe('validateSourceSpec, one rule at a time', () => {
  it('accepts a plain spec and uses the default batch size', () => {
    expect(problems({})).toEqual([]);
    expect(resolveSourceSpec(base).resolved).toEqual({
      tablePath: '/tables/people',
      columns: undefined,
      versionAsOf: undefined,
      timestampMs: undefined,
      batchSize: 2048,
    });
  });

  it('rejects an empty table path', () => {
    expect(problems({ tablePath: '  ' })).toEqual(['the table path is empty']);
  });

  it('rejects a null column list but accepts an absent one', () => {
    expect(problems({ columnNames: null })).toEqual(['the column list is null: leave it out to read every column']);
    expect(problems({ columnNames: undefined })).toEqual([]);
  });

  it('rejects an empty column list', () => {
    expect(problems({ columnNames: [] })).toEqual(['the column list is empty: name at least one column']);
  });

  it('rejects null, empty and blank names, naming their position', () => {
    expect(problems({ columnNames: ['a', null, '', '  '] })).toEqual([
      'column name 2 of 4 is null',
      'column name 3 of 4 is empty',
      'column name 4 of 4 is blank',
    ]);
  });

  it('rejects a name listed twice, once', () => {
    expect(problems({ columnNames: ['a', 'b', 'a', 'a'] })).toEqual(["column 'a' is listed more than once"]);
  });

  it.each([
    [-1, 'versionAsOf must be a non-negative integer, got -1'],
    [1.5, 'versionAsOf must be a non-negative integer, got 1.5'],
    [Number.NaN, 'versionAsOf must be a non-negative integer, got NaN'],
  ])('rejects versionAsOf %s', (v, message) => {
    expect(problems({ versionAsOf: v })).toEqual([message]);
  });

  it('accepts versionAsOf 0 and a numeric string given as option', () => {
    expect(resolveSourceSpec({ ...base, versionAsOf: 0 }).resolved.versionAsOf).toBe(0);
    expect(resolveSourceSpec({ ...base, options: { versionAsOf: '3' } }).resolved.versionAsOf).toBe(3);
  });

  it('rejects a timestamp not in the six forms, listing them', () => {
    expect(problems({ timestampAsOf: '2022/02/24' })).toEqual([
      `timestampAsOf '2022/02/24' is not a valid UTC timestamp in one of the forms ${TIMESTAMP_FORMS}`,
    ]);
    expect(problems({ options: { timestampAsOf: 5 } })).toEqual([
      `timestampAsOf must be text in one of the forms ${TIMESTAMP_FORMS}, got 5`,
    ]);
  });

  it('resolves a timestamp to epoch ms', () => {
    expect(resolveSourceSpec({ ...base, timestampAsOf: '2022-02-24T04:55:00.001Z' }).resolved.timestampMs).toBe(
      Date.UTC(2022, 1, 24, 4, 55, 0, 1),
    );
  });

  it('rejects version and timestamp together, however they are set', () => {
    const message = 'versionAsOf and timestampAsOf are mutually exclusive: set one of them';
    expect(problems({ versionAsOf: 1, timestampAsOf: '2022-02-24' })).toEqual([message]);
    expect(problems({ versionAsOf: 1, options: { timestampAsOf: '2022-02-24' } })).toEqual([message]);
    expect(problems({ options: { versionAsOf: 1, timestampAsOf: '2022-02-24' } })).toEqual([message]);
  });

  it('rejects a setting given twice with different values, accepts the same value twice', () => {
    expect(problems({ versionAsOf: 1, options: { versionAsOf: 2 } })).toEqual(['versionAsOf is set twice with different values (1 and 2)']);
    expect(problems({ versionAsOf: 1, options: { versionAsOf: '1' } })).toEqual([]);
  });

  it('rejects unknown options and continuous-only options with their own messages', () => {
    expect(problems({ options: { fooBar: 1 } })).toEqual([
      "unknown option 'fooBar' (known options: versionAsOf, timestampAsOf, parquetBatchSize)",
    ]);
    expect(problems({ options: { startingVersion: 1 } })).toEqual([
      "option 'startingVersion' applies only to continuous (streaming) sources; this source reads one snapshot",
    ]);
  });

  it.each([[0], [-5], ['abc'], [true], [2.5]])('rejects parquetBatchSize %j', (v) => {
    expect(problems({ options: { parquetBatchSize: v } })).toEqual([
      `option parquetBatchSize must be a positive integer, got ${typeof v === 'string' ? `'${v}'` : String(v)}`,
    ]);
  });

  it('honours parquetBatchSize as number or text', () => {
    expect(resolveSourceSpec({ ...base, options: { parquetBatchSize: 10 } }).resolved.batchSize).toBe(10);
    expect(resolveSourceSpec({ ...base, options: { parquetBatchSize: '77' } }).resolved.batchSize).toBe(77);
  });
});

describe('validateSourceSpec with many problems', () => {
  it('lists every problem in order', () => {
    expect(
      problems({
        columnNames: ['x', '', 'x'],
        versionAsOf: -2,
        timestampAsOf: '2022-02-30',
        options: { parquetBatchSize: 0, nope: 'y' },
      }),
    ).toEqual([
      'column name 2 of 3 is empty',
      "column 'x' is listed more than once",
      'versionAsOf must be a non-negative integer, got -2',
      `timestampAsOf '2022-02-30' is not a valid UTC timestamp in one of the forms ${TIMESTAMP_FORMS}`,
      "unknown option 'nope' (known options: versionAsOf, timestampAsOf, parquetBatchSize)",
      'option parquetBatchSize must be a positive integer, got 0',
      'versionAsOf and timestampAsOf are mutually exclusive: set one of them',
    ]);
  });
});

describe('one schema for the form, the host and the CLI', () => {
  it('checks the spec as it crosses to the host: a full path or a cloud URL, known fields, a number for versionAsOf', () => {
    expect(problems({ tablePath: 'tables/people' })).toEqual([
      'the table path must be an absolute path or a cloud URL (got "tables/people")',
    ]);
    expect(problems({ settingNames: { versionAsOf: '--version' } })).toEqual(['has an unknown field "settingNames"']);
    expect(problems({ versionAsOf: '3' })).toEqual(["versionAsOf must be a non-negative integer, got '3'"]);
    expect(problems({ filter: 'a >' })).toHaveLength(1);
    expect(problems({ filter: '  ' })).toEqual([]);
  });

  it('resolves where the source is opened: a relative path, the names the CLI gives the settings', () => {
    const cli = { versionAsOf: '--version', timestampAsOf: '--timestamp' };
    expect(resolveSourceSpec({ tablePath: 'tables/people' }).problems).toEqual([]);
    expect(resolveSourceSpec({ ...base, settingNames: cli, timestampAsOf: 'soon' }).problems).toEqual([
      `--timestamp 'soon' is not a valid UTC timestamp in one of the forms ${TIMESTAMP_FORMS}`,
    ]);
    expect(resolveSourceSpec({ ...base, settingNames: cli, versionAsOf: 1, options: { versionAsOf: 2 } }).problems).toEqual([
      '--version is set twice with different values (1 and 2)',
    ]);
  });

  it('resolves what is valid of a spec with problems, for the checks the table makes', () => {
    const { problems: found, resolved } = resolveSourceSpec({
      ...base,
      columnNames: ['a', ''],
      versionAsOf: 2,
      options: { parquetBatchSize: 0 },
    });
    expect(found).toEqual(['column name 2 of 2 is empty', 'option parquetBatchSize must be a positive integer, got 0']);
    expect(resolved).toMatchObject({ columns: ['a', ''], versionAsOf: 2, batchSize: 2048 });
  });
});
