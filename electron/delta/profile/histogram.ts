// Equal-width bins between a column's exact min and max, for numbers, dates and timestamps. The bounds come from the
// exact scan's first pass and the counting from a second pass over only these columns (two passes, because the
// bins' edges depend on the exact min and max, which only a whole first pass knows); memory is one counter per bin.
import type { DeltaType } from '../../../shared/delta-schema.js';
import type { DeltaValue } from '../../../shared/delta-values.js';
import { familyOf } from '../../../shared/expression/compare.js';
import type { Histogram } from '../../../shared/table-info.js';

/** Ten bins: enough to show a distribution's shape (skew, gaps, a second peak), few enough that every bar of the
 * chart in a profile row stays wide enough to point at and every label and count can be read. */
export const HISTOGRAM_BINS = 10;

/** Types whose values arrive as JS numbers and are whole: their bin arithmetic stays exact in doubles (|v| < 2^33). */
const NUMBER_INTEGERS = new Set<DeltaType>(['byte', 'short', 'integer', 'date']);

/** Bins of one column: which bin a non-null value falls in, and each bin's bounds in the column's own values. */
export interface Binning {
  kind: Histogram['kind'];
  count: number;
  bin(value: DeltaValue): number;
  bounds(bin: number): [DeltaValue, DeltaValue];
}

/** The bins for values from min to max; null for types without a histogram, a column with no value, and float or
 * double bounds that are not finite (an infinity or NaN leaves no finite width to divide). */
export function binning(type: DeltaType, min: DeltaValue, max: DeltaValue): Binning | null {
  if (min === null || max === null) return null;
  const family = familyOf(type);
  if (family !== 'numeric' && family !== 'temporal') return null;
  if (type === 'float' || type === 'double') return floatBinning(min as number, max as number);
  return wholeBinning(BigInt(min as number | bigint), BigInt(max as number | bigint), NUMBER_INTEGERS.has(type));
}

/** HISTOGRAM_BINS bins of width (max - min) / HISTOGRAM_BINS; the last bin also holds max; one bin when min = max. */
function floatBinning(lo: number, hi: number): Binning | null {
  if (!Number.isFinite(hi - lo)) return null;
  const count = lo === hi ? 1 : HISTOGRAM_BINS;
  const width = (hi - lo) / count;
  return {
    kind: 'range',
    count,
    bin: (v) => (width === 0 ? 0 : Math.min(count - 1, Math.floor(((v as number) - lo) / width))),
    bounds: (k) => [lo + k * width, k === count - 1 ? hi : lo + (k + 1) * width],
  };
}

/** Whole types (integers, unscaled decimals, days, microseconds): bins of a whole number of steps, ceil(values / 10),
 * so a range of up to ten values gets one bin per value and a wider one at most ten bins, the last maybe narrower. */
function wholeBinning(lo: bigint, hi: bigint, asNumber: boolean): Binning {
  const values = hi - lo + 1n;
  const width = (values + BigInt(HISTOGRAM_BINS) - 1n) / BigInt(HISTOGRAM_BINS);
  const count = Number((values + width - 1n) / width);
  const [low, step] = [Number(lo), Number(width)];
  const value = (n: bigint): DeltaValue => (asNumber ? Number(n) : n);
  return {
    kind: 'values',
    count,
    // Values are at least min, so truncating division is the floor.
    bin: asNumber ? (v) => Math.floor(((v as number) - low) / step) : (v) => Number((BigInt(v as bigint) - lo) / width),
    bounds: (k) => {
      const from = lo + BigInt(k) * width;
      const to = from + width - 1n;
      return [value(from), value(to < hi ? to : hi)];
    },
  };
}
