// One data file's decoded Arrow columns -> the canonical output columns of arrow-types.ts. Files differ in how they
// store the same logical column (millis/nanos timestamps; INT96 arrives as exact microseconds from parquet-file.ts;
// int-backed decimals, dictionary or large strings, older narrower types under type widening, missing columns,
// physical names); the output never does.
import * as arrow from 'apache-arrow';
import { isArray, isMap, isStruct, type DeltaType, type StructField } from '../../../shared/delta-schema.js';
import { DeltaportError } from '../../../shared/errors.js';
import { buildData, decimalAt, decimalWords, nullData } from '../engine/arrow-data.js';
import { toArrowType } from './arrow-types.js';
import { findFileField, type ColumnMappingMode } from '../column-mapping.js';
import { variantToJson } from './variant.js';

const T = arrow.Type;

export interface NormalizeContext {
  mode: ColumnMappingMode;
  /** Logical path of the column, for error messages. */
  column: string;
}

/** Converts a decoded column (absent when the file predates it) to the canonical type of a Delta type. */
export function normalizeColumn(source: arrow.Data | undefined, type: DeltaType, length: number, ctx: NormalizeContext): arrow.Data {
  const target = toArrowType(type);
  if (!source || target.typeId === T.Null) return nullData(target, length);
  if (source.offset !== 0) throw new Error('normalizeColumn expects freshly decoded data (offset 0)');
  const data = source.typeId === T.Dictionary ? undictionary(source) : source;
  if (type === 'variant') return variantToJson(data, target as arrow.Utf8, ctx.column);
  if (isStruct(type)) return normalizeStruct(data, type.fields, target as arrow.Struct, ctx);
  if (isArray(type)) {
    expectKind(data, [T.List, T.LargeList], type, ctx);
    const child = normalizeColumn(data.children[0], type.elementType, childLength(data), { ...ctx, column: `${ctx.column}[]` });
    return buildData(target, data.length, data.nullCount, { validity: data.nullBitmap, offsets: int32Offsets(data) }, [child]);
  }
  if (isMap(type)) {
    expectKind(data, [T.Map], type, ctx);
    const entries = data.children[0];
    const n = entries.length;
    // Key and value are matched by position: writers name them key/value, keys/values or map_key/map_value.
    const key = normalizeColumn(entries.children[0], type.keyType, n, { ...ctx, column: `${ctx.column}.key` });
    const value = normalizeColumn(entries.children[1], type.valueType, n, { ...ctx, column: `${ctx.column}.value` });
    const entriesType = (target as arrow.Map_).children[0].type;
    const entriesData = buildData(entriesType, n, 0, {}, [key, value]);
    return buildData(target, data.length, data.nullCount, { validity: data.nullBitmap, offsets: data.valueOffsets as Int32Array }, [
      entriesData,
    ]);
  }
  return normalizePrimitive(data, type, target, ctx);
}

function normalizeStruct(data: arrow.Data, fields: StructField[], target: arrow.Struct, ctx: NormalizeContext): arrow.Data {
  expectKind(data, [T.Struct], 'struct', ctx);
  const sourceFields = (data.type as arrow.Struct).children;
  const children = fields.map((f) => {
    const found = findFileField(sourceFields, f, ctx.mode);
    const child = found ? data.children[sourceFields.indexOf(found)] : undefined;
    return normalizeColumn(child, f.type, data.length, { ...ctx, column: `${ctx.column}.${f.name}` });
  });
  return buildData(target, data.length, data.nullCount, { validity: data.nullBitmap }, children);
}

function normalizePrimitive(data: arrow.Data, type: DeltaType, target: arrow.DataType, ctx: NormalizeContext): arrow.Data {
  const src = data.type;
  const same = (values: arrow.Data['values'] = data.values): arrow.Data =>
    buildData(target, data.length, data.nullCount, { validity: data.nullBitmap, values, offsets: data.valueOffsets as Int32Array });
  const n = data.length;
  switch (target.typeId) {
    case T.Int:
    case T.Float: {
      if (!arrow.DataType.isInt(src) && !arrow.DataType.isFloat(src)) break;
      if (src.ArrayType === target.ArrayType) return same();
      const Out = target.ArrayType as new (n: number) => arrow.Data['values'];
      const out = new Out(n);
      const values = data.values as ArrayLike<number | bigint>;
      if (out instanceof BigInt64Array) for (let i = 0; i < n; i++) out[i] = BigInt(values[i]);
      else for (let i = 0; i < n; i++) (out as Float64Array)[i] = Number(values[i]);
      return same(out);
    }
    case T.Bool:
      if (src.typeId === T.Bool) return same();
      break;
    case T.Utf8:
    case T.Binary:
      if (src.typeId === target.typeId || (src.typeId === T.Binary && target.typeId === T.Utf8)) return same();
      if (src.typeId === T.LargeUtf8 || src.typeId === T.LargeBinary) {
        return buildData(target, n, data.nullCount, { validity: data.nullBitmap, values: data.values, offsets: int32Offsets(data) });
      }
      if (src.typeId === T.FixedSizeBinary && target.typeId === T.Binary) {
        const width = (src as arrow.FixedSizeBinary).byteWidth;
        const offsets = Int32Array.from({ length: n + 1 }, (_, i) => i * width);
        return buildData(target, n, data.nullCount, { validity: data.nullBitmap, values: data.values, offsets });
      }
      break;
    case T.Date:
      if (src.typeId === T.Date && (src as arrow.Date_).unit === arrow.DateUnit.DAY) return same();
      if (src.typeId === T.Date) {
        const ms = (data.values as BigInt64Array).subarray(0, n);
        return same(Int32Array.from(ms, (v) => Number(v / 86400000n)));
      }
      break;
    case T.Timestamp:
      if (src.typeId === T.Timestamp) {
        const unit = (src as arrow.Timestamp).unit;
        const values = (data.values as BigInt64Array).subarray(0, n);
        return same(toMicros(values, unit));
      }
      if (src.typeId === T.Date && (src as arrow.Date_).unit === arrow.DateUnit.DAY) {
        return same(BigInt64Array.from((data.values as Int32Array).subarray(0, n), (d) => BigInt(d) * 86400000000n));
      }
      break;
    case T.Decimal: {
      const to = target as arrow.Decimal;
      if (src.typeId === T.Decimal) {
        const from = src as arrow.Decimal;
        if (from.bitWidth === 128 && from.scale === to.scale) return same();
        return same(rescaleDecimals(data, from.bitWidth, from.scale, to.scale));
      }
      if (arrow.DataType.isInt(src)) {
        const values = data.values as ArrayLike<number | bigint>;
        const factor = 10n ** BigInt(to.scale);
        const out = new Uint32Array(4 * n);
        for (let i = 0; i < n; i++) out.set(decimalWords(BigInt(values[i]) * factor), 4 * i);
        return same(out);
      }
      break;
    }
  }
  throw new DeltaportError(
    'CORRUPT_DATA',
    `column '${ctx.column}' holds ${String(src)} in a data file, which cannot be read as ${String(type)}`,
  );
}

