import { describe, expect, it } from 'vitest';
import { parseRoaringBitmapArray, serializeRoaringBitmapArray } from '../../../../electron/delta/scan/roaring.js';

/** Little-endian byte writer for hand-built bitmaps, independent of the serializer under test. */
function bytes(...parts: [number, 8 | 16 | 32 | 64][]): Uint8Array {
  const out: number[] = [];
  for (const [v, bits] of parts) {
    let x = BigInt(v);
    for (let i = 0; i < bits / 8; i++) {
      out.push(Number(x & 0xffn));
      x >>= 8n;
    }
  }
  return Uint8Array.from(out);
}
const MAGIC: [number, 32] = [1681511377, 32];

describe('RoaringBitmapArray', () => {
  it('parses the bitmap of table-with-dv-small (array container, rows 0 and 9)', () => {
    // the bytes stored in the table's deletion vector file (from offset 5), split by hand
    const fromFile = bytes(MAGIC, [1, 64], [0, 32], [12346, 32], [1, 32], [0, 16], [1, 16], [16, 32], [0, 16], [9, 16]);
    expect(Array.from(parseRoaringBitmapArray(fromFile))).toEqual([0, 9]);
  });

  it('parses run containers', () => {
    // cookie with runs, one container, run flag set, key 0 with 100 values, runs 10..59 and 100..149
    const data = bytes(MAGIC, [1, 64], [0, 32], [12347, 32], [1, 8], [0, 16], [99, 16], [2, 16], [10, 16], [49, 16], [100, 16], [49, 16]);
    const rows = Array.from(parseRoaringBitmapArray(data));
    expect(rows).toHaveLength(100);
    expect(rows.slice(0, 3)).toEqual([10, 11, 12]);
    expect(rows.slice(48, 52)).toEqual([58, 59, 100, 101]);
    expect(rows[99]).toBe(149);
  });

  it('parses bitmap containers and 64-bit buckets', () => {
    // bucket 0: container key 1 holding the 5000 even values 65536..75534 (a bitmap container: > 4096 values);
    // bucket 2: one array container with value 7, i.e. row 2 * 2^32 + 7
    const words: [number, 32][] = [];
    for (let w = 0; w < 2048; w++) {
      let word = 0;
      for (let bit = 0; bit < 32; bit += 2) if (w * 32 + bit < 10000) word |= 1 << bit;
      words.push([word >>> 0, 32]);
    }
    const data = bytes(
      MAGIC,
      [2, 64],
      [0, 32],
      [12346, 32],
      [1, 32],
      [1, 16],
      [4999, 16],
      [16, 32],
      ...words,
      [2, 32],
      [12346, 32],
      [1, 32],
      [0, 16],
      [0, 16],
      [16, 32],
      [7, 16],
    );
    const rows = parseRoaringBitmapArray(data);
    expect(rows.length).toBe(5001);
    expect(rows[0]).toBe(65536);
    expect(rows[1]).toBe(65538);
    expect(rows[4999]).toBe(65536 + 9998);
    expect(rows[5000]).toBe(2 * 2 ** 32 + 7);
  });

  it('round-trips through the serializer with every container kind', () => {
    const rows: number[] = [3, 5, 70000];
    for (let v = 200000; v < 210000; v++) rows.push(v); // a run
    for (let v = 5 * 65536; v < 6 * 65536; v += 3) rows.push(v); // dense scattered: a bitmap
    rows.push(2 ** 33 + 1, 2 ** 40);
    const serialized = serializeRoaringBitmapArray(rows);
    expect(Array.from(parseRoaringBitmapArray(serialized))).toEqual(rows);
    expect(Array.from(parseRoaringBitmapArray(serializeRoaringBitmapArray([])))).toEqual([]);
  });

  it('writes the same bytes Databricks wrote for rows 0 and 9', () => {
    const expected = bytes(MAGIC, [1, 64], [0, 32], [12346, 32], [1, 32], [0, 16], [1, 16], [16, 32], [0, 16], [9, 16]);
    expect(serializeRoaringBitmapArray([0, 9])).toEqual(expected);
  });

  it('rejects corrupt input and unsorted rows', () => {
    expect(() => parseRoaringBitmapArray(bytes([1, 32], [0, 64]))).toThrow(/unknown magic/);
    expect(() => parseRoaringBitmapArray(bytes(MAGIC, [1, 64], [0, 32], [12346, 32]))).toThrow(/truncated/);
    expect(() => parseRoaringBitmapArray(bytes(MAGIC, [1, 64], [0, 32], [999, 32]))).toThrow(/cookie/);
    expect(() => serializeRoaringBitmapArray([3, 2])).toThrow(/sorted/);
  });
});
