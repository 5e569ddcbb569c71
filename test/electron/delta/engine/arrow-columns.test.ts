import { Field, Int32, Int64, makeData, Map_, Struct, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { utf8Reader } from '../../../../electron/delta/engine/arrow-buffers.js';
import { nullable, numberReader, stringMapReader, structChild } from '../../../../electron/delta/engine/arrow-columns.js';

const read = <T>(reader: (row: number) => T | null, rows: number): (T | null)[] => Array.from({ length: rows }, (_, i) => reader(i));

describe('column readers', () => {
  it('reads ASCII and non-ASCII strings with nulls', () => {
    for (const values of [
      ['a.parquet', null, 'dir/b.parquet', ''],
      ['café.parquet', null, 'x=Ä/ö.parquet', 'plain'],
    ]) {
      const data = vectorFromArray(values, new Utf8()).data[0];
      expect(read(nullable(data, utf8Reader), values.length)).toEqual(values);
    }
  });

  it('decodes each string alone when its bytes are not valid UTF-8 on their own', () => {
    // "é" is C3 A9: split across two rows, each row holds one invalid byte (U+FFFD), not half of an é.
    const bytes = Uint8Array.from([0x61, 0xc3, 0xa9, 0x62, 0x80, 0x63]);
    const data = makeData({ type: new Utf8(), length: 3, valueOffsets: Int32Array.from([0, 2, 4, 6]), data: bytes });
    expect(read(nullable(data, utf8Reader), 3)).toEqual(['a\ufffd', '\ufffdb', '\ufffdc']);
  });

  it('reads a sliced chunk by its own row numbers', () => {
    const values = ['zero', null, 'two', 'three', 'vier', 'fünf'];
    const data = vectorFromArray(values, new Utf8()).data[0].slice(1, 4);
    expect(read(nullable(data, utf8Reader), 4)).toEqual(values.slice(1, 5));
    const numbers = vectorFromArray([1n, null, 3n, 4n], new Int64()).data[0].slice(1, 3);
    expect(read(numberReader(numbers), 3)).toEqual([null, 3, 4]);
  });

  it('reads Int32 and Int64 numbers', () => {
    expect(read(numberReader(vectorFromArray([7, null, -1], new Int32()).data[0]), 3)).toEqual([7, null, -1]);
    expect(read(numberReader(vectorFromArray([2n ** 40n, null], new Int64()).data[0]), 2)).toEqual([2 ** 40, null]);
    expect(read(numberReader(null), 2)).toEqual([null, null]);
  });

  it('reads string maps with null values and null maps', () => {
    const type = new Map_(
      new Field(
        'entries',
        new Struct<{ key: Utf8; value: Utf8 }>([new Field('key', new Utf8(), false), new Field('value', new Utf8(), true)]),
        false,
      ),
    );
    const values = [
      new Map([
        ['date', '2020-01-01'],
        ['k', null],
      ]),
      null,
      new Map(),
      new Map([['é', 'ü']]),
    ];
    const data = vectorFromArray(values, type).data[0];
    expect(read(stringMapReader(data), 4)).toEqual([{ date: '2020-01-01', k: null }, null, {}, { é: 'ü' }]);
  });

  it('finds struct children by name', () => {
    const type = new Struct([new Field('path', new Utf8()), new Field('size', new Int64())]);
    const data = vectorFromArray([{ path: 'p', size: 5n }], type).data[0];
    expect(read(numberReader(structChild(data, 'size')), 1)).toEqual([5]);
    expect(structChild(data, 'missing')).toBeNull();
  });
});
