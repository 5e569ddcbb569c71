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

/** Formats epoch ticks of a unit as 'YYYY-MM-DDTHH:MM:SS[.fff…]', with 'Z' when the value is a UTC instant. */
export function timestampFormatter(unit: number, utc: boolean): (ticks: number | bigint) => string {
  const { perSecond, digits } = UNITS[unit];
  const perDay = 86_400 * perSecond;
  const perDayBig = BigInt(perDay);
  const zone = utc ? 'Z' : '';
  return (ticks) => {
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
    const seconds = Math.floor(inDay / perSecond);
    const time = formatTimeOfDay(seconds);
    const fraction = digits === 0 ? '' : `.${String(inDay - seconds * perSecond).padStart(digits, '0')}`;
    return `${formatDays(days)}T${time}${fraction}${zone}`;
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
