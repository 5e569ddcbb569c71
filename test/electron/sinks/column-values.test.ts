// The SQLite values of a column must be the texts and numbers the formatters define, whatever slice of a column a
// batch is and wherever its nulls are.
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StructField } from '../../../shared/delta-schema.js';
import { isNullAt } from '../../../electron/delta/engine/arrow-buffers.js';
import { sqliteReader } from '../../../electron/sinks/column-values.js';
import { timestampFormatter } from '../../../electron/values/time-text.js';

const field = (name: string, type: string): StructField => ({ name, type, nullable: true, metadata: {} }) as StructField;

/** A timestamp column from raw 64-bit ticks, every third row null. */
function timestamps(unit: arrow.TimeUnit, values: bigint[]): arrow.Data {
  const validity = new Uint8Array((values.length + 7) >> 3);
  values.forEach((_, i) => {
    if (i % 3 !== 1) validity[i >> 3] |= 1 << (i & 7);
  });
  const nullCount = values.filter((_, i) => i % 3 === 1).length;
  return arrow.makeData({
    type: new arrow.Timestamp(unit, 'UTC'),
    length: values.length,
    nullCount,
    nullBitmap: validity,
    data: BigInt64Array.from(values),
  });
}

function fill(data: arrow.Data, f: StructField): unknown[] {
  const read = sqliteReader(data, f);
  const isNull = isNullAt(data);
  return Array.from({ length: data.length }, (_, i) => (isNull(i) ? null : read(i)));
}

describe('sqliteReader', () => {
  it('spells timestamps of every unit as the timestamp formatter does, extremes and slices included', () => {
    const units = [arrow.TimeUnit.SECOND, arrow.TimeUnit.MILLISECOND, arrow.TimeUnit.MICROSECOND, arrow.TimeUnit.NANOSECOND];
    let seed = 11;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const extremes = [0n, -1n, 1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n, -(2n ** 53n) - 1n];
    for (const unit of units) {
      const random = Array.from({ length: 300 }, () =>
        BigInt.asIntN(64, BigInt(next() - 2 ** 30) * BigInt(next()) * 1000n ** BigInt(unit)),
      );
      const values = [...extremes, ...random];
      const data = timestamps(unit, values);
      const format = timestampFormatter(unit, true);
      const expected = values.map((t, i) => (i % 3 === 1 ? null : format(t)));
      expect(fill(data, field('at', 'timestamp'))).toEqual(expected);
      expect(fill(data.slice(5, 100), field('at', 'timestamp'))).toEqual(expected.slice(5, 105));
      const local = timestampFormatter(unit, false);
      expect(fill(data, field('at', 'timestamp_ntz'))).toEqual(values.map((t, i) => (i % 3 === 1 ? null : local(t))));
    }
  });
});
