// Cell text for the file sinks and the CLI, built on the JsonValue readers so that every output agrees on how a
// value is written (exact decimals and longs, ISO-8601 times, base64 binary, nested values as JSON).
import type { Data, Field, Vector } from 'apache-arrow';
import type { JsonValue } from '../../shared/api.js';
import { DEFAULT_CSV_STYLE, type CsvStyle } from '../../shared/csv-style.js';
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

/** A CSV field of row i (`write`: the style's, by default RFC 4180's). */
export function csvFieldReader(column: Vector | Data, write: (value: JsonValue) => string = csvField): (i: number) => string {
  const read = jsonReader(column);
  return (i) => write(read(i));
}

/** The field writer of a CSV style: null is the null text; a value is quoted when it holds the delimiter, the quote
 * or a line break, or reads as the null text (so that the empty string stays apart from the default null). */
export function csvFieldWriter(style: Pick<CsvStyle, 'delimiter' | 'quote' | 'nullText'>): (value: JsonValue) => string {
  const { delimiter, quote, nullText } = style;
  const doubled = quote + quote;
  const quoted = (text: string) =>
    text === nullText || text.includes(delimiter) || text.includes(quote) || LINE_BREAK.test(text)
      ? `${quote}${text.replaceAll(quote, doubled)}${quote}`
      : text;
  return (value) => {
    if (value === null) return nullText;
    return quoted(typeof value === 'object' ? JSON.stringify(value) : String(value));
  };
}

export const csvField = csvFieldWriter(DEFAULT_CSV_STYLE);

const LINE_BREAK = /[\r\n]/;

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
