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
      /^unsupported reader feature 'blahabl' \(table requires it; Deltaport supports columnMapping, deletionVectors, .*variantShredding-preview\)$/,
    );
    expect(() => assertReadable(protocol)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_PROTOCOL' }));
  });

  it('names every unknown feature, writer features do not matter', () => {
    expect(() => assertReadable({ minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['a', 'b'], writerFeatures: ['zzz'] })).toThrow(
      /^unsupported reader features 'a', 'b' \(table requires them;/,
    );
    expect(() =>
      assertReadable({ minReaderVersion: 3, minWriterVersion: 7, readerFeatures: [], writerFeatures: ['unknownWriter'] }),
    ).not.toThrow();
  });

  it.each([4, 5, 0])('refuses reader version %i by number', (minReaderVersion) => {
    expect(() => assertReadable({ minReaderVersion, minWriterVersion: 7 })).toThrow(
      `unsupported reader version ${minReaderVersion} (table requires it; Deltaport reads versions 1 to 3)`,
    );
  });
});
