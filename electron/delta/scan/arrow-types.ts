// Delta types to the canonical Arrow types every scan emits, whatever the Parquet files hold (see normalize.ts).
import * as arrow from 'apache-arrow';
import { decimalParts, isDecimal, type DeltaType, type PrimitiveName, type StructField } from '../../../shared/delta-schema.js';
import { DeltaportError } from '../../../shared/errors.js';
import { JSON_TEXT_METADATA } from '../../values/json-value.js';
import type { Snapshot } from '../snapshot.js';

const PRIMITIVES: Record<PrimitiveName, () => arrow.DataType> = {
  byte: () => new arrow.Int8(),
  short: () => new arrow.Int16(),
  integer: () => new arrow.Int32(),
  long: () => new arrow.Int64(),
  float: () => new arrow.Float32(),
  double: () => new arrow.Float64(),
  boolean: () => new arrow.Bool(),
  string: () => new arrow.Utf8(),
  binary: () => new arrow.Binary(),
  date: () => new arrow.DateDay(),
  timestamp: () => new arrow.TimestampMicrosecond('UTC'),
  timestamp_ntz: () => new arrow.TimestampMicrosecond(),
  void: () => new arrow.Null(),
  // Variant values leave the reader as JSON text (variant.ts), in fields marked as such (arrowField).
  variant: () => new arrow.Utf8(),
};

export function toArrowType(t: DeltaType): arrow.DataType {
  if (isDecimal(t)) {
    const { precision, scale } = decimalParts(t);
    return new arrow.Decimal(scale, precision, 128);
  }
  if (typeof t === 'string') return PRIMITIVES[t]();
  switch (t.type) {
    case 'struct':
      return new arrow.Struct(t.fields.map(toArrowField));
    case 'array':
      return new arrow.List(arrowField('element', t.elementType, t.containsNull));
    case 'map': {
      const entries = new arrow.Struct([arrowField('key', t.keyType, false), arrowField('value', t.valueType, t.valueContainsNull)]);
      return new arrow.Map_(new arrow.Field('entries', entries, false), false);
    }
    default:
      return t satisfies never;
  }
}

export function toArrowField(f: StructField): arrow.Field {
  return arrowField(f.name, f.type, f.nullable);
}

/** A variant's field is marked as JSON text, at any depth, so that every output writes the value, not a string. */
function arrowField(name: string, type: DeltaType, nullable: boolean): arrow.Field {
  return new arrow.Field(name, toArrowType(type), nullable, type === 'variant' ? new Map(JSON_TEXT_METADATA) : null);
}

/** The top-level Delta fields of the chosen columns (logical names), in the given order; all when absent. */
export function selectFields(snapshot: Snapshot, columns?: string[]): StructField[] {
  if (!columns) return snapshot.schema.fields;
  return columns.map((name) => {
    const field = snapshot.schema.fields.find((f) => f.name === name);
    if (!field) throw new DeltaportError('VALIDATION', `no column '${name}' in the table's schema`);
    return field;
  });
}

export function outputSchema(snapshot: Snapshot, columns?: string[]): arrow.Schema {
  return new arrow.Schema(selectFields(snapshot, columns).map(toArrowField));
}
