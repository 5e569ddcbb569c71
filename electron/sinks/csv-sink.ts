// CSV (RFC 4180): a header row of column names, then one line per row; fields quoted only when needed, null as an
// empty field, the empty string as "". Each batch is formatted column by column and written with one call.
import { csvField, csvFieldReader } from '../values/text-formats.js';
import type { BatchSink } from './sink.js';
import { textFileSink, type TextFormat } from './text-file-sink.js';

export const CSV_FORMAT: TextFormat = {
  header: (names) => `${names.map(csvField).join(',')}\n`,
  body: ({ batch }) => {
    const fields = batch.schema.fields.map((_, c) => csvFieldReader(batch.getChildAt(c)!));
    let text = '';
    for (let r = 0; r < batch.numRows; r++) {
      let line = fields[0](r);
      for (let c = 1; c < fields.length; c++) line += `,${fields[c](r)}`;
      text += `${line}\n`;
    }
    return text;
  },
};

export function createCsvSink(target: string): BatchSink {
  return textFileSink(target, CSV_FORMAT);
}
