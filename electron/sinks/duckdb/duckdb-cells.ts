// An export's cells as DuckDB values: nested columns kept native (a struct as a STRUCT value, a list as a LIST, a map
// as a MAP, at any depth), everything else as the SQL engine writes it (electron/duckdb/arrow-to-duckdb.ts), which also
// turns variants, at any depth, into JSON text.
import * as arrow from 'apache-arrow';
import { listValue, mapValue, structValue, type DuckDBValue } from '@duckdb/node-api';
import { isNullAt, type RowReader } from '../../delta/engine/arrow-buffers.js';
import { cellReader } from '../../duckdb/arrow-to-duckdb.js';

/** Reads a column's non-null cells. (A list's or a map's offsets point into its child's values as they are; a struct's
 * children are sliced with it, see arrow-to-duckdb.ts.) */
export function nativeCellReader(field: arrow.Field, data: arrow.Data): RowReader<DuckDBValue> {
  const type = field.type;
  if (arrow.DataType.isStruct(type)) {
    const children = type.children.map((child, c) => ({ name: child.name, read: nullable(child, data.children[c]) }));
    return (i) => structValue(Object.fromEntries(children.map(({ name, read }) => [name, read(i)])));
  }
  if (arrow.DataType.isList(type)) {
    const offsets = data.valueOffsets as Int32Array;
    const read = nullable(type.children[0], data.children[0]);
    return (i) => listValue(range(offsets[i], offsets[i + 1]).map(read));
  }
  if (arrow.DataType.isMap(type)) {
    const offsets = data.valueOffsets as Int32Array;
    const entries = data.children[0];
    const [keyField, valueField] = type.children[0].type.children;
    const key = nullable(keyField, entries.children[0]);
    const value = nullable(valueField, entries.children[1]);
    return (i) => mapValue(range(offsets[i], offsets[i + 1]).map((e) => ({ key: key(e), value: value(e) })));
  }
  return cellReader(field, data);
}

function nullable(field: arrow.Field, data: arrow.Data): RowReader<DuckDBValue> {
  const isNull = isNullAt(data);
  const read = nativeCellReader(field, data);
  return (i) => (isNull(i) ? null : read(i));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}
