// JSON Lines: one JSON object per row, keys in column order, values by the JsonValue rules (shared/api.ts). The
// object text is assembled from per-column JSON texts, with no object per row.
import { jsonTextReader } from '../values/text-formats.js';
import type { StorageResolver } from '../storage/storage.js';
import type { BatchSink } from './sink.js';
import { textFileSink, type TextFormat } from './text-file-sink.js';

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

export function createJsonlSink(target: string, storage: StorageResolver): BatchSink {
  return textFileSink(target, JSONL_FORMAT, storage);
}
