// What the grid offers about the cells selected: a filter condition matching a cell's value, the count, sum, min and
// max of a range's numeric cells, and a hex view of a binary value (which travels as base64).
import type { JsonValue, PreviewColumn } from '../../../shared/api.js';

const NUMERIC = /^(byte|short|integer|long|float|double|decimal)/;
const COMPARABLE = /^(byte|short|integer|long|float|double|decimal|string|boolean|date|timestamp|timestamp_ntz)/;
const INTEGER = /^-?\d+$/;

export function typeName(column: PreviewColumn): string {
  return typeof column.type === 'string' ? column.type : column.type.type;
}

export function isNumericColumn(column: PreviewColumn): boolean {
  return NUMERIC.test(typeName(column));
}

const quotedName = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`);

/** `col = value` (or `col IS NULL`) in the filter's syntax, for a value of a type the filter compares; null otherwise. */
export function valueCondition(column: PreviewColumn, value: JsonValue): string | null {
  const type = typeName(column);
  if (!COMPARABLE.test(type)) return null;
  const name = quotedName(column.name);
  if (value === null) return `${name} IS NULL`;
  if (typeof value === 'object') return null;
  if (NUMERIC.test(type) || typeof value === 'boolean') return `${name} = ${String(value)}`;
  return `${name} = '${String(value).replaceAll("'", "''")}'`;
}

export interface RangeStats {
  count: number;
  sum: string;
  min: JsonValue;
  max: JsonValue;
}

/** The numeric cells' count, sum, min and max (nulls left out); null when there are none. Integers (long values
 * travel as text beyond 2^53) are summed exactly. */
export function rangeStats(values: JsonValue[]): RangeStats | null {
  const numbers = values.filter(
    (v): v is number | string => typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))),
  );
  if (numbers.length === 0) return null;
  const exact = numbers.every((v) => (typeof v === 'number' ? Number.isSafeInteger(v) : INTEGER.test(v)));
  const sum = exact ? numbers.reduce((a, v) => a + BigInt(v), 0n).toString() : String(numbers.reduce((a: number, v) => a + Number(v), 0));
  const order = exact
    ? (a: number | string, b: number | string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)
    : (a: number | string, b: number | string) => Number(a) - Number(b);
  const sorted = [...numbers].sort(order);
  return { count: numbers.length, sum, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** A binary value (base64) as rows of 16 hex bytes with their offset. */
export function hexView(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = [...bytes.subarray(at, at + 16)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    lines.push(`${at.toString(16).padStart(8, '0')}  ${row}`);
  }
  return lines.join('\n');
}
