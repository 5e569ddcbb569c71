import { describe, expect, it } from 'vitest';
import { z85Decode, z85Encode } from '../../../../electron/delta/scan/z85.js';

describe('z85', () => {
  it('decodes and encodes the example of the Z85 spec (RFC 32)', () => {
    const bytes = Uint8Array.of(0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b);
    expect(z85Encode(bytes)).toBe('HelloWorld');
    expect(z85Decode('HelloWorld')).toEqual(bytes);
  });

  it('decodes the UUID of a real deletion vector file name', () => {
    // table-with-dv-small: pathOrInlineDv "vBn[lx{q8@P<9BNH/isA" names deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin
    const hex = Buffer.from(z85Decode('vBn[lx{q8@P<9BNH/isA')).toString('hex');
    expect(hex).toBe('61d16c75699446b7a15b8b538852e50e');
  });

  it('pads to whole groups and round-trips any bytes', () => {
    const bytes = Uint8Array.from({ length: 37 }, (_, i) => (i * 97 + 13) & 0xff);
    const text = z85Encode(bytes);
    expect(text).toHaveLength(50);
    expect(z85Decode(text).subarray(0, 37)).toEqual(bytes);
    expect(Array.from(z85Decode(text).subarray(37))).toEqual([0, 0, 0]);
  });

  it('rejects bad lengths, characters and overflowing groups', () => {
    expect(() => z85Decode('abcd')).toThrow(/multiple of 5/);
    expect(() => z85Decode('abc"e')).toThrow(/invalid Z85 character/);
    expect(() => z85Decode('#####')).toThrow(/invalid Z85 group/);
  });
});
