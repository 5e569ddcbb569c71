// Forgiving timestamp input for the time-travel field: what people type (`2026-12-01 17:42`, `2026/12/1 9:05`, one
// or two fraction digits, a trailing Z) becomes one of the six exact forms the source API and the CLI accept, so the
// engine keeps its one strict rule. Times are UTC, as everywhere in the API.
import { formatEpochMs, parseTimestampAsOf } from '../../shared/timestamp.js';

const LOOSE =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:(?:\s+|T)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?\s*(?:(Z|UTC)|([+-])(\d{2}):?(\d{2}))?$/i;

const two = (digits: string) => digits.padStart(2, '0');

/** The exact form of a loosely typed UTC timestamp, or null when it is not a real date and time. */
export function normalizeTimestampInput(text: string): string | null {
  const m = LOOSE.exec(text.trim());
  if (!m) return null;
  const [, year, month, day, hour, minute, second = '00', fraction, zone, sign, offsetHours, offsetMinutes] = m;
  const date = `${year}-${two(month)}-${two(day)}`;
  let exact = date;
  if (hour !== undefined) {
    const time = `${two(hour)}:${minute}:${second}`;
    exact = fraction !== undefined || zone ? `${date}T${time}.${(fraction ?? '').padEnd(3, '0')}${zone ? 'Z' : ''}` : `${date} ${time}`;
  }
  const ms = parseTimestampAsOf(exact);
  if (ms === null) return null;
  if (sign === undefined) return exact;
  // The wall time at that offset, as the UTC instant it names.
  const hours = Number(offsetHours);
  const minutes = Number(offsetMinutes);
  if (hours > 18 || minutes > 59) return null;
  const offsetMs = (sign === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  return new Date(ms - offsetMs).toISOString();
}

/** A datetime-local picker's value (the user's zone) as the exact UTC form. */
export function fromLocalPicker(value: string): string | null {
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** How a resolved commit time reads: UTC first (what the API takes), then the user's own zone. */
export function utcAndLocal(ms: number): { utc: string; local: string } {
  const local = new Date(ms).toLocaleString(undefined, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
  return { utc: formatEpochMs(ms), local };
}
