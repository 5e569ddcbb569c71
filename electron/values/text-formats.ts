// Cell text for the file sinks and the CLI, built on the JsonValue readers so that every output agrees on how a
// value is written (exact decimals and longs, ISO-8601 times, base64 binary, nested values as JSON).
import type { Data, Field, Vector } from 'apache-arrow';
import type { JsonValue } from '../../shared/api.js';
import { jsonReader } from './json-value.js';

/** A JSON text of row i of a column (`field`: the column's own, whose metadata may mark its text as JSON). */
export function jsonTextReader(column: Vector | Data, field?: Field): (i: number) => string {
  const read = jsonReader(column, field);
  return (i) => jsonText(read(i));
}

// Characters JSON.stringify escapes in a string: quote, backslash, controls and lone surrogates.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

// JSON.stringify per cell dominates a JSON Lines export; scalars, nearly always, are written directly. (JsonValue
// numbers are finite: the readers turn NaN and the infinities into text.)
export function jsonText(value: JsonValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    default:
      return JSON.stringify(value);
  }
}

/** An RFC 4180 field of row i: null is an empty field, an empty string is "" so that the two stay apart. */
export function csvFieldReader(column: Vector | Data): (i: number) => string {
  const read = jsonReader(column);
  return (i) => csvField(read(i));
}

export function csvField(value: JsonValue): string {
  if (value === null) return '';
  if (typeof value === 'string') return value === '' ? '""' : quoteIfNeeded(value);
  if (typeof value === 'object') return quoteIfNeeded(JSON.stringify(value));
  return String(value);
}

const NEEDS_QUOTES = /[",\r\n]/;

function quoteIfNeeded(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One-line text of row i for a terminal table; null for a null cell (the caller shows it distinctly). */
export function displayTextReader(column: Vector | Data): (i: number) => string | null {
  const read = jsonReader(column);
  return (i) => {
    const value = read(i);
    if (value === null) return null;
    if (typeof value === 'string') return oneLine(value);
    if (typeof value === 'object') return oneLine(JSON.stringify(value));
    return String(value);
  };
}

// Control characters would break the table's rows and columns; show them escaped instead.
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(text) ? JSON.stringify(text).slice(1, -1) : text;
}
