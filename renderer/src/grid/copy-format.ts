// A selected range of the grid as text for the clipboard: TSV (what spreadsheets paste), CSV (RFC 4180) or JSON
// (objects keyed by column when headers are asked for, else arrays), nested values kept as values in JSON.
import type { JsonValue } from '../../../shared/api.js';
import { cellText } from '../format.js';

export type CopyFormat = 'tsv' | 'csv' | 'json';

export const COPY_FORMATS: { format: CopyFormat; label: string }[] = [
  { format: 'tsv', label: 'TSV' },
  { format: 'csv', label: 'CSV' },
  { format: 'json', label: 'JSON' },
];

/** A cell as delimited text: null is empty, quoted when it holds the delimiter, a quote or a line break. */
function delimited(value: JsonValue | string, delimiter: string): string {
  const text = value === null ? '' : typeof value === 'string' ? value : cellText(value);
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatRange(headers: string[], rows: JsonValue[][], format: CopyFormat, withHeaders: boolean): string {
  if (format === 'json') {
    const values = withHeaders ? rows.map((row) => Object.fromEntries(headers.map((h, i) => [h, row[i]]))) : rows;
    return JSON.stringify(values, null, 2);
  }
  const delimiter = format === 'tsv' ? '\t' : ',';
  const lines = (withHeaders ? [headers, ...rows] : rows).map((row) => row.map((v) => delimited(v, delimiter)).join(delimiter));
  return lines.join(format === 'csv' ? '\r\n' : '\n');
}
