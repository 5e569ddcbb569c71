// Delta's schema JSON (PROTOCOL.md "Schema Serialization Format"), typed as it is stored in metaData.schemaString,
// with every primitive type the reader reads named in one literal union. parseStructType is where a schema from a
// table becomes these types, and the one place that refuses a type the reader does not know; every switch over the
// names is exhaustive, so that a new type is a list of compiler errors.
import { DeltaportError } from './errors.js';

/** The primitive types without parameters, as Delta names them. */
const PRIMITIVE_NAMES = [
  'byte',
  'short',
  'integer',
  'long',
  'float',
  'double',
  'boolean',
  'string',
  'binary',
  'date',
  'timestamp',
  'timestamp_ntz',
  'variant',
  'void',
] as const;

export type PrimitiveName = (typeof PRIMITIVE_NAMES)[number];

/** A decimal as parseStructType leaves it: "decimal(p,s)" without spaces, 1 <= p <= 38, 0 <= s <= p. */
export type DecimalName = `decimal(${number},${number})`;

/** A primitive type as Delta writes it, e.g. "long", "timestamp_ntz", "decimal(10,2)". */
export type PrimitiveType = PrimitiveName | DecimalName;

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

export function isDecimal(t: DeltaType): t is DecimalName {
  return typeof t === 'string' && t.startsWith('decimal(');
}

/** A decimal's precision and scale, from the form parseStructType checked. */
export function decimalParts(t: DecimalName): { precision: number; scale: number } {
  const [precision, scale] = t.slice('decimal('.length, -1).split(',').map(Number);
  return { precision, scale };
}

/** A short human-readable type, as shown in the schema tree and the column picker. */
export function typeLabel(t: DeltaType): string {
  if (typeof t === 'string') return t;
  switch (t.type) {
    case 'struct':
      return `struct<${t.fields.map((f) => `${f.name}: ${typeLabel(f.type)}`).join(', ')}>`;
    case 'array':
      return `array<${typeLabel(t.elementType)}>`;
    case 'map':
      return `map<${typeLabel(t.keyType)}, ${typeLabel(t.valueType)}>`;
    default:
      return t satisfies never;
  }
}

const PRIMITIVES: ReadonlySet<string> = new Set(PRIMITIVE_NAMES);
const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(-?\d+)\s*\)$/;
const MAX_DECIMAL_PRECISION = 38;

/** A table's schema, as its metaData.schemaString parsed as JSON holds it, in the types above: null where it is not a
 * schema at all; a type the reader does not know is refused as the table's, not the log's, fault. */
export function parseStructType(json: unknown): StructType | null {
  if (typeof json !== 'object' || json === null || (json as Record<string, unknown>).type !== 'struct') return null;
  return parseStruct(json as Record<string, unknown>);
}

function parseType(json: unknown): DeltaType | null {
  if (typeof json === 'string') return parsePrimitive(json);
  if (typeof json !== 'object' || json === null) return null;
  const t = json as Record<string, unknown>;
  switch (t.type) {
    case 'struct':
      return parseStruct(t);
    case 'array': {
      const elementType = parseType(t.elementType);
      return elementType && { ...(t as unknown as ArrayType), elementType };
    }
    case 'map': {
      const [keyType, valueType] = [parseType(t.keyType), parseType(t.valueType)];
      return keyType && valueType && { ...(t as unknown as MapType), keyType, valueType };
    }
    default:
      throw unsupportedType(JSON.stringify(json));
  }
}

function parseStruct(t: Record<string, unknown>): StructType | null {
  if (!Array.isArray(t.fields)) return null;
  const fields: StructField[] = [];
  for (const field of t.fields as unknown[]) {
    if (typeof field !== 'object' || field === null) return null;
    const f = field as Record<string, unknown>;
    const type = typeof f.name === 'string' ? parseType(f.type) : null;
    if (type === null) return null;
    fields.push({ ...(f as unknown as StructField), type });
  }
  return { ...(t as unknown as StructType), fields };
}

function parsePrimitive(name: string): PrimitiveType {
  if (PRIMITIVES.has(name)) return name as PrimitiveName;
  const m = DECIMAL.exec(name);
  if (m) {
    const [precision, scale] = [Number(m[1]), Number(m[2])];
    if (precision >= 1 && precision <= MAX_DECIMAL_PRECISION && scale >= 0 && scale <= precision) return `decimal(${precision},${scale})`;
  }
  throw unsupportedType(`'${name}'`);
}

function unsupportedType(shown: string): DeltaportError {
  return new DeltaportError('UNSUPPORTED_PROTOCOL', `unsupported Delta type ${shown}`);
}
