// Which files the log's statistics can rule out, on made-up statistics whose edge cases the shared tables lack:
// truncated string bounds, millisecond timestamp bounds, floats with NaN, numbers beyond a double's precision.
import { describe, expect, it } from 'vitest';
import type { StructField } from '../../../../shared/delta-schema.js';
import { compileFilter } from '../../../../shared/expression/index.js';
import { fileMayMatch } from '../../../../electron/delta/filter/file-skipping.js';
import type { FileStats } from '../../../../electron/delta/filter/file-stats.js';

const fields: StructField[] = [
  { name: 's', type: 'string', nullable: true },
  { name: 'ts', type: 'timestamp', nullable: true },
  { name: 'd', type: 'double', nullable: true },
  { name: 'l', type: 'long', nullable: true },
  { name: 'm', type: 'decimal(20,2)', nullable: true },
  { name: 'p', type: 'integer', nullable: true },
  { name: 'n', type: { type: 'struct', fields: [{ name: 'x', type: 'integer', nullable: true }] }, nullable: true },
];
const table = { fields, partitionColumns: new Set(['p']), mode: 'none' as const };

function may(filter: string, stats: FileStats | null, partitionValues: Record<string, string | null> = { p: '1' }): boolean {
  const compiled = compileFilter(filter, { type: 'struct', fields });
  if (!compiled.ok) throw new Error(compiled.message);
  const file = { add: { path: 'f', partitionValues, size: 1, modificationTime: 0, dataChange: true }, absolutePath: '/f' };
  return fileMayMatch(compiled.expr, file, stats, table);
}

const stats = (
  minValues: Record<string, unknown>,
  maxValues: Record<string, unknown>,
  nullCount: Record<string, unknown> = {},
  numRecords = 10,
): FileStats => ({
  numRecords,
  minValues,
  maxValues,
  nullCount,
});

describe('file skipping', () => {
  it('uses a string max only as a prefix: the real max may be longer', () => {
    const st = stats({ s: 'apple' }, { s: 'banana' });
    expect(may("s = 'cherry'", st)).toBe(false);
    expect(may("s = 'aardvark'", st)).toBe(false);
    // 'bananas' > 'banana', but a truncated max 'banana' allows it.
    expect(may("s = 'bananas'", st)).toBe(true);
    expect(may("s > 'banana'", st)).toBe(true);
    expect(may("s > 'bananb'", st)).toBe(false);
    expect(may("s LIKE 'c%'", st)).toBe(false);
    expect(may("s LIKE 'b%'", st)).toBe(true);
    expect(may("s LIKE 'a%'", st)).toBe(true);
    expect(may("s LIKE 'aa%'", st)).toBe(false);
  });

  it('widens a timestamp max by the microseconds its millisecond statistics drop', () => {
    const st = stats({ ts: '2024-01-01T00:00:00.000Z' }, { ts: '2024-01-01T00:00:01.500Z' });
    expect(may("ts > TIMESTAMP '2024-01-01 00:00:01.500999'", st)).toBe(false);
    expect(may("ts > TIMESTAMP '2024-01-01 00:00:01.500998'", st)).toBe(true);
    expect(may("ts < '2024-01-01'", st)).toBe(false);
    expect(may("ts <= '2024-01-01'", st)).toBe(true);
  });

  it('ignores a float max (NaN sorts above it) and imprecise longs and decimals', () => {
    expect(may('d > 100', stats({ d: 0 }, { d: 1 }))).toBe(true);
    expect(may('d < 0', stats({ d: 0 }, { d: 1 }))).toBe(false);
    expect(may('l > 5', stats({ l: 1 }, { l: 2 }))).toBe(false);
    expect(may('l > 5', stats({ l: 1 }, { l: 2 ** 60 }))).toBe(true);
    expect(may('m > 1.23', stats({ m: 1.2 }, { m: 1.23 }))).toBe(true);
    expect(may('m > 1.25', stats({ m: 1.2 }, { m: 1.23 }))).toBe(false);
  });

  it('reads null counts: all-null columns match no comparison, IS NULL needs a null', () => {
    expect(may('l = 1 OR l <> 1', stats({}, {}, { l: 10 }))).toBe(false);
    expect(may('NOT l = 1', stats({}, {}, { l: 10 }))).toBe(false);
    expect(may('l IS NULL', stats({ l: 1 }, { l: 2 }, { l: 0 }))).toBe(false);
    expect(may('l IS NOT NULL', stats({}, {}, { l: 10 }))).toBe(false);
    expect(may('l IS NULL', stats({}, {}, {}))).toBe(true);
    expect(may('n.x > 3', stats({ n: { x: 1 } }, { n: { x: 2 } }))).toBe(false);
    expect(may('n.x IS NULL', stats({}, {}, { n: { x: 0 } }))).toBe(false);
  });

  it('knows partition values exactly, nulls included', () => {
    expect(may('p = 1', null)).toBe(true);
    expect(may('p <> 1', null)).toBe(false);
    expect(may('p IN (2, 3)', null)).toBe(false);
    expect(may('p NOT IN (2, NULL)', null)).toBe(false);
    expect(may('p IS NULL', null, { p: null })).toBe(true);
    expect(may('p = 1 OR p > 0', null, { p: null })).toBe(false);
    expect(may("NOT (p = 1 AND s = 'x')", null)).toBe(true);
  });

  it('keeps a file it knows nothing about', () => {
    expect(may("s = 'x' AND l > 3 AND d < 0", null)).toBe(true);
    expect(may('l > p', stats({ l: 1 }, { l: 2 }))).toBe(true);
  });
});
