// Dates and timestamps as ISO-8601 text from integer arithmetic (no Date objects: they are slow for millions of
// values and limited to ±275,000 years). Fractions keep the column's full unit so that text sorts like time does.
import { civilFromDays, formatDays, formatTimeOfDay } from '../../shared/timestamp.js';

/** Ticks per second and fraction digits of Arrow's TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND). */
const UNITS = [
  { perSecond: 1, digits: 0 },
  { perSecond: 1_000, digits: 3 },
  { perSecond: 1_000_000, digits: 6 },
  { perSecond: 1_000_000_000, digits: 9 },
] as const;

/** Splits epoch ticks of a unit into days since the epoch, whole seconds of that day and the fraction's ticks. */
function tickSplitter(unit: number): { digits: number; split: (ticks: number | bigint) => TimeParts } {
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

/** 'YYYY-MM-DD' of a year from 0 to 9999, what the date cache holds. */
const DATE_BYTES = 10;
const DATE_CACHE_SLOTS = 1024;
/** '00' to '99' as ASCII, one after another. */
const DIGIT_PAIRS = new TextEncoder().encode(Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0')).join(''));

/** The most bytes a timestampByteWriter writes for one value: a year of 12 digits and a sign (int64 seconds), the
 * rest of the date, the time of day, nine fraction digits and the zone. */
export const MAX_TIMESTAMP_BYTES = 40;

/** Writes timestampFormatter's text as ASCII bytes at `pos` (room for MAX_TIMESTAMP_BYTES assumed); returns the
 * position after it. No string per value: what a column's text costs is then one decode for all of its rows. */
export type TimestampByteWriter = (buf: Uint8Array, pos: number, ticks: number | bigint) => number;

export function timestampByteWriter(unit: number, utc: boolean): TimestampByteWriter {
  const { digits, split } = tickSplitter(unit);
  // Dates by day in a direct-mapped cache: a column's timestamps fall on a few hundred days, in any order (keys are
  // doubles so that NaN marks an empty slot and any day count fits).
  const cachedDays = new Float64Array(DATE_CACHE_SLOTS).fill(Number.NaN);
  const cachedDates = new Uint8Array(DATE_CACHE_SLOTS * DATE_BYTES);
  return (buf, pos, ticks) => {
    const { days, seconds, fraction } = split(ticks);
    const slot = days & (DATE_CACHE_SLOTS - 1);
    if (cachedDays[slot] === days) {
      for (let k = slot * DATE_BYTES, end = k + DATE_BYTES; k < end; k++) buf[pos++] = cachedDates[k];
    } else {
      const start = pos;
      pos = writeDate(buf, pos, days);
      if (pos - start === DATE_BYTES) {
        cachedDays[slot] = days;
        cachedDates.set(buf.subarray(start, pos), slot * DATE_BYTES);
      }
    }
    const hours = Math.floor(seconds / 3600);
    const minutes = Math.floor((seconds - hours * 3600) / 60);
    buf[pos] = 0x54; // T
    writeDigits(buf, pos + 1, hours, 2);
    buf[pos + 3] = 0x3a; // :
    writeDigits(buf, pos + 4, minutes, 2);
    buf[pos + 6] = 0x3a;
    writeDigits(buf, pos + 7, seconds - hours * 3600 - minutes * 60, 2);
    pos += 9;
    if (digits > 0) {
      buf[pos] = 0x2e; // .
      writeDigits(buf, pos + 1, fraction, digits);
      pos += digits + 1;
    }
    if (utc) buf[pos++] = 0x5a; // Z
    return pos;
  };
}

/** 'YYYY-MM-DD' of a day count at `pos`, written as bytes (a string per value cost the SQLite export of 2M random
 * timestamps half its time on them); years outside 0..9999 take formatDays' expanded form. */
function writeDate(buf: Uint8Array, pos: number, days: number): number {
  const { year, month, day } = civilFromDays(days);
  if (year < 0 || year > 9999) {
    const text = formatDays(days);
    for (let k = 0; k < text.length; k++) buf[pos++] = text.charCodeAt(k);
    return pos;
  }
  writeDigits(buf, pos, year, 4);
  buf[pos + 4] = 0x2d; // -
  writeDigits(buf, pos + 5, month, 2);
  buf[pos + 7] = 0x2d;
  writeDigits(buf, pos + 8, day, 2);
  return pos + 10;
}

/** A non-negative integer below 10^width as exactly `width` digits at `pos`, two digits per division. */
function writeDigits(buf: Uint8Array, pos: number, value: number, width: number): void {
  // In int32 arithmetic (every value here is below 10^9): a remainder of doubles is a call into C.
  let v = value | 0;
  let k = pos + width;
  while (k - pos >= 2) {
    const next = (v / 100) | 0;
    const pair = 2 * (v - 100 * next);
    buf[--k] = DIGIT_PAIRS[pair + 1];
    buf[--k] = DIGIT_PAIRS[pair];
    v = next;
  }
  if (k > pos) buf[pos] = 0x30 + v;
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
