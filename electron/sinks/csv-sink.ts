// CSV: an optional header row of column names, then one line per row, in the export's style (RFC 4180 by default:
// comma, double quote, LF, null as an empty field). Each batch is formatted column by column and written with one call.
import { DEFAULT_CSV_STYLE, type CsvStyle } from '../../shared/csv-style.js';
import { csvFieldReader, csvFieldWriter } from '../values/text-formats.js';
import type { StorageResolver } from '../storage/storage.js';
import type { BatchSink } from './sink.js';
import { textFileSink, type TextFormat } from './text-file-sink.js';

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

export function createCsvSink(target: string, style: CsvStyle, storage: StorageResolver): BatchSink {
  return textFileSink(target, csvFormat(style), storage);
}
