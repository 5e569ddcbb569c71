// The line-oriented text formats, apart from the files they are written to: the CSV and JSON Lines sinks write them
// (text-file-sink.ts), and the CLI prints rows in them (cli/batch-output.ts) without loading a sink.
import { DEFAULT_CSV_STYLE, type CsvStyle } from '../../shared/csv-style.js';
import type { ScanBatch } from '../delta/scan/scan-types.js';
import { csvFieldReader, csvFieldWriter, jsonTextReader } from '../values/text-formats.js';

export interface TextFormat {
  header?(columnNames: string[]): string;
  /** The text of every row of the batch, each line ending in the format's line break. */
  body(batch: Pick<ScanBatch, 'batch'>): string;
}

/** CSV: an optional header row of column names, then one line per row, in the export's style (RFC 4180 by default:
 * comma, double quote, LF, null as an empty field). Each batch is formatted column by column into one string. */
export function csvFormat(style: CsvStyle): TextFormat {
  const write = csvFieldWriter(style);
  const { delimiter } = style;
  const end = style.lineEnding === 'crlf' ? '\r\n' : '\n';
  return {
    ...(style.header ? { header: (names: string[]) => `${names.map(write).join(delimiter)}${end}` } : {}),
    body: ({ batch }) => {
      const fields = batch.schema.fields.map((_, c) => csvFieldReader(batch.getChildAt(c)!, write));
      let text = '';
      for (let r = 0; r < batch.numRows; r++) {
        let line = fields[0](r);
        for (let c = 1; c < fields.length; c++) line += `${delimiter}${fields[c](r)}`;
        text += `${line}${end}`;
      }
      return text;
    },
  };
}

export const CSV_FORMAT = csvFormat(DEFAULT_CSV_STYLE);

/** JSON Lines: one JSON object per row, keys in column order, values by the JsonValue rules (shared/api.ts). The
 * object text is assembled from per-column JSON texts, with no object per row. */
export const JSONL_FORMAT: TextFormat = {
  body: ({ batch }) => {
    const keys = batch.schema.fields.map((f, c) => `${c === 0 ? '{' : ','}${JSON.stringify(f.name)}:`);
    const values = batch.schema.fields.map((f, c) => jsonTextReader(batch.getChildAt(c)!, f));
    let text = '';
    for (let r = 0; r < batch.numRows; r++) {
      let line = '';
      for (let c = 0; c < values.length; c++) line += keys[c] + values[c](r);
      text += `${line || '{'}}\n`;
    }
    return text;
  },
};
