import { describe, expect, it } from 'vitest';
import { assertReadable } from '../../../electron/delta/protocol.js';

describe('assertReadable', () => {
  it.each([1, 2])('accepts reader version %i', (minReaderVersion) => {
    expect(() => assertReadable({ minReaderVersion, minWriterVersion: 2 })).not.toThrow();
  });

  it('accepts reader version 3 with every supported feature', () => {
    const readerFeatures = [
      'columnMapping',
      'deletionVectors',
      'timestampNtz',
      'timestampWithoutTimezone',
      'typeWidening',
      'typeWidening-preview',
      'v2Checkpoint',
      'vacuumProtocolCheck',
      'variantType',
      'variantType-preview',
      'variantShredding',
      'variantShredding-preview',
    ];
    expect(() => assertReadable({ minReaderVersion: 3, minWriterVersion: 7, readerFeatures })).not.toThrow();
  });

  it('names an unknown reader feature and what is supported', () => {
    const protocol = { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['deletionVectors', 'blahabl'] };
    expect(() => assertReadable(protocol)).toThrow(
      /^This table uses the reader feature 'blahabl', which Deltaport cannot read; it reads tables with column mapping, deletion vectors, .*shredded variants\.$/,
    );
    expect(() => assertReadable(protocol)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_PROTOCOL' }));
  });

  it('names every unknown feature, writer features do not matter', () => {
    expect(() => assertReadable({ minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['a', 'b'], writerFeatures: ['zzz'] })).toThrow(
      /^This table uses the reader features 'a' and 'b', which Deltaport cannot read;/,
    );
    expect(() =>
      assertReadable({ minReaderVersion: 3, minWriterVersion: 7, readerFeatures: [], writerFeatures: ['unknownWriter'] }),
    ).not.toThrow();
  });

  it.each([4, 5, 0])('refuses reader version %i by number', (minReaderVersion) => {
    expect(() => assertReadable({ minReaderVersion, minWriterVersion: 7 })).toThrow(
      `This table needs reader version ${minReaderVersion}, which Deltaport cannot read; it reads versions 1 to 3.`,
    );
  });
});
