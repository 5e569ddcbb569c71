import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataPath } from '../../../electron/delta/storage.js';

const root = '/data/tables/sales';

describe('resolveDataPath', () => {
  it('joins a plain relative path to the table root', () => {
    expect(resolveDataPath(root, 'part-0001.parquet')).toBe('/data/tables/sales/part-0001.parquet');
    expect(resolveDataPath(`${root}/`, 'a/b.parquet')).toBe('/data/tables/sales/a/b.parquet');
  });

  it('percent-decodes relative paths', () => {
    expect(resolveDataPath(root, 'x=B%2520B/part.parquet')).toBe('/data/tables/sales/x=B%20B/part.parquet');
    expect(resolveDataPath(root, 'x=A%20A/part.parquet')).toBe('/data/tables/sales/x=A A/part.parquet');
    expect(resolveDataPath(root, 'ts=2021-01-01%2000%3A00%3A00/p.parquet')).toBe(
      '/data/tables/sales/ts=2021-01-01 00:00:00/p.parquet',
    );
    expect(resolveDataPath(root, 'caf%C3%A9/p.parquet')).toBe('/data/tables/sales/café/p.parquet');
  });

  it('keeps absolute paths, decoded and normalized', () => {
    expect(resolveDataPath(root, '/elsewhere/dir%20x/p.parquet')).toBe('/elsewhere/dir x/p.parquet');
    expect(resolveDataPath(root, '/elsewhere//a/./b/../p.parquet')).toBe('/elsewhere/a/p.parquet');
  });

  it('reads file: URIs in both spellings', () => {
    expect(resolveDataPath(root, 'file:/elsewhere/a%20b/p.parquet')).toBe('/elsewhere/a b/p.parquet');
    expect(resolveDataPath(root, 'file:///elsewhere/a%3Ab/p.parquet')).toBe('/elsewhere/a:b/p.parquet');
  });

  it('gives the same string for every spelling of one file, so adds and removes match', () => {
    const spellings = [
      'dir/p.parquet',
      './dir/p.parquet',
      'dir//p.parquet',
      'dir/sub/../p.parquet',
      'di%72/p.parquet',
      '/data/tables/sales/dir/p.parquet',
      'file:/data/tables/sales/dir/p.parquet',
      'file:///data/tables/sales/dir/p.parquet',
    ];
    const resolved = new Set(spellings.map((s) => resolveDataPath(root, s)));
    expect([...resolved]).toEqual([path.join(root, 'dir/p.parquet')]);
  });

  it('refuses remote URIs, foreign hosts and bad percent-encoding with one-line messages', () => {
    expect(() => resolveDataPath(root, 's3://bucket/p.parquet')).toThrow(
      "cannot read file path 's3://bucket/p.parquet': only local files are supported",
    );
    expect(() => resolveDataPath(root, 'file://otherhost/p.parquet')).toThrow(/not a local file URI/);
    expect(() => resolveDataPath(root, 'bad%ZZ.parquet')).toThrow(
      "cannot decode file path 'bad%ZZ.parquet' in the log: bad percent-encoding",
    );
  });
});
