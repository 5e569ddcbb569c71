// A DuckDB result as Arrow record batches in the reader's canonical types (delta/arrow-types.ts), each column with the
// Delta type a sink creates it as: the form every output of Deltaport takes (the grid, the CLI's printers, the sinks).
// Numbers, text, bytes, dates and timestamps keep their type (unsigned integers widened to the next signed one,
// timestamps in microseconds); HUGEINT (what DuckDB's sum of longs gives) becomes a decimal(38,0), so no digit is
// lost; nested values become JSON text in a column marked as such, and any other type (intervals, UUIDs, times, enums)
// its DuckDB text.
import * as arrow from 'apache-arrow';
import {
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  type DuckDBBlobValue,
  type DuckDBDataChunk,
  type DuckDBDateValue,
  type DuckDBDecimalValue,
  type DuckDBType,
  type DuckDBValue,
  type DuckDBVector,
} from '@duckdb/node-api';
import type { DeltaType, StructField } from '../../shared/delta-schema.js';
import { buildData, decimalWords } from '../delta/engine/arrow-data.js';
import { JSON_TEXT_METADATA } from '../values/json-value.js';

interface Column {
  type: arrow.DataType;
  delta: DeltaType;
  metadata: Map<string, string> | null;
  /** The Arrow data of a chunk's column. */
  data(chunk: DuckDBDataChunk, index: number): arrow.Data;
}

/** The Arrow schema and Delta fields of a result: its columns' names made unique ("id", "id_2"), as sinks need. */
export function resultSchema(names: string[], types: DuckDBType[]): { schema: arrow.Schema; fields: StructField[] } {
  const seen = new Map<string, number>();
  const columns = names.map((name, i) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { name: n === 1 ? name : `${name}_${n}`, column: columnFor(types[i]) };
  });
  return {
    schema: new arrow.Schema(columns.map(({ name, column }) => new arrow.Field(name, column.type, true, column.metadata))),
    fields: columns.map(({ name, column }) => ({ name, type: column.delta, nullable: true })),
  };
}

/** A chunk of the result as a record batch of `schema` (from resultSchema of the same result). */
export function chunkToBatch(schema: arrow.Schema, types: DuckDBType[], chunk: DuckDBDataChunk): arrow.RecordBatch {
  const children = types.map((type, i) => columnFor(type).data(chunk, i));
  const data = arrow.makeData({ type: new arrow.Struct(schema.fields), length: chunk.rowCount, nullCount: 0, children });
  return new arrow.RecordBatch(schema, data);
}

function columnFor(type: DuckDBType): Column {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return fixed(new arrow.Bool(), 'boolean', (v) => v as boolean);
    case DuckDBTypeId.TINYINT:
      return fixed(new arrow.Int8(), 'byte', (v) => v as number);
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.UTINYINT:
      return fixed(new arrow.Int16(), 'short', (v) => v as number);
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.USMALLINT:
      return fixed(new arrow.Int32(), 'integer', (v) => v as number);
    case DuckDBTypeId.BIGINT:
      return fixed(new arrow.Int64(), 'long', (v) => v as bigint);
    case DuckDBTypeId.UINTEGER:
      return fixed(new arrow.Int64(), 'long', (v) => BigInt(v as number));
    case DuckDBTypeId.UBIGINT:
      return decimal(20, 0, (v) => v as bigint);
    case DuckDBTypeId.FLOAT:
      return fixed(new arrow.Float32(), 'float', (v) => v as number);
    case DuckDBTypeId.DOUBLE:
      return fixed(new arrow.Float64(), 'double', (v) => v as number);
    case DuckDBTypeId.DATE:
      return fixed(new arrow.DateDay(), 'date', (v) => (v as DuckDBDateValue).days);
    case DuckDBTypeId.TIMESTAMP:
      return fixed(new arrow.TimestampMicrosecond(), 'timestamp_ntz', (v) => (v as { micros: bigint }).micros);
    case DuckDBTypeId.TIMESTAMP_TZ:
      return fixed(new arrow.TimestampMicrosecond('UTC'), 'timestamp', (v) => (v as { micros: bigint }).micros);
    case DuckDBTypeId.TIMESTAMP_MS:
      return fixed(new arrow.TimestampMicrosecond(), 'timestamp_ntz', (v) => (v as { millis: bigint }).millis * 1000n);
    case DuckDBTypeId.TIMESTAMP_S:
      return fixed(new arrow.TimestampMicrosecond(), 'timestamp_ntz', (v) => (v as { seconds: bigint }).seconds * 1000000n);
    case DuckDBTypeId.TIMESTAMP_NS:
      // Below a microsecond is dropped, as the reader does with nanosecond Parquet timestamps.
      return fixed(new arrow.TimestampMicrosecond(), 'timestamp_ntz', (v) => (v as { nanos: bigint }).nanos / 1000n);
    case DuckDBTypeId.DECIMAL:
      return decimal(type.width, type.scale, (v) => (v as DuckDBDecimalValue).value);
    case DuckDBTypeId.HUGEINT:
      return decimal(38, 0, (v) => v as bigint);
    case DuckDBTypeId.VARCHAR:
      return text(type.alias === 'JSON', (v) => v as string);
    case DuckDBTypeId.BLOB:
      return binary();
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.STRUCT:
    case DuckDBTypeId.MAP:
    case DuckDBTypeId.ARRAY:
    case DuckDBTypeId.UNION:
      return nested();
    default:
      return text(false, (v) => String(v));
  }
}

