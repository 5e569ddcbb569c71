// Arrow cells to JsonValue (shared/api.ts): longs beyond ±2^53 as text, decimals as exact text, binary as base64,
// dates 'YYYY-MM-DD', timestamps ISO-8601 ('Z' for UTC instants, none for timestamp_ntz), non-finite floats as
// 'NaN'/'Infinity'/'-Infinity', structs and maps as objects, lists as arrays, and text marked as JSON (Arrow's
// canonical arrow.json extension: the reader's variants) as the value it spells. A reader is bound to one column of
// one batch so that it reads the typed arrays directly, with no row objects.
import { isSafeNumber, parse as parseLossless } from 'lossless-json';
import {
  makeVector,
  Precision,
  Type,
  type Data,
  type DataType,
  type Decimal,
  type Field,
  type FixedSizeBinary,
  type FixedSizeList,
  type Float,
  type Int,
  type RecordBatch,
  type Schema,
  type Timestamp,
  type Vector,
} from 'apache-arrow';
import { DeltaportError } from '../../shared/errors.js';
import { anyOffsets, booleanReader, int32Offsets, utf8Reader, validity, valueBytes } from '../delta/engine/arrow-buffers.js';
import type { ChangeRows, JsonValue } from '../../shared/api.js';
import type { StructField } from '../../shared/delta-schema.js';
import { decimalReader } from './decimal-text.js';
import { int64Reader } from './int64.js';
import { dateFormatter, timestampFormatter } from './time-text.js';

/** Reads row i of the column it was made for. */
export type CellReader = (i: number) => JsonValue;

/** Field metadata of a Utf8 column whose text is JSON (Arrow's canonical JSON extension type). */
export const JSON_TEXT_METADATA: ReadonlyMap<string, string> = new Map([['ARROW:extension:name', 'arrow.json']]);

function isJsonText(field: Field | undefined): boolean {
  return field?.metadata.get('ARROW:extension:name') === 'arrow.json';
}

/** A reader of JsonValues for a column: a batch's Vector (any number of chunks) or one Data; `field` is the column's
 * own (its metadata says whether text is JSON: nested fields carry theirs in the type). */
export function jsonReader(column: Vector | Data, field?: Field): CellReader {
  if (!('data' in column)) return dataReader(column, field);
  const chunks = column.data;
  if (chunks.length === 1) return dataReader(chunks[0], field);
  const readers = chunks.map((chunk) => dataReader(chunk, field));
  const starts: number[] = [];
  let start = 0;
  for (const chunk of chunks) {
    starts.push(start);
    start += chunk.length;
  }
  return (i) => {
    let c = starts.length - 1;
    while (starts[c] > i) c--;
    return readers[c](i - starts[c]);
  };
}

function dataReader(data: Data, field?: Field): CellReader {
  const read = isJsonText(field) ? jsonTextValueReader(data) : valueReader(data);
  if (data.nullCount === 0 || data.typeId === Type.Null) return read;
  const valid = validity(data);
  return (i) => (valid(i) ? read(i) : null);
}

