// COPY text written byte by byte must spell every value exactly as PostgreSQL's text input form does.
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StructField } from '../../../shared/delta-schema.js';
import { CopyOutput } from '../../../electron/sinks/copy-output.js';
import { textCopyRows } from '../../../electron/sinks/copy-text.js';
import { timestampFormatter } from '../../../electron/values/time-text.js';

/** The whole COPY text of the batches, in the chunks the writer hands out (the last one what stays in its output). */
function copyTextChunks(batches: arrow.RecordBatch[], fields: StructField[]): Buffer[] {
  const out = new CopyOutput();
  return [...textCopyRows(batches, fields, out), out.take()].filter((chunk) => chunk.length > 0);
}

function copyText(columns: Record<string, arrow.Vector>, fields: StructField[]): string[] {
  const batch = new arrow.Table(columns).batches[0];
  return Buffer.concat([...copyTextChunks([batch.slice(1)], fields)])
    .toString('utf8')
    .split('\n')
    .slice(0, -1);
}

/** A timestamp column from its raw 64-bit ticks (apache-arrow's builders take milliseconds as numbers). */
function ticks(type: arrow.Timestamp, values: bigint[]): arrow.Vector {
  return arrow.makeVector(arrow.makeData({ type, length: values.length, nullCount: 0, data: BigInt64Array.from(values) }));
}

const field = (name: string, type: string): StructField => ({ name, type, nullable: true, metadata: {} }) as StructField;

describe('textCopyRows', () => {
  it('writes timestamps (UTC and local) and booleans as PostgreSQL reads them', () => {
    const micros = [0n, 1_700_000_000_123_456n, -1n, -62_135_596_800_000_000n, 253_402_300_799_999_999n, 86_399_000_001n];
    const lines = copyText(
      {
        at: ticks(new arrow.TimestampMicrosecond('UTC'), [0n, ...micros]),
        local: ticks(new arrow.TimestampMicrosecond(), [0n, ...micros]),
        flag: arrow.vectorFromArray([true, true, false, null, true, false, true], new arrow.Bool()),
      },
      [field('at', 'timestamp'), field('local', 'timestamp_ntz'), field('flag', 'boolean')],
    );
    expect(lines).toEqual([
      '1970-01-01T00:00:00.000000Z\t1970-01-01T00:00:00.000000\tt',
      '2023-11-14T22:13:20.123456Z\t2023-11-14T22:13:20.123456\tf',
      '1969-12-31T23:59:59.999999Z\t1969-12-31T23:59:59.999999\t\\N',
      '0001-01-01T00:00:00.000000Z\t0001-01-01T00:00:00.000000\tt',
      '9999-12-31T23:59:59.999999Z\t9999-12-31T23:59:59.999999\tf',
      '1970-01-01T23:59:59.000001Z\t1970-01-01T23:59:59.000001\tt',
    ]);
  });

  it('spells random instants of every unit as the timestamp formatter does', () => {
    const units = [arrow.TimeUnit.SECOND, arrow.TimeUnit.MILLISECOND, arrow.TimeUnit.MICROSECOND, arrow.TimeUnit.NANOSECOND];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (const unit of units) {
      const values = Array.from({ length: 200 }, () =>
        BigInt.asIntN(64, BigInt(next() - 2 ** 30) * BigInt(next()) * 1000n ** BigInt(unit)),
      );
      const lines = copyText({ at: ticks(new arrow.Timestamp(unit, 'UTC'), [0n, ...values]) }, [field('at', 'timestamp')]);
      const format = timestampFormatter(unit, true);
      expect(lines).toEqual(values.map((t) => format(t)));
    }
  });

  it('writes doubles as text that reads back to the same value', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const values = [
      0,
      -0,
      1,
      -1,
      0.1,
      0.30000000000000004,
      12.3,
      1e21,
      2 ** 53,
      2 ** 53 + 2,
      1e-7,
      5e-324,
      Number.MAX_VALUE,
      Number.NaN,
      Infinity,
      -Infinity,
    ];
    for (let k = 0; k < 3000; k++) {
      const decimals = k % 12;
      values.push(
        Math.round((next() - 0.5) * 10 ** (1 + (k % 9)) * 10 ** decimals) / 10 ** decimals,
        (next() - 0.5) * 10 ** ((k % 40) - 20),
      );
    }
    const lines = copyText({ x: arrow.makeVector(Float64Array.from([0, ...values])) }, [field('x', 'double')]);
    expect(lines).toHaveLength(values.length);
    lines.forEach((line, k) => expect(Number(line)).toBe(Object.is(values[k], -0) ? 0 : values[k]));
    const typical = [12.3, 0.05, -1234.56, 100, 0.1, 999999.99, 1e-7];
    expect(copyText({ x: arrow.makeVector(Float64Array.from([0, ...typical])) }, [field('x', 'double')])).toEqual(typical.map(String));
  });

  it('hands out chunks of at least 64 KiB but the last, whatever the batches', () => {
    const labels = Array.from({ length: 20_000 }, (_, i) => `label ${i} `.repeat(1 + (i % 7)));
    const batch = new arrow.Table({ s: arrow.vectorFromArray(labels, new arrow.Utf8()) }).batches[0];
    const batches = Array.from({ length: 40 }, (_, k) => batch.slice(k * 500, (k + 1) * 500));
    const chunks = [...copyTextChunks(batches, [field('s', 'string')])];
    expect(Buffer.concat(chunks).toString('utf8')).toBe(labels.map((l) => `${l}\n`).join(''));
    expect(chunks.slice(0, -1).every((c) => c.length >= 1 << 16)).toBe(true);
  });
});
