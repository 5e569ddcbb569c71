// Decimals as exact text. Arrow stores them as little-endian two's-complement integers of 32-bit words; values
// within 2^53 are assembled as numbers, the rest through BigInt, never through a floating-point division.

const TWO_32 = 4_294_967_296;
const SAFE_HIGH = 0x200000;

/** Reads value i of a decimal column (words per value = bitWidth / 32) as its exact text with `scale` digits. */
export function decimalReader(words: Uint32Array, bitWidth: number, scale: number): (i: number) => string {
  const stride = bitWidth / 32;
  return (i) => {
    const at = i * stride;
    return withScale(unscaled(words, at, stride), scale);
  };
}

/** The unscaled integer of the decimal at word `at` (`stride` words per value): a number when it is safe, else a bigint. */
export function unscaled(words: Uint32Array, at: number, stride: number): number | bigint {
  const top = words[at + stride - 1];
  const fill = top >= 0x80000000 ? 0xffffffff : 0;
  let upperAreFill = true;
  for (let w = 2; w < stride; w++) if (words[at + w] !== fill) upperAreFill = false;
  if (stride === 1) return words[at] | 0;
  const high = words[at + 1];
  if (upperAreFill) {
    if (fill === 0 && high < SAFE_HIGH) return high * TWO_32 + words[at];
    if (fill !== 0 && high >= TWO_32 - SAFE_HIGH) return (high - TWO_32) * TWO_32 + words[at];
  }
  let big = 0n;
  for (let w = stride - 1; w >= 0; w--) big = (big << 32n) | BigInt(words[at + w]);
  return BigInt.asIntN(stride * 32, big);
}

/** The text of unscaled × 10^-scale. */
export function withScale(unscaledValue: number | bigint, scale: number): string {
  const negative = unscaledValue < 0;
  let digits = (negative ? -unscaledValue : unscaledValue).toString();
  if (scale <= 0) return (negative ? '-' : '') + digits + (digits === '0' ? '' : '0'.repeat(-scale));
  if (digits.length <= scale) digits = digits.padStart(scale + 1, '0');
  const point = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`;
}