// Reads a value that is known not to be null.
function valueReader(data: Data): CellReader {
  const type = data.type;
  switch (data.typeId) {
    case Type.Null:
      return () => null;
    case Type.Bool:
      return booleanReader(data);
    case Type.Int: {
      if ((type as Int).bitWidth < 64) {
        const values = data.values as Int32Array;
        return (i) => values[i];
      }
      const read = int64Reader(data.values as BigInt64Array | BigUint64Array);
      return (i) => {
        const v = read(i);
        return typeof v === 'number' ? v : v.toString();
      };
    }
    case Type.Float: {
      const values = data.values as Float32Array | Float64Array;
      if ((type as Float).precision === Precision.SINGLE) return (i) => finite(shortestFloat32(values[i]));
      if ((type as Float).precision === Precision.HALF) return (i) => finite(halfToNumber(values[i]));
      return (i) => finite(values[i]);
    }
    case Type.Decimal:
      return decimalReader(data.values as Uint32Array, (type as Decimal).bitWidth, (type as Decimal).scale);
    case Type.Utf8:
    case Type.LargeUtf8:
      return utf8Reader(data);
    case Type.Binary:
    case Type.LargeBinary: {
      const bytes = valueBytes(data);
      const offsets = anyOffsets(data);
      return (i) => base64(bytes, Number(offsets[i]), Number(offsets[i + 1]));
    }
    case Type.FixedSizeBinary: {
      const bytes = valueBytes(data);
      const width = (type as FixedSizeBinary).byteWidth;
      return (i) => base64(bytes, i * width, (i + 1) * width);
    }
    case Type.Utf8View:
    case Type.BinaryView: {
      // View types keep values in several buffers; apache-arrow's own accessor reads them.
      const vector = makeVector(data);
      const isText = data.typeId === Type.Utf8View;
      return (i) => {
        const v = vector.get(i) as string | Uint8Array;
        return isText ? (v as string) : base64(v as Uint8Array, 0, (v as Uint8Array).length);
      };
    }
    case Type.Date: {
      const format = dateFormatter();
      if (data.values instanceof Int32Array) {
        const days = data.values;
        return (i) => format(days[i]);
      }
      const read = int64Reader(data.values as BigInt64Array);
      return (i) => format(Math.floor(Number(read(i)) / 86_400_000));
    }
    case Type.Timestamp: {
      const read = int64Reader(data.values as BigInt64Array);
      const { unit, timezone } = type as Timestamp;
      const format = timestampFormatter(unit, timezone != null && timezone !== '');
      return (i) => format(read(i));
    }
    case Type.Struct: {
      const children = type.children as Field[];
      const names = children.map((f) => f.name);
      const fields = data.children.map((child, f) => dataReader(child, children[f]));
      return (i) => {
        const out: { [key: string]: JsonValue } = {};
        for (let f = 0; f < fields.length; f++) out[names[f]] = fields[f](i);
        return out;
      };
    }
    case Type.List:
    case Type.LargeList: {
      const offsets = anyOffsets(data);
      const element = dataReader(data.children[0], type.children[0] as Field);
      return (i) => {
        const out: JsonValue[] = [];
        for (let e = Number(offsets[i]), end = Number(offsets[i + 1]); e < end; e++) out.push(element(e));
        return out;
      };
    }
    case Type.FixedSizeList: {
      const size = (type as FixedSizeList).listSize;
      const element = dataReader(data.children[0], type.children[0] as Field);
      return (i) => {
        const out: JsonValue[] = [];
        for (let e = i * size; e < (i + 1) * size; e++) out.push(element(e));
        return out;
      };
    }
    case Type.Map: {
      const offsets = int32Offsets(data);
      const entries = data.children[0];
      const [keyField, valueField] = entries.type.children as Field[];
      const key = dataReader(entries.children[0], keyField);
      const value = dataReader(entries.children[1], valueField);
      return (i) => {
        const out: { [key: string]: JsonValue } = {};
        for (let e = offsets[i]; e < offsets[i + 1]; e++) out[keyText(key(e))] = value(e);
        return out;
      };
    }
    case Type.Dictionary: {
      const indices = data.values as Int32Array;
      const dictionary = jsonReader(data.dictionary as Vector);
      return (i) => dictionary(Number(indices[i]));
    }
    default:
      return unsupported(type);
  }
}

/** JSON text -> its value. JSON.parse would round numbers beyond a double's digits (a variant's long or decimal);
 * text with such a number is parsed losslessly instead, and the number kept as its text, as longs are elsewhere. */
function jsonTextValueReader(data: Data): CellReader {
  if (data.typeId !== Type.Utf8 && data.typeId !== Type.LargeUtf8) return valueReader(data);
  const text = utf8Reader(data);
  return (i) => {
    const json = text(i);
    if (!LONG_DIGITS.test(json)) return JSON.parse(json) as JsonValue;
    return parseLossless(json, null, (digits) => (isSafeNumber(digits) ? Number(digits) : digits)) as JsonValue;
  };
}

// 16 digits in a row: the shortest number (outside strings too, which only makes the check conservative) that a
// double may not hold exactly.
const LONG_DIGITS = /\d{16}/;

// A map key must become an object key: text stays as it is, anything else becomes its JSON text.
function keyText(key: JsonValue): string {
  return typeof key === 'string' ? key : JSON.stringify(key);
}

function finite(v: number): JsonValue {
  if (Number.isFinite(v)) return v;
  return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
}

/** The shortest decimal that reads back as the same float32 (0.1f is 0.1, not 0.10000000149011612). */
export function shortestFloat32(v: number): number {
  if (!Number.isFinite(v) || (Number.isInteger(v) && Math.abs(v) <= 16_777_216)) return v;
  for (let digits = 1; digits < 9; digits++) {
    const candidate = Number(v.toPrecision(digits));
    if (Math.fround(candidate) === v) return candidate;
  }
  return Number(v.toPrecision(9));
}

function halfToNumber(bits: number): number {
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  const sign = bits & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

function base64(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('base64');
}

function unsupported(type: DataType): never {
  throw new DeltaportError('INTERNAL', `cannot convert values of Arrow type ${String(type)}`);
}

/** The first `limit` rows as JSON-safe values, and whether there were more. */
export async function jsonRows(
  fields: StructField[],
  schema: Schema,
  batches: AsyncIterable<RecordBatch>,
  limit: number,
): Promise<Pick<ChangeRows, 'columns' | 'rows' | 'truncated'>> {
  const rows: JsonValue[][] = [];
  for await (const batch of batches) {
    const readers = schema.fields.map((f) => jsonReader(batch.getChild(f.name)!, f));
    for (let i = 0; i < batch.numRows && rows.length <= limit; i++) rows.push(readers.map((read) => read(i)));
    if (rows.length > limit) break;
  }
  return {
    columns: fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable })),
    rows: rows.slice(0, limit),
    truncated: rows.length > limit,
  };
}
