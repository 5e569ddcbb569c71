// Timestamps for time travel, and the civil-calendar arithmetic the value formatters share. Integer arithmetic
// only: no Date objects, so that it is exact for every year and fast enough to format millions of values.

const MS_PER_DAY = 86_400_000;

// YYYY-MM-DD, optionally followed by a time with a space or T, optionally with milliseconds; Z only in the T form
// with milliseconds. These are exactly the six forms the time-travel fields and options accept.
const TIMESTAMP_AS_OF = /^(\d{4})-(\d{2})-(\d{2})(?:( |T)(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3})(Z)?)?)?$/;

/** Epoch ms (UTC) of one of the six accepted forms, or null when the text is not exactly one of them. */
export function parseTimestampAsOf(text: string): number | null {
  const m = TIMESTAMP_AS_OF.exec(text);
  if (!m) return null;
  const [, y, mo, d, sep, h = '0', mi = '0', s = '0', ms = '0', zone] = m;
  if (zone && sep !== 'T') return null;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + Number(ms);
}

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// The two conversions below are the well-known era-based algorithms for the proleptic Gregorian calendar: a
// 400-year era has a fixed number of days, and counting years from March puts the leap day at the end of a year.

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1..12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = month > 2 ? month - 3 : month + 9;
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The proleptic Gregorian date of a day count since 1970-01-01. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** 'YYYY-MM-DD' of a day count; years outside 0..9999 in ISO-8601's expanded form (+YYYYYY / -YYYYYY). */
export function formatDays(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${formatYear(year)}-${pad2(month)}-${pad2(day)}`;
}

/** 'YYYY-MM-DD HH:MM:SS.mmm UTC' of epoch ms, for messages that name a commit time. */
export function formatEpochMs(ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  const inDay = ms - days * MS_PER_DAY;
  return `${formatDays(days)} ${formatTimeOfDay(Math.floor(inDay / 1000))}.${String(inDay % 1000).padStart(3, '0')} UTC`;
}

/** 'HH:MM:SS' of seconds since midnight. */
export function formatTimeOfDay(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${pad2(h)}:${pad2(m)}:${pad2(seconds % 60)}`;
}

function formatYear(year: number): string {
  if (year >= 0 && year <= 9999) return String(year).padStart(4, '0');
  return (year < 0 ? '-' : '+') + String(Math.abs(year)).padStart(6, '0');
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
