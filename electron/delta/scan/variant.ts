// Variant values (Parquet VariantEncoding.md / VariantShredding.md) rendered as JSON text. A variant column is a
// struct of `metadata` (the key dictionary) and `value` (the encoded value), plus `typed_value` when shredded:
// then a row's value comes from typed_value, from value, or (for objects) from both merged.
import * as arrow from 'apache-arrow';
import { DeltaportError } from '../../../shared/errors.js';
import { buildData, decimalAt } from '../engine/arrow-data.js';

const decoder = new TextDecoder();

function corrupt(column: string, detail: string): DeltaportError {
  return new DeltaportError('CORRUPT_DATA', `variant column '${column}' cannot be decoded: ${detail}`);
}

/** A variant struct column -> a Utf8 column of JSON text (null where the struct is null). */
export function variantToJson(data: arrow.Data, target: arrow.Utf8, column: string): arrow.Data<arrow.Utf8> {
  if (data.typeId !== arrow.Type.Struct) throw corrupt(column, `expected a struct, found ${String(data.type)}`);
  const fields = (data.type as arrow.Struct).children;
  const child = (name: string): arrow.Data | undefined => {
    const i = fields.findIndex((f) => f.name === name);
    return i < 0 ? undefined : data.children[i];
  };
  const metadata = child('metadata');
  if (!metadata) throw corrupt(column, 'it has no metadata field');
  const value = child('value');
  const typed = child('typed_value');
  const texts: (string | null)[] = new Array<string | null>(data.length);
  for (let i = 0; i < data.length; i++) {
    if (!data.getValid(i)) {
      texts[i] = null;
      continue;
    }
    try {
      const dict = new VariantMetadata(binaryAt(metadata, i));
      texts[i] = shreddedToJson(dict, value, typed, i) ?? 'null';
    } catch (err) {
      if (err instanceof DeltaportError) throw err;
      throw corrupt(column, (err as Error).message);
    }
  }
  return utf8Data(target, texts);
}

function utf8Data(type: arrow.Utf8, texts: (string | null)[]): arrow.Data<arrow.Utf8> {
  const encoder = new TextEncoder();
  const parts = texts.map((t) => (t === null ? null : encoder.encode(t)));
  const offsets = new Int32Array(texts.length + 1);
  const validity = new Uint8Array(Math.ceil(texts.length / 8));
  let nulls = 0;
  parts.forEach((p, i) => {
    offsets[i + 1] = offsets[i] + (p?.length ?? 0);
    if (p) validity[i >> 3] |= 1 << (i & 7);
    else nulls++;
  });
  const values = new Uint8Array(offsets[texts.length]);
  parts.forEach((p, i) => p && values.set(p, offsets[i]));
  return buildData(type, texts.length, nulls, { offsets, values, validity });
}

function binaryAt(data: arrow.Data, i: number): Uint8Array {
  const offsets = data.valueOffsets as Int32Array;
  return (data.values as Uint8Array).subarray(offsets[i], offsets[i + 1]);
}

/** JSON of one (possibly shredded) row; undefined when neither value nor typed_value is present (a missing field). */
function shreddedToJson(
  dict: VariantMetadata,
  value: arrow.Data | undefined,
  typed: arrow.Data | undefined,
  i: number,
): string | undefined {
  const residual = value && value.getValid(i) ? binaryAt(value, i) : undefined;
  if (!typed || !typed.getValid(i)) return residual ? new VariantValue(dict, residual).toJson() : undefined;
  if (typed.typeId === arrow.Type.Struct) {
    // A shredded object: typed fields, plus the remaining fields encoded in value.
    const entries: [string, string][] = [];
    (typed.type as arrow.Struct).children.forEach((f, k) => {
      const group = typed.children[k];
      const json = groupToJson(dict, group, i);
      if (json !== undefined) entries.push([f.name, json]);
    });
    if (residual) entries.push(...new VariantValue(dict, residual).objectEntries());
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  }
  if (typed.typeId === arrow.Type.List) {
    const offsets = typed.valueOffsets as Int32Array;
    const items: string[] = [];
    for (let j = offsets[i]; j < offsets[i + 1]; j++) items.push(groupToJson(dict, typed.children[0], j) ?? 'null');
    return `[${items.join(',')}]`;
  }
  return typedPrimitiveToJson(typed, i);
}

