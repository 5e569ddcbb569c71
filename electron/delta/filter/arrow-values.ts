// Values of an Arrow column in the units filters compare (shared/delta-values.ts): numbers for small integers and
// floats, bigint for longs, unscaled bigint for decimals, days for dates, microseconds for timestamps. Read straight
// from the buffers (Vector.get() would give timestamps as float milliseconds). A sliced Data's value buffers start at
// its first row, except booleans', whose bits start at the Data's offset (engine/arrow-buffers.ts minds that).
import { makeVector, Type, type Data, type Timestamp } from 'apache-arrow';
import type { DeltaValue } from '../../../shared/delta-values.js';
import { booleanReader, utf8Reader, validity } from '../engine/arrow-buffers.js';

export type ValueReader = (row: number) => DeltaValue;

/** Microseconds per tick of each Arrow TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND). */
const MICROS_PER_TICK = [1_000_000n, 1000n, 1n];

export function valueReader(data: Data): ValueReader {
  const valid = validity(data);
  const withNulls =
    (read: (at: number) => DeltaValue): ValueReader =>
    (row) =>
      valid(row) ? read(row) : null;
  switch (data.type.typeId) {
    case Type.Null:
      return () => null;
    case Type.Int:
    case Type.Float:
    case Type.Date: {
      const values = data.values as ArrayLike<number | bigint>;
      return withNulls((at) => values[at]);
    }
    case Type.Timestamp: {
      const values = data.values as BigInt64Array;
      const unit = (data.type as Timestamp).unit as number;
      if (unit === 3) return withNulls((at) => values[at] / 1000n - (values[at] % 1000n < 0n ? 1n : 0n));
      const factor = MICROS_PER_TICK[unit];
      return withNulls((at) => values[at] * factor);
    }
    case Type.Decimal: {
      const words = data.values as Uint32Array;
      return withNulls((at) => {
        const w = at * 4;
        const unsigned = (BigInt(words[w + 3]) << 96n) | (BigInt(words[w + 2]) << 64n) | (BigInt(words[w + 1]) << 32n) | BigInt(words[w]);
        return BigInt.asIntN(128, unsigned);
      });
    }
    case Type.Bool:
      return withNulls(booleanReader(data));
    case Type.Utf8:
      return withNulls(utf8Reader(data));
    case Type.Binary: {
      const vector = makeVector(data);
      return (row) => (valid(row) ? (vector.get(row) as string | Uint8Array) : null);
    }
    default:
      // Nested values (structs, lists, maps) are only ever tested for null.
      return (row) => (valid(row) ? true : null);
  }
}
