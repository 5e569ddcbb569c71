// The buffer readers against apache-arrow's own accessors (Vector.get, Data.getValid), on whole and sliced chunks:
// a slice shares its parent's buffers at an offset, which every reader must honour.
import { Bool, LargeUtf8, Null, Utf8, vectorFromArray, type Data, type DataType } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import {
  anyOffsets,
  booleanReader,
  int32Offsets,
  isNullAt,
  utf8Reader,
  validity,
  valueBytes,
} from '../../../../electron/delta/engine/arrow-buffers.js';

function chunks<T extends DataType>(values: unknown[], type: T): Data[] {
  const data = vectorFromArray(values, type).data[0];
  return [data, data.slice(3, data.length - 4)];
}

const texts = ['a', null, 'bc', '', 'déjà', null, 'x\ty', '🙂', 'plain', null, 'end', 'é'];
const ascii = ['a', null, 'bc', '', 'tab\there', null, 'x', 'yz', 'plain', null, 'end', 'z'];

describe('arrow buffer readers', () => {
  it('read validity and nulls as Data.getValid does, at any offset', () => {
    for (const data of chunks(texts, new Utf8())) {
      const valid = validity(data);
      const isNull = isNullAt(data);
      for (let i = 0; i < data.length; i++) {
        expect(valid(i)).toBe(data.getValid(i));
        expect(isNull(i)).toBe(!data.getValid(i));
      }
    }
  });

  it('take every row of a Null column as null', () => {
    const data = vectorFromArray([null, null, null], new Null()).data[0];
    expect([0, 1, 2].map(isNullAt(data))).toEqual([true, true, true]);
  });

  it('read booleans as Vector.get does, at any offset', () => {
    const bools = Array.from({ length: 21 }, (_, i) => i % 3 === 0 || i % 7 === 0);
    for (const data of chunks(bools, new Bool())) {
      const read = booleanReader(data);
      const expected = vectorFromArray(bools, new Bool())
        .slice(data.offset, data.offset + data.length)
        .toArray();
      expect(Array.from({ length: data.length }, (_, i) => read(i))).toEqual([...expected]);
    }
  });

  it('read Utf8 and LargeUtf8 text as Vector.get does, ASCII or not, at any offset', () => {
    for (const values of [texts, ascii]) {
      for (const type of [new Utf8(), new LargeUtf8()]) {
        for (const data of chunks(values, type)) {
          const read = utf8Reader(data);
          const valid = validity(data);
          const vector = vectorFromArray(values, type).slice(data.offset, data.offset + data.length);
          expect(Array.from({ length: data.length }, (_, i) => (valid(i) ? read(i) : null))).toEqual([...vector]);
        }
      }
    }
  });

  it('give the offsets and bytes of a chunk, and name the layout that has none', () => {
    const [data] = chunks(texts, new Utf8());
    expect(int32Offsets(data)).toBe(data.valueOffsets);
    expect(anyOffsets(chunks(texts, new LargeUtf8())[0])).toBeInstanceOf(BigInt64Array);
    expect(valueBytes(data).toString('utf8', 0, int32Offsets(data)[data.length])).toBe(texts.filter((t) => t !== null).join(''));
    const bools = chunks([true, false], new Bool())[0];
    expect(() => int32Offsets(bools)).toThrow('Arrow Bool has no 32-bit offsets');
  });
});
