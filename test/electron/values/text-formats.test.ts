import { Field, Int32, Int64, List, Struct, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import {
  csvField,
  csvFieldReader,
  csvFieldWriter,
  displayTextReader,
  jsonText,
  jsonTextReader,
} from '../../../electron/values/text-formats.js';

describe('CSV fields', () => {
  it('quotes only what RFC 4180 requires and keeps null apart from the empty string', () => {
    const v = vectorFromArray(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', '', null, ' padded '], new Utf8());
    const read = csvFieldReader(v);
    expect(Array.from({ length: 8 }, (_, i) => read(i))).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '"cr\r"',
      '""',
      '',
      ' padded ',
    ]);
  });

  it('writes numbers, booleans, long text and nested values as JSON', () => {
    expect(csvField(42)).toBe('42');
    expect(csvField(false)).toBe('false');
    expect(csvField('9223372036854775807')).toBe('9223372036854775807');
    const type = new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), true)]);
    const read = csvFieldReader(vectorFromArray([{ a: 1, b: 'x' }], type));
    expect(read(0)).toBe('"{""a"":1,""b"":""x""}"');
  });
});

describe('CSV fields in another style', () => {
  it('quotes any value that holds the delimiter or the quote or reads as the null text, numbers too', () => {
    const write = csvFieldWriter({ delimiter: '.', quote: "'", nullText: '0' });
    expect([1.5, 0, 7, null, "it's", 'a"b', 'x\r\ny'].map(write)).toEqual(["'1.5'", "'0'", '7', '0', "'it''s'", 'a"b', "'x\r\ny'"]);
  });
});

describe('JSON text', () => {
  it('is the JSON of the cell value', () => {
    const type = new List(new Field('element', new Int64(), true));
    const read = jsonTextReader(vectorFromArray([[1n, 2n ** 62n], null], type));
    expect(read(0)).toBe('[1,"4611686018427387904"]');
    expect(read(1)).toBe('null');
    expect(jsonTextReader(vectorFromArray(['a"b\n'], new Utf8()))(0)).toBe('"a\\"b\\n"');
  });

  it.each([
    ['plain'],
    [''],
    ['quote " and backslash \\'],
    ['tab\tand\u0001control'],
    ['emoji 👋'],
    ['lone \ud800 surrogate'],
    ['del \u007f and é'],
    [0],
    [-0],
    [1.5e-7],
    [123456789012],
    [true],
    [null],
    [{ a: [1, 'x'] }],
  ])('writes %j as JSON.stringify does', (value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });
});

describe('display text', () => {
  it('keeps every value on one line and reports null as null', () => {
    const read = displayTextReader(vectorFromArray(['x', 'two\nlines', null], new Utf8()));
    expect([read(0), read(1), read(2)]).toEqual(['x', 'two\\nlines', null]);
  });
});