function groupToJson(dict: VariantMetadata, group: arrow.Data, i: number): string | undefined {
  const fields = (group.type as arrow.Struct).children;
  const at = (name: string): arrow.Data | undefined => {
    const k = fields.findIndex((f) => f.name === name);
    return k < 0 ? undefined : group.children[k];
  };
  if (!group.getValid(i)) return undefined;
  return shreddedToJson(dict, at('value'), at('typed_value'), i);
}

function typedPrimitiveToJson(data: arrow.Data, i: number): string {
  const type = data.type;
  const values = data.values;
  switch (type.typeId) {
    case arrow.Type.Bool:
      return String(arrow.makeVector(data).get(i));
    case arrow.Type.Int:
      return String(values[i]);
    case arrow.Type.Float: {
      const v = Number(values[i]);
      return (type as arrow.Float).precision === arrow.Precision.SINGLE ? floatJson(v, true) : floatJson(v, false);
    }
    case arrow.Type.Decimal:
      return decimalText(decimalAt(values as Uint32Array, i), (type as arrow.Decimal).scale);
    case arrow.Type.Date:
      return JSON.stringify(dateText(Number(values[i])));
    case arrow.Type.Timestamp: {
      const t = type as arrow.Timestamp;
      const digits = t.unit === arrow.TimeUnit.NANOSECOND ? 9 : 6;
      return JSON.stringify(timestampText(BigInt(values[i]), digits, t.timezone != null));
    }
    case arrow.Type.Utf8:
      return JSON.stringify(decoder.decode(binaryAt(data, i)));
    case arrow.Type.Binary:
      return JSON.stringify(Buffer.from(binaryAt(data, i)).toString('base64'));
    case arrow.Type.FixedSizeBinary: {
      const width = (type as arrow.FixedSizeBinary).byteWidth;
      return JSON.stringify(uuidText((values as Uint8Array).subarray(i * width, (i + 1) * width)));
    }
    default:
      throw new Error(`unsupported shredded type ${String(type)}`);
  }
}

/** The key dictionary of a variant. */
export class VariantMetadata {
  private readonly keys: string[];
  constructor(bytes: Uint8Array) {
    const header = bytes[0];
    if ((header & 0x0f) !== 1) throw new Error(`unsupported variant metadata version ${header & 0x0f}`);
    const size = (header >> 6) + 1;
    const count = readUint(bytes, 1, size);
    const base = 1 + size * (count + 2);
    this.keys = new Array<string>(count);
    for (let k = 0; k < count; k++) {
      const start = readUint(bytes, 1 + size * (k + 1), size);
      const end = readUint(bytes, 1 + size * (k + 2), size);
      this.keys[k] = decoder.decode(bytes.subarray(base + start, base + end));
    }
  }
  key(id: number): string {
    const k = this.keys[id];
    if (k === undefined) throw new Error(`field id ${id} is not in the metadata dictionary`);
    return k;
  }
}

