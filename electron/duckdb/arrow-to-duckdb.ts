// The reader's Arrow batches into a DuckDB table, column by column: each column gets the DuckDB type that holds its
// values exactly (longs as BIGINT, decimals with their precision and scale, timestamps in microseconds, with or
// without a time zone), and its cells are written straight from the Arrow buffers into a DuckDB data chunk. Nested
// values (structs, lists, maps) and variants travel as JSON text in a JSON column, written as every other output
// writes them (electron/values/), so a query reads them with DuckDB's JSON functions.
import * as arrow from 'apache-arrow';
import {
  DuckDBBlobValue,
  DuckDBDataChunk,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBAppender,
  type DuckDBValue,
} from '@duckdb/node-api';
import { booleanReader, isNullAt, utf8Reader, type RowReader } from '../delta/engine/arrow-buffers.js';
import { decimalAt } from '../delta/engine/arrow-data.js';
import { JSON_TEXT_METADATA } from '../values/json-value.js';
import { jsonTextReader } from '../values/text-formats.js';
import { quoteName } from '../../shared/sql-quote.js';

/** The DuckDB column type of a field the reader emits (its canonical Arrow types, delta/arrow-types.ts). */
export function duckType(field: arrow.Field): string {
  const type = field.type;
  if (arrow.DataType.isInt(type)) return ({ 8: 'TINYINT', 16: 'SMALLINT', 32: 'INTEGER', 64: 'BIGINT' } as const)[type.bitWidth];
  if (arrow.DataType.isFloat(type)) return type.precision === arrow.Precision.SINGLE ? 'FLOAT' : 'DOUBLE';
  if (arrow.DataType.isBool(type)) return 'BOOLEAN';
  if (arrow.DataType.isUtf8(type)) return isJson(field) ? 'JSON' : 'VARCHAR';
  if (arrow.DataType.isBinary(type)) return 'BLOB';
  if (arrow.DataType.isDate(type)) return 'DATE';
  if (arrow.DataType.isTimestamp(type)) return type.timezone ? 'TIMESTAMPTZ' : 'TIMESTAMP';
  if (arrow.DataType.isDecimal(type)) return `DECIMAL(${type.precision}, ${type.scale})`;
  // A column of Delta's void type holds only nulls.
  if (arrow.DataType.isNull(type)) return 'VARCHAR';
  return 'JSON';
}

function isJson(field: arrow.Field): boolean {
  return field.metadata.get('ARROW:extension:name') === JSON_TEXT_METADATA.get('ARROW:extension:name');
}

/** CREATE TABLE for a schema's columns. */
export function createTableSql(name: string, schema: arrow.Schema): string {
  const columns = schema.fields.map((f) => `${quoteName(f.name)} ${duckType(f)}`);
  return `CREATE TEMP TABLE ${quoteName(name)} (${columns.join(', ')})`;
}

/** DuckDB's vectors hold this many rows: a batch is appended in chunks of at most this size. */
const CHUNK_ROWS = 2048;

/** Appends a batch's rows to the table the appender writes (made by createTableSql from the batch's schema). */
export function appendBatch(appender: DuckDBAppender, batch: arrow.RecordBatch): void {
  const types = Array.from({ length: appender.columnCount }, (_, i) => appender.columnType(i));
  for (let from = 0; from < batch.numRows; from += CHUNK_ROWS) {
    const part = batch.numRows - from > CHUNK_ROWS || from > 0 ? batch.slice(from, from + CHUNK_ROWS) : batch;
    const chunk = DuckDBDataChunk.create(types, part.numRows);
    part.schema.fields.forEach((field, c) => {
      const data = part.data.children[c];
      const read = cellReader(field, data);
      const isNull = isNullAt(data);
      const vector = chunk.getColumnVector(c);
      for (let r = 0; r < part.numRows; r++) vector.setItem(r, isNull(r) ? null : read(r));
      vector.flush();
    });
    appender.appendDataChunk(chunk);
  }
}

/** Reads the DuckDB value of a non-null cell. (apache-arrow slices a chunk's values and offsets with it; only its bitmaps
 * keep the chunk's offset, which the readers of electron/arrow/ apply.) */
function cellReader(field: arrow.Field, data: arrow.Data): RowReader<DuckDBValue> {
  const type = field.type;
  if (duckType(field) === 'JSON') return jsonTextReader(data, field);
  if (arrow.DataType.isUtf8(type)) return utf8Reader(data);
  if (arrow.DataType.isBool(type)) return booleanReader(data);
  if (arrow.DataType.isInt(type) || arrow.DataType.isFloat(type)) {
    const values = data.values as ArrayLike<number | bigint>;
    return (i) => values[i];
  }
  if (arrow.DataType.isDate(type)) {
    const days = data.values as Int32Array;
    return (i) => new DuckDBDateValue(days[i]);
  }
  if (arrow.DataType.isTimestamp(type)) {
    const micros = data.values as BigInt64Array;
    return type.timezone ? (i) => new DuckDBTimestampTZValue(micros[i]) : (i) => new DuckDBTimestampValue(micros[i]);
  }
  if (arrow.DataType.isDecimal(type)) {
    const words = data.values as Uint32Array;
    return (i) => new DuckDBDecimalValue(decimalAt(words, i), type.precision, type.scale);
  }
  if (arrow.DataType.isBinary(type)) {
    const offsets = data.valueOffsets as Int32Array;
    const bytes = data.values as Uint8Array;
    return (i) => new DuckDBBlobValue(bytes.subarray(offsets[i], offsets[i + 1]));
  }
  return () => null;
}
