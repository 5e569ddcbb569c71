// Delta's schema JSON (PROTOCOL.md "Schema Serialization Format"), typed as it is stored in metaData.schemaString.

/** A primitive type name as Delta writes it, e.g. "long", "timestamp_ntz", "decimal(10,2)". */
export type PrimitiveType = string;

export interface StructField {
  name: string;
  type: DeltaType;
  nullable: boolean;
  metadata?: Record<string, unknown>;
}

export interface StructType {
  type: 'struct';
  fields: StructField[];
}

export interface ArrayType {
  type: 'array';
  elementType: DeltaType;
  containsNull: boolean;
}

export interface MapType {
  type: 'map';
  keyType: DeltaType;
  valueType: DeltaType;
  valueContainsNull: boolean;
}

export type DeltaType = PrimitiveType | StructType | ArrayType | MapType;

export function isStruct(t: DeltaType): t is StructType {
  return typeof t === 'object' && t.type === 'struct';
}

export function isArray(t: DeltaType): t is ArrayType {
  return typeof t === 'object' && t.type === 'array';
}

export function isMap(t: DeltaType): t is MapType {
  return typeof t === 'object' && t.type === 'map';
}

/** Parses "decimal(p,s)" (spaces allowed); null for any other type. */
export function decimalParts(t: DeltaType): { precision: number; scale: number } | null {
  if (typeof t !== 'string') return null;
  const m = /^decimal\(\s*(\d+)\s*,\s*(-?\d+)\s*\)$/.exec(t);
  return m ? { precision: Number(m[1]), scale: Number(m[2]) } : null;
}

/** A short human-readable type, as shown in the schema tree and the column picker. */
export function typeLabel(t: DeltaType): string {
  if (typeof t === 'string') return t;
  if (t.type === 'struct') return `struct<${t.fields.map((f) => `${f.name}: ${typeLabel(f.type)}`).join(', ')}>`;
  if (t.type === 'array') return `array<${typeLabel(t.elementType)}>`;
  return `map<${typeLabel(t.keyType)}, ${typeLabel(t.valueType)}>`;
}
