// 64-bit integers from Arrow buffers without a BigInt per value: the two 32-bit halves give an exact number
// whenever the value fits in 2^53, which is nearly always; only the rest go through BigInt.
// (Arrow buffers are little-endian, as is every platform Node runs on.)

const TWO_32 = 4_294_967_296;
const SAFE_HIGH = 0x200000; // |high word| below 2^21 keeps high * 2^32 + low within 2^53

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Reads value i of a 64-bit column as a number when it is a safe integer, else as a bigint. */
export type Int64Reader = (i: number) => number | bigint;

export function int64Reader(values: BigInt64Array | BigUint64Array): Int64Reader {
  const low = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  if (values instanceof BigUint64Array) {
    return (i) => {
      const high = low[2 * i + 1];
      return high < SAFE_HIGH ? high * TWO_32 + low[2 * i] : exact(values[i]);
    };
  }
  const high = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
  return (i) => {
    const h = high[2 * i + 1];
    return h < SAFE_HIGH && h > -SAFE_HIGH ? h * TWO_32 + low[2 * i] : exact(values[i]);
  };
}

// Near ±2^53 the fast test is conservative; decide those exactly.
function exact(v: bigint): number | bigint {
  return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : v;
}
