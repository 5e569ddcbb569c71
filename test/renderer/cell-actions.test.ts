// The grid's cell actions: a cell's value as a filter condition the filter checker accepts, a range's numeric
// statistics (long values beyond 2^53 summed exactly), and a binary value's hex view (checked against Node's Buffer).
import { describe, expect, it } from 'vitest';
import type { PreviewColumn } from '../../shared/api.js';
import type { StructType } from '../../shared/delta-schema.js';
import { compileFilter } from '../../shared/expression/index.js';
import { hexView, rangeStats, valueCondition } from '../../renderer/src/grid/cell-actions.js';

const column = (name: string, type: string): PreviewColumn => ({ name, type: type as PreviewColumn['type'], nullable: true });

describe('valueCondition', () => {
  it('writes a condition the filter accepts for each comparable type, and IS NULL for null', () => {
    const field = (name: string, type: string) => ({ name, type, nullable: true, metadata: {} });
    const schema = {
      type: 'struct',
      fields: [field('county', 'string'), field('cases', 'long'), field('my col', 'boolean'), field('day', 'date')],
    } as StructType;
    const cases: [PreviewColumn, Parameters<typeof valueCondition>[1], string][] = [
      [column('county', 'string'), "O'Brien", "county = 'O''Brien'"],
      [column('cases', 'long'), '9007199254740993', 'cases = 9007199254740993'],
      [column('cases', 'long'), null, 'cases IS NULL'],
      [column('my col', 'boolean'), true, '"my col" = true'],
      [column('day', 'date'), '2021-03-11', "day = '2021-03-11'"],
    ];
    for (const [col, value, text] of cases) {
      expect(valueCondition(col, value)).toBe(text);
      expect(compileFilter(text, schema).ok).toBe(true);
    }
    expect(valueCondition(column('tags', 'binary'), 'AAE=')).toBeNull();
  });
});

describe('rangeStats', () => {
  it('counts, sums and finds min and max of the numeric cells, leaving nulls out', () => {
    expect(rangeStats([3, null, -1, 10])).toEqual({ count: 3, sum: '12', min: -1, max: 10 });
    expect(rangeStats(['9007199254740993', 1, null])).toEqual({ count: 2, sum: '9007199254740994', min: 1, max: '9007199254740993' });
    expect(rangeStats([1.5, 2.25])).toEqual({ count: 2, sum: '3.75', min: 1.5, max: 2.25 });
    expect(rangeStats([null, null])).toBeNull();
  });
});

describe('hexView', () => {
  it('shows the bytes of a base64 value sixteen to a line with their offset', () => {
    const bytes = Buffer.from(Array.from({ length: 20 }, (_, i) => i * 13));
    const lines = hexView(bytes.toString('base64')).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`00000000  ${bytes.subarray(0, 16).toString('hex').match(/../g)!.join(' ')}`);
    expect(lines[1]).toBe(`00000010  ${bytes.subarray(16).toString('hex').match(/../g)!.join(' ')}`);
  });
});
