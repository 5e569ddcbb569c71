// Builds the Arrow table of one data file from a Delta schema and its columns' values, with the Parquet physical
// types Delta writers use (timestamps as microseconds adjusted to UTC, dates as days).
import {
  Binary,
  Bool,
  DateDay,
  Field,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  Schema,
  Table,
  TimestampMicrosecond,
  Utf8,
  vectorFromArray,
  Vector,
  type DataType,
} from 'apache-arrow';
import type { StructType } from '../../../shared/delta-schema.js';
import { DeltaportError } from '../../../shared/errors.js';

const PRIMITIVES: Record<string, () => DataType> = {
  byte: () => new Int8(),
  short: () => new Int16(),
  integer: () => new Int32(),
  long: () => new Int64(),
  float: () => new Float32(),
  double: () => new Float64(),
  boolean: () => new Bool(),
  string: () => new Utf8(),
  binary: () => new Binary(),
  date: () => new DateDay(),
  timestamp: () => new TimestampMicrosecond('UTC'),
  timestamp_ntz: () => new TimestampMicrosecond(),
};

/** The Arrow schema of the data files: the table's fields minus its partition columns. */
export function dataFileSchema(schema: StructType, partitionColumns: string[] = []): Schema {
  const fields = schema.fields
    .filter((f) => !partitionColumns.includes(f.name))
    .map((f) => {
      const make = typeof f.type === 'string' && Object.hasOwn(PRIMITIVES, f.type) ? PRIMITIVES[f.type] : undefined;
      if (!make) throw new DeltaportError('VALIDATION', `the writer does not handle type ${JSON.stringify(f.type)} of '${f.name}'`);
      return new Field(f.name, make(), f.nullable);
    });
  return new Schema(fields);
}

/**
 * Column values are either ready Arrow vectors (built from typed arrays, the fast path) or plain arrays of JS values
 * (timestamps and dates as epoch milliseconds or Date objects).
 */
export type ColumnValues = Vector | ArrayLike<unknown>;

export function dataTable(schema: Schema, columns: Record<string, ColumnValues>): Table {
  const vectors: Record<string, Vector> = {};
  for (const field of schema.fields) {
    const values = columns[field.name];
    if (values === undefined) throw new DeltaportError('VALIDATION', `no values for column '${field.name}'`);
    vectors[field.name] = values instanceof Vector ? values : vectorFromArray(Array.from(values), field.type);
  }
  // The schema, not the vectors, decides nullability (Parquet REQUIRED vs OPTIONAL).
  return new Table(schema, vectors);
}