function cells(chunk: DuckDBDataChunk, index: number): { vector: DuckDBVector; length: number } {
  return { vector: chunk.getColumnVector(index), length: chunk.rowCount };
}

/** The validity bitmap of a column and its null count, calling `each` with every non-null value. */
function walk(
  vector: DuckDBVector,
  length: number,
  each: (value: DuckDBValue, row: number) => void,
): { validity: Uint8Array; nulls: number } {
  const validity = new Uint8Array(Math.ceil(length / 8));
  let nulls = 0;
  for (let r = 0; r < length; r++) {
    const value = vector.getItem(r);
    if (value === null) {
      nulls++;
      continue;
    }
    validity[r >> 3] |= 1 << (r & 7);
    each(value, r);
  }
  return { validity, nulls };
}

function fixed<T extends arrow.DataType>(type: T, delta: DeltaType, value: (v: DuckDBValue) => number | bigint | boolean): Column {
  return {
    type,
    delta,
    metadata: null,
    data(chunk, index) {
      const { vector, length } = cells(chunk, index);
      if (arrow.DataType.isBool(type)) {
        const bits = new Uint8Array(Math.ceil(length / 8));
        const { validity, nulls } = walk(vector, length, (v, r) => {
          if (value(v)) bits[r >> 3] |= 1 << (r & 7);
        });
        return buildData(type, length, nulls, { values: bits, validity });
      }
      const ArrayType = type.ArrayType as new (n: number) => arrow.Data['values'] & { [i: number]: number | bigint };
      const values = new ArrayType(length);
      const { validity, nulls } = walk(vector, length, (v, r) => {
        values[r] = value(v) as number | bigint;
      });
      return buildData(type, length, nulls, { values, validity });
    },
  };
}

function decimal(precision: number, scale: number, unscaled: (v: DuckDBValue) => bigint): Column {
  const type = new arrow.Decimal(scale, precision, 128);
  return {
    type,
    delta: `decimal(${precision},${scale})`,
    metadata: null,
    data(chunk, index) {
      const { vector, length } = cells(chunk, index);
      const values = new Uint32Array(4 * length);
      const { validity, nulls } = walk(vector, length, (v, r) => values.set(decimalWords(unscaled(v)), 4 * r));
      return buildData(type, length, nulls, { values, validity });
    },
  };
}

function text(json: boolean, toText: (v: DuckDBValue) => string): Column {
  return {
    type: new arrow.Utf8(),
    delta: 'string',
    metadata: json ? new Map(JSON_TEXT_METADATA) : null,
    data(chunk, index) {
      const { vector, length } = cells(chunk, index);
      const texts: (string | null)[] = new Array<string | null>(length).fill(null);
      walk(vector, length, (v, r) => {
        texts[r] = toText(v);
      });
      return arrow.vectorFromArray(texts, new arrow.Utf8()).data[0];
    },
  };
}

function binary(): Column {
  return {
    type: new arrow.Binary(),
    delta: 'binary',
    metadata: null,
    data(chunk, index) {
      const { vector, length } = cells(chunk, index);
      const parts: (Uint8Array | null)[] = new Array<Uint8Array | null>(length).fill(null);
      walk(vector, length, (v, r) => {
        parts[r] = (v as DuckDBBlobValue).bytes;
      });
      return arrow.vectorFromArray(parts, new arrow.Binary()).data[0];
    },
  };
}

function nested(): Column {
  return {
    type: new arrow.Utf8(),
    delta: 'string',
    metadata: new Map(JSON_TEXT_METADATA),
    data(chunk, index) {
      const values = chunk.convertColumnValues(index, JsonDuckDBValueConverter);
      const texts = values.map((v) => (v === null ? null : JSON.stringify(v)));
      return arrow.vectorFromArray(texts, new arrow.Utf8()).data[0];
    },
  };
}
