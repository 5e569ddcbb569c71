// Arrow batches as PostgreSQL COPY text (tab-separated, \N for null, backslash escapes), encoded one column at a
// time into cell arrays and joined into lines per chunk, so COPY gets large buffers and no row objects exist.
import type { Data, RecordBatch } from 'apache-arrow';
import { Type } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { isNullAt, mayNeedCopyEscape, pgTextReader } from './column-values.js';

const ROWS_PER_CHUNK = 4096;
const NULL = '\\N';
const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function escapeCopy(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIAL_ALL, (c) => ESCAPES[c]) : text;
}

/** COPY text of a batch's rows, in chunks of a few thousand lines. */
export function* copyTextChunks(batch: RecordBatch, fields: StructField[]): Generator<Buffer> {
  const columns = fields.map((field, c) => columnEncoder(batch.data.children[c], field));
  const width = columns.length;
  const cells: string[][] = columns.map(() => []);
  for (let first = 0; first < batch.numRows; first += ROWS_PER_CHUNK) {
    const rows = Math.min(ROWS_PER_CHUNK, batch.numRows - first);
    for (let c = 0; c < width; c++) columns[c](first, rows, cells[c]);
    let text = '';
    for (let r = 0; r < rows; r++) {
      let line = cells[0][r];
      for (let c = 1; c < width; c++) line += '\t' + cells[c][r];
      text += line + '\n';
    }
    yield Buffer.from(text, 'utf8');
  }
}

type ColumnEncoder = (first: number, rows: number, into: string[]) => void;

function columnEncoder(data: Data, field: StructField): ColumnEncoder {
  const isNull = isNullAt(data);
  const read = pgTextReader(data, field);
  const escape = mayNeedCopyEscape(field) && !plainUtf8(data);
  return (first, rows, into) => {
    for (let r = 0; r < rows; r++) {
      const i = first + r;
      into[r] = isNull(i) ? NULL : escape ? escapeCopy(read(i)) : read(i);
    }
  };
}

/** True for a string column whose bytes hold no backslash, tab or line break: its cells need no escaping at all. */
function plainUtf8(data: Data): boolean {
  if (data.type.typeId !== Type.Utf8 || data.length === 0) return false;
  const offsets = data.valueOffsets as Int32Array;
  const bytes = data.values as Uint8Array;
  const used = Buffer.from(bytes.buffer, bytes.byteOffset + offsets[0], offsets[data.length] - offsets[0]);
  return used.indexOf(0x5c) < 0 && used.indexOf(0x09) < 0 && used.indexOf(0x0a) < 0 && used.indexOf(0x0d) < 0;
}
