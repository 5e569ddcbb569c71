// Arrow values as plain JSON-like values: what a log action read from Parquet looks like when read from JSON.
import { Vector } from 'apache-arrow';

/** Int64 becomes number (log counters and epoch-ms times fit in 2^53), struct rows become objects, maps become
 *  objects keyed by the map key, lists become arrays. */
export function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Vector) return Array.from(value as Iterable<unknown>, toPlain);
  if (typeof value === 'object') {
    const json: unknown = typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(): unknown }).toJSON() : value;
    if (Array.isArray(json)) return json.map(toPlain);
    return Object.fromEntries(Object.entries(json as object).map(([k, v]) => [k, toPlain(v)]));
  }
  return value;
}
