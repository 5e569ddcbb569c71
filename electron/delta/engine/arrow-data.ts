// Building apache-arrow Data column by column (never row objects): all-null columns for columns a file lacks, and
// constant columns for partition values.
import * as arrow from 'apache-arrow';

export interface Buffers {
  values?: arrow.Data['values'];
  offsets?: Int32Array;
  validity?: Uint8Array | null;
}

export function buildData<T extends arrow.DataType>(
  type: T,
  length: number,
  nullCount: number,
  buffers: Buffers,
  children: arrow.Data[] = [],
): arrow.Data<T> {
  const parts: ConstructorParameters<typeof arrow.Data<T>>[4] = {
    [arrow.BufferType.OFFSET]: buffers.offsets,
    [arrow.BufferType.DATA]: buffers.values,
    [arrow.BufferType.VALIDITY]: nullCount > 0 ? (buffers.validity ?? undefined) : undefined,
  };
  return new arrow.Data(type, 0, length, nullCount, parts, children);
}

/** Elements of the DATA buffer per row for fixed-width types. */
function stride(type: arrow.DataType): number {
  if (arrow.DataType.isDecimal(type)) return type.bitWidth / 32;
  if (arrow.DataType.isFixedSizeBinary(type)) return type.byteWidth;
  return 1;
}

export function nullData<T extends arrow.DataType>(type: T, length: number): arrow.Data<T> {
  const validity = new Uint8Array(Math.ceil(length / 8));
  if (arrow.DataType.isNull(type)) return new arrow.Data(type, 0, length, length);
  if (arrow.DataType.isStruct(type)) {
    return buildData(
      type,
      length,
      length,
      { validity },
      type.children.map((c) => nullData(c.type, length)),
    );
  }
  if (arrow.DataType.isList(type) || arrow.DataType.isMap(type)) {
    const child = (type.children as arrow.Field[])[0];
    return buildData(type, length, length, { validity, offsets: new Int32Array(length + 1) }, [nullData(child.type, 0)]);
  }
  if (arrow.DataType.isUtf8(type) || arrow.DataType.isBinary(type)) {
    return buildData(type, length, length, { validity, offsets: new Int32Array(length + 1), values: new Uint8Array(0) });
  }
  if (arrow.DataType.isBool(type)) return buildData(type, length, length, { validity, values: new Uint8Array(validity.length) });
  const ArrayType = type.ArrayType as new (n: number) => arrow.Data['values'];
  return buildData(type, length, length, { validity, values: new ArrayType(length * stride(type)) });
}

export type Scalar = null | boolean | number | bigint | string | Uint8Array;

/** A column repeating one value (a partition value) length times. Numbers: the type's own unit (days, micros,
 * unscaled decimal as bigint). */
export function constantData<T extends arrow.DataType>(type: T, value: Scalar, length: number): arrow.Data<T> {
  if (value === null) return nullData(type, length);
  if (typeof value === 'string' || value instanceof Uint8Array) {
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    const values = new Uint8Array(bytes.length * length);
    const offsets = new Int32Array(length + 1);
    for (let i = 0; i < length; i++) {
      values.set(bytes, i * bytes.length);
      offsets[i + 1] = (i + 1) * bytes.length;
    }
    return buildData(type, length, 0, { offsets, values });
  }
  if (typeof value === 'boolean') {
    const values = new Uint8Array(Math.ceil(length / 8)).fill(value ? 0xff : 0);
    return buildData(type, length, 0, { values });
  }
  if (arrow.DataType.isDecimal(type)) {
    const words = decimalWords(value as bigint);
    const values = new Uint32Array(4 * length);
    for (let i = 0; i < length; i++) values.set(words, 4 * i);
    return buildData(type, length, 0, { values });
  }
  const ArrayType = type.ArrayType as new (n: number) => { fill(v: number | bigint): arrow.Data['values'] };
  return buildData(type, length, 0, { values: new ArrayType(length).fill(value) });
}

/** The four little-endian 32-bit words of a 128-bit two's complement integer. */
export function decimalWords(value: bigint): Uint32Array {
  const words = new Uint32Array(4);
  let v = BigInt.asUintN(128, value);
  for (let i = 0; i < 4; i++) {
    words[i] = Number(v & 0xffffffffn);
    v >>= 32n;
  }
  return words;
}

/** The 128-bit two's complement integer at row i of a Decimal128 buffer. */
export function decimalAt(words: Uint32Array, i: number): bigint {
  const at = 4 * i;
  const u = BigInt(words[at]) | (BigInt(words[at + 1]) << 32n) | (BigInt(words[at + 2]) << 64n) | (BigInt(words[at + 3]) << 96n);
  return BigInt.asIntN(128, u);
}
