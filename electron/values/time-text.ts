// Dates and timestamps as ISO-8601 text from integer arithmetic (no Date objects: they are slow for millions of
// values and limited to ±275,000 years). Fractions keep the column's full unit so that text sorts like time does.
import { formatDays, formatTimeOfDay } from '../../shared/timestamp.js';

/** Ticks per second and fraction digits of Arrow's TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND). */
const UNITS = [
  { perSecond: 1, digits: 0 },
  { perSecond: 1_000, digits: 3 },
  { perSecond: 1_000_000, digits: 6 },
  { perSecond: 1_000_000_000, digits: 9 },
] as const;

/** Splits epoch ticks of a unit into days since the epoch, whole seconds of that day and the fraction's ticks. */
export function tickSplitter(unit: number): { digits: number; split: (ticks: number | bigint) => TimeParts } {
  const { perSecond, digits } = UNITS[unit];
  const perDay = 86_400 * perSecond;
  const perDayBig = BigInt(perDay);
  const parts: TimeParts = { days: 0, seconds: 0, fraction: 0 };
  const split = (ticks: number | bigint): TimeParts => {
    let days: number;
    let inDay: number;
    if (typeof ticks === 'number') {
      days = Math.floor(ticks / perDay);
      inDay = ticks - days * perDay;
    } else {
      let d = ticks / perDayBig;
      let r = ticks - d * perDayBig;
      if (r < 0n) {
        d -= 1n;
        r += perDayBig;
      }
      days = Number(d);
      inDay = Number(r);
    }
    parts.days = days;
    parts.seconds = Math.floor(inDay / perSecond);
    parts.fraction = inDay - parts.seconds * perSecond;
    return parts;
  };
  return { digits, split };
}

/** One reused object: a splitter makes no garbage per value. */
export interface TimeParts {
  days: number;
  seconds: number;
  fraction: number;
}

/** Formats epoch ticks of a unit as 'YYYY-MM-DDTHH:MM:SS[.fff…]', with 'Z' when the value is a UTC instant. */
export function timestampFormatter(unit: number, utc: boolean): (ticks: number | bigint) => string {
  const { digits, split } = tickSplitter(unit);
  const zone = utc ? 'Z' : '';
  // Rows of a column often share a day: its text is kept until the day changes.
  let lastDays = Number.NaN;
  let date = '';
  return (ticks) => {
    const { days, seconds, fraction } = split(ticks);
    if (days !== lastDays) {
      lastDays = days;
      date = formatDays(days);
    }
    const time = formatTimeOfDay(seconds);
    const text = digits === 0 ? '' : `.${String(fraction).padStart(digits, '0')}`;
    return `${date}T${time}${text}${zone}`;
  };
}

/** 'YYYY-MM-DD' of a day count, remembering the last one: date columns repeat a value over many rows. */
export function dateFormatter(): (days: number) => string {
  let lastDays = Number.NaN;
  let lastText = '';
  return (days) => {
    if (days !== lastDays) {
      lastDays = days;
      lastText = formatDays(days);
    }
    return lastText;
  };
}