/** One encoded variant value. */
export class VariantValue {
  private readonly view: DataView;
  constructor(
    private readonly dict: VariantMetadata,
    private readonly bytes: Uint8Array,
  ) {
    if (bytes.length === 0) throw new Error('empty variant value');
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  toJson(): string {
    const header = this.bytes[0];
    const basic = header & 0x03;
    const info = header >> 2;
    if (basic === 1) return JSON.stringify(decoder.decode(this.bytes.subarray(1, 1 + info)));
    if (basic === 2)
      return `{${this.objectEntries()
        .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
        .join(',')}}`;
    if (basic === 3) {
      const { count, offsetSize, offsetsAt, valuesAt } = this.layout(info & 0x03, 0, (info >> 2) & 1);
      const items: string[] = [];
      for (let j = 0; j < count; j++) items.push(this.child(valuesAt, offsetsAt, offsetSize, j).toJson());
      return `[${items.join(',')}]`;
    }
    return this.primitiveJson(info);
  }

  /** An object's fields as [key, JSON] pairs. */
  objectEntries(): [string, string][] {
    const header = this.bytes[0];
    if ((header & 0x03) !== 2) throw new Error('a shredded object has a residual value that is not an object');
    const info = header >> 2;
    const idSize = ((info >> 2) & 0x03) + 1;
    const { count, offsetSize, offsetsAt, valuesAt } = this.layout(info & 0x03, idSize, (info >> 4) & 1);
    const entries: [string, string][] = [];
    for (let j = 0; j < count; j++) {
      const key = this.dict.key(readUint(this.bytes, offsetsAt - idSize * (count - j), idSize));
      entries.push([key, this.child(valuesAt, offsetsAt, offsetSize, j).toJson()]);
    }
    return entries;
  }

  /** Where the element offsets and values of an object (idSize > 0) or array start. */
  private layout(offsetSizeMinusOne: number, idSize: number, large: number) {
    const countSize = large ? 4 : 1;
    const count = readUint(this.bytes, 1, countSize);
    const offsetSize = offsetSizeMinusOne + 1;
    const offsetsAt = 1 + countSize + idSize * count;
    const valuesAt = offsetsAt + offsetSize * (count + 1);
    return { count, offsetSize, offsetsAt, valuesAt };
  }

  private child(valuesAt: number, offsetsAt: number, offsetSize: number, j: number): VariantValue {
    const start = valuesAt + readUint(this.bytes, offsetsAt + offsetSize * j, offsetSize);
    if (start >= this.bytes.length) throw new Error('element offset out of bounds');
    return new VariantValue(this.dict, this.bytes.subarray(start));
  }

  private primitiveJson(typeId: number): string {
    const v = this.view;
    switch (typeId) {
      case 0:
        return 'null';
      case 1:
        return 'true';
      case 2:
        return 'false';
      case 3:
        return String(v.getInt8(1));
      case 4:
        return String(v.getInt16(1, true));
      case 5:
        return String(v.getInt32(1, true));
      case 6:
        return String(v.getBigInt64(1, true));
      case 7:
        return floatJson(v.getFloat64(1, true), false);
      case 8:
        return decimalText(BigInt(v.getInt32(2, true)), v.getUint8(1));
      case 9:
        return decimalText(v.getBigInt64(2, true), v.getUint8(1));
      case 10: {
        const low = v.getBigUint64(2, true);
        const high = v.getBigInt64(10, true);
        return decimalText((high << 64n) | low, v.getUint8(1));
      }
      case 11:
        return JSON.stringify(dateText(v.getInt32(1, true)));
      case 12:
        return JSON.stringify(timestampText(v.getBigInt64(1, true), 6, true));
      case 13:
        return JSON.stringify(timestampText(v.getBigInt64(1, true), 6, false));
      case 14:
        return floatJson(v.getFloat32(1, true), true);
      case 15:
        return JSON.stringify(Buffer.from(this.bytes.subarray(5, 5 + v.getUint32(1, true))).toString('base64'));
      case 16:
        return JSON.stringify(decoder.decode(this.bytes.subarray(5, 5 + v.getUint32(1, true))));
      case 17:
        return JSON.stringify(timestampText(v.getBigInt64(1, true), 6, false).slice(11));
      case 18:
        return JSON.stringify(timestampText(v.getBigInt64(1, true), 9, true));
      case 19:
        return JSON.stringify(timestampText(v.getBigInt64(1, true), 9, false));
      case 20:
        return JSON.stringify(uuidText(this.bytes.subarray(1, 17)));
      default:
        throw new Error(`unknown variant primitive type ${typeId}`);
    }
  }
}

function readUint(bytes: Uint8Array, at: number, size: number): number {
  if (at + size > bytes.length) throw new Error('truncated variant data');
  let v = 0;
  for (let k = size - 1; k >= 0; k--) v = v * 256 + bytes[at + k];
  return v;
}

/** JSON has no NaN or infinities; they become strings, as Spark's to_json writes them. */
function floatJson(v: number, single: boolean): string {
  if (!Number.isFinite(v)) return JSON.stringify(String(v));
  if (!single) return String(v);
  // The shortest decimal that reads back as the same 32-bit float.
  for (let p = 1; p < 9; p++) {
    const text = v.toPrecision(p);
    if (Math.fround(Number(text)) === v) return String(Number(text));
  }
  return String(v);
}

export function decimalText(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${text}` : text;
}

function dateText(days: number): string {
  return new Date(days * 86400000).toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD HH:MM:SS.ffffff' from epoch units of 10^-digits s, with '+00:00' for UTC-adjusted values. */
function timestampText(units: bigint, digits: number, utc: boolean): string {
  const perSecond = 10n ** BigInt(digits);
  let seconds = units / perSecond;
  let fraction = units % perSecond;
  if (fraction < 0n) {
    fraction += perSecond;
    seconds -= 1n;
  }
  const iso = new Date(Number(seconds) * 1000).toISOString();
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${fraction.toString().padStart(digits, '0')}`;
  return utc ? `${text}+00:00` : text;
}

function uuidText(b: Uint8Array): string {
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
