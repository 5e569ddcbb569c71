import { describe, expect, it } from 'vitest';
import { civilFromDays, daysFromCivil, formatDays, formatEpochMs, parseTimestampAsOf } from '../../shared/timestamp.js';

describe('parseTimestampAsOf', () => {
  it.each([
    ['2022-02-24', Date.UTC(2022, 1, 24)],
    ['2022-02-24 04:55:00', Date.UTC(2022, 1, 24, 4, 55, 0)],
    ['2022-02-24 04:55:00.001', Date.UTC(2022, 1, 24, 4, 55, 0, 1)],
    ['2022-02-24T04:55:00', Date.UTC(2022, 1, 24, 4, 55, 0)],
    ['2022-02-24T04:55:00.001', Date.UTC(2022, 1, 24, 4, 55, 0, 1)],
    ['2022-02-24T04:55:00.001Z', Date.UTC(2022, 1, 24, 4, 55, 0, 1)],
    ['2024-02-29T23:59:59.999', Date.UTC(2024, 1, 29, 23, 59, 59, 999)],
    ['2000-02-29', Date.UTC(2000, 1, 29)],
    ['1969-12-31 23:59:59.500', Date.UTC(1969, 11, 31, 23, 59, 59, 500)],
    ['1600-03-01', Date.UTC(1600, 2, 1)],
  ])('reads %s as UTC', (text, expected) => {
    expect(parseTimestampAsOf(text)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['2022/02/24', 'other date separator'],
    ['2022-2-24', 'one-digit month'],
    ['22-02-24', 'two-digit year'],
    ['2022-02', 'missing day'],
    ['2022-02-24 04:55', 'missing seconds'],
    ['2022-02-24T04', 'missing minutes'],
    ['2022-02-24_04:55:00', 'other time separator'],
    ['2022-02-24  04:55:00', 'two spaces'],
    ['2022-02-24 04.55.00', 'dots in the time'],
    ['2022-02-24 04:55:00.1', 'one fractional digit'],
    ['2022-02-24 04:55:00.000001', 'six fractional digits'],
    ['2022-02-24 04:55:00.', 'a dot without digits'],
    ['2022-13-01', 'month 13'],
    ['2022-00-10', 'month 0'],
    ['2022-02-30', 'Feb 30'],
    ['2023-02-29', 'Feb 29 outside a leap year'],
    ['1900-02-29', 'Feb 29 in a century year'],
    ['2022-04-31', 'April 31'],
    ['2022-02-00', 'day 0'],
    ['2022-02-24 24:00:00', 'hour 24'],
    ['2022-02-24 04:60:00', 'minute 60'],
    ['2022-02-24 04:55:60', 'second 60'],
    ['2022-02-24x', 'trailing garbage'],
    [' 2022-02-24', 'leading space'],
    ['2022-02-24 ', 'trailing space'],
    ['2022-02-24T04:55:00Z', 'Z without milliseconds'],
    ['2022-02-24 04:55:00.001Z', 'Z with a space separator'],
    ['2022-02-24T04:55:00.001+01:00', 'an offset'],
    ['2022-02-24T04:55:00.001z', 'lower-case z'],
    ['2022-02-24T04:55:00.001 UTC', 'a zone name'],
    ['2022-02-24Z', 'Z after a date'],
    ['２０２２-02-24', 'non-ASCII digits'],
  ])('rejects %j (%s)', (text) => {
    expect(parseTimestampAsOf(text)).toBeNull();
  });
});

describe('civil calendar arithmetic', () => {
  it('agrees with Date for every day from 1500 to 2500 and back', () => {
    const first = Math.floor(Date.UTC(1500, 0, 1) / 86_400_000);
    const last = Math.floor(Date.UTC(2500, 0, 1) / 86_400_000);
    for (let days = first; days <= last; days++) {
      const d = new Date(days * 86_400_000);
      const civil = civilFromDays(days);
      if (civil.year !== d.getUTCFullYear() || civil.month !== d.getUTCMonth() + 1 || civil.day !== d.getUTCDate()) {
        throw new Error(`day ${days}: ${JSON.stringify(civil)} vs ${d.toISOString()}`);
      }
      if (daysFromCivil(civil.year, civil.month, civil.day) !== days) throw new Error(`day ${days} does not round-trip`);
    }
  });

  it('formats the extremes of Delta dates and years outside 0..9999', () => {
    expect(formatDays(Math.round(Date.UTC(9999, 11, 31) / 86_400_000))).toBe('9999-12-31');
    const year1 = new Date(0);
    year1.setUTCFullYear(1, 0, 1);
    expect(formatDays(Math.round(year1.getTime() / 86_400_000))).toBe('0001-01-01');
    expect(formatDays(Math.round(Date.UTC(10000, 0, 1) / 86_400_000))).toBe('+010000-01-01');
    const minus1 = new Date(0);
    minus1.setUTCFullYear(-1, 0, 1);
    expect(formatDays(Math.round(minus1.getTime() / 86_400_000))).toBe('-000001-01-01');
  });

  it('names a commit time in UTC with milliseconds', () => {
    expect(formatEpochMs(Date.UTC(2022, 1, 24, 4, 5, 6, 7))).toBe('2022-02-24 04:05:06.007 UTC');
    expect(formatEpochMs(Date.UTC(1969, 11, 31, 23, 59, 59, 999))).toBe('1969-12-31 23:59:59.999 UTC');
  });
});
