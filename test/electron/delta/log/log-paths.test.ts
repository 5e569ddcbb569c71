import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataPath } from '../../../../electron/delta/log/log-paths.js';

const root = '/data/tables/sales';

describe('resolveDataPath', () => {
  it('joins a plain relative path to the table root', () => {
    expect(resolveDataPath(root, 'part-0001.parquet')).toBe('/data/tables/sales/part-0001.parquet');
    expect(resolveDataPath(`${root}/`, 'a/b.parquet')).toBe('/data/tables/sales/a/b.parquet');
  });

  it('percent-decodes relative paths', () => {
    expect(resolveDataPath(root, 'x=B%2520B/part.parquet')).toBe('/data/tables/sales/x=B%20B/part.parquet');
    expect(resolveDataPath(root, 'x=A%20A/part.parquet')).toBe('/data/tables/sales/x=A A/part.parquet');
    expect(resolveDataPath(root, 'ts=2021-01-01%2000%3A00%3A00/p.parquet')).toBe('/data/tables/sales/ts=2021-01-01 00:00:00/p.parquet');
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

  it('reads cloud URLs in the log, decoded, in their canonical spelling', () => {
    expect(resolveDataPath(root, 's3a://bucket/t/x=A%20A/p.parquet')).toBe('s3://bucket/t/x=A A/p.parquet');
    expect(resolveDataPath(root, 'gs://bucket/t/p.parquet')).toBe('gs://bucket/t/p.parquet');
    expect(resolveDataPath(root, 'abfss://cont@acct.dfs.core.windows.net/t/p.parquet')).toBe(
      'abfss://cont@acct.dfs.core.windows.net/t/p.parquet',
    );
  });

  it('joins relative paths to a table in a bucket, decoded and normalized', () => {
    const cloud = 's3://bucket/tables/sales';
    expect(resolveDataPath(cloud, 'x=A%20A/./p.parquet')).toBe('s3://bucket/tables/sales/x=A A/p.parquet');
    expect(resolveDataPath(cloud, 'dir//sub/../p.parquet')).toBe('s3://bucket/tables/sales/dir/p.parquet');
    expect(() => resolveDataPath(cloud, '/local/p.parquet')).toThrow(/absolute local path in a table in the cloud/);
  });

  it('refuses unknown schemes, foreign hosts and bad percent-encoding with one-line messages', () => {
    expect(() => resolveDataPath(root, 'ftp://host/p.parquet')).toThrow(
      "cannot read file path 'ftp://host/p.parquet': Deltaport reads local files and s3://, gs:// and Azure URLs",
    );
    expect(() => resolveDataPath(root, 'file://otherhost/p.parquet')).toThrow(/not a local file URI/);
    expect(() => resolveDataPath(root, 'bad%ZZ.parquet')).toThrow(
      "cannot decode file path 'bad%ZZ.parquet' in the log: bad percent-encoding",
    );
  });
});