/** Widens a decimal's scale (type widening), also from narrower decimal buffers. */
function rescaleDecimals(data: arrow.Data, bitWidth: number, fromScale: number, toScale: number): Uint32Array {
  const factor = 10n ** BigInt(toScale - fromScale);
  const words = data.values as Uint32Array;
  const perRow = bitWidth / 32;
  const out = new Uint32Array(4 * data.length);
  for (let i = 0; i < data.length; i++) {
    let v: bigint;
    if (perRow === 4) v = decimalAt(words, i);
    else if (perRow === 2) v = BigInt.asIntN(64, BigInt(words[2 * i]) | (BigInt(words[2 * i + 1]) << 32n));
    else v = BigInt((words as unknown as Int32Array)[i] | 0);
    out.set(decimalWords(v * factor), 4 * i);
  }
  return out;
}

const TO_MICROS: Record<arrow.TimeUnit, [bigint, bigint]> = {
  [arrow.TimeUnit.SECOND]: [1000000n, 1n],
  [arrow.TimeUnit.MILLISECOND]: [1000n, 1n],
  [arrow.TimeUnit.MICROSECOND]: [1n, 1n],
  [arrow.TimeUnit.NANOSECOND]: [1n, 1000n],
};

function floorDiv(v: bigint, d: bigint): bigint {
  const q = v / d;
  return v % d < 0n ? q - 1n : q;
}

function toMicros(values: BigInt64Array, unit: arrow.TimeUnit): BigInt64Array {
  const [mul, div] = TO_MICROS[unit];
  if (mul === 1n && div === 1n) return values;
  const out = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    // Floor division, so instants before 1970 keep their whole microsecond.
    out[i] = floorDiv(values[i] * mul, div);
  }
  return out;
}

function int32Offsets(data: arrow.Data): Int32Array {
  const offsets = data.valueOffsets as Int32Array | BigInt64Array;
  return offsets instanceof BigInt64Array ? Int32Array.from(offsets, Number) : offsets;
}

function childLength(data: arrow.Data): number {
  const offsets = data.valueOffsets as Int32Array | BigInt64Array;
  return Number(offsets[data.length]);
}

/** Dictionary-encoded columns become plain ones (sinks and consumers expect one layout per type). */
function undictionary(data: arrow.Data): arrow.Data {
  const dict = data.dictionary!;
  const valueType = (data.type as arrow.Dictionary).dictionary;
  const indices = data.values as ArrayLike<number | bigint>;
  if (arrow.DataType.isUtf8(valueType) || arrow.DataType.isBinary(valueType)) {
    const dictData = dict.data[0];
    const offsets = dictData.valueOffsets as Int32Array;
    const bytes = dictData.values as Uint8Array;
    const outOffsets = new Int32Array(data.length + 1);
    for (let i = 0; i < data.length; i++) {
      const k = Number(indices[i]);
      outOffsets[i + 1] = outOffsets[i] + (data.getValid(i) ? offsets[k + 1] - offsets[k] : 0);
    }
    const out = new Uint8Array(outOffsets[data.length]);
    for (let i = 0; i < data.length; i++) {
      if (!data.getValid(i)) continue;
      const k = Number(indices[i]);
      out.set(bytes.subarray(offsets[k], offsets[k + 1]), outOffsets[i]);
    }
    return buildData(valueType, data.length, data.nullCount, { validity: data.nullBitmap, offsets: outOffsets, values: out });
  }
  const values = Array.from({ length: data.length }, (_, i) => (data.getValid(i) ? dict.get(Number(indices[i])) : null));
  return arrow.vectorFromArray(values, valueType).data[0];
}

function expectKind(data: arrow.Data, kinds: arrow.Type[], type: DeltaType | string, ctx: NormalizeContext): void {
  if (!kinds.includes(data.typeId)) {
    const label = typeof type === 'string' ? type : type.type;
    throw new DeltaportError('CORRUPT_DATA', `column '${ctx.column}' holds ${String(data.type)} in a data file, not a ${label}`);
  }
}
