// What a typed Table location becomes: quotes, file:// URIs, ~ and relative paths resolve to one absolute folder.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveTableLocation } from '../../../electron/app/table-location.js';

const base = { cwd: '/work/project', home: '/home/ana' };

describe('resolveTableLocation', () => {
  it('takes cloud URLs in the spelling the clouds use, and gives each one canonical form', () => {
    expect(resolveTableLocation(' "s3a://bucket/events/" ', base)).toBe('s3://bucket/events');
    expect(resolveTableLocation('gs://bucket/a b', base)).toBe('gs://bucket/a b');
    expect(resolveTableLocation('abfss://lake@acct.dfs.core.windows.net/t', base)).toBe('abfss://lake@acct.dfs.core.windows.net/t');
    expect(resolveTableLocation('az://lake/t', base)).toBe('az://lake/t');
  });

  it('takes a table named through a saved catalog connection in its one spelling, and refuses one naming none', () => {
    expect(resolveTableLocation(' UC://work/main.sales.orders ', base)).toBe('uc://work/main.sales.orders');
    expect(resolveTableLocation('glue://lake/sales/orders', base)).toBe('glue://lake/sales/orders');
    expect(() => resolveTableLocation('uc://main.sales.orders', base)).toThrow(
      '"uc://main.sales.orders" names no catalog connection: write uc://<connection>/catalog.schema.table.',
    );
    expect(() => resolveTableLocation('uc://work/main.orders', base)).toThrow(
      "'uc://work/main.orders' is not a Unity Catalog table name: write uc://catalog.schema.table.",
    );
  });

  it('keeps an absolute path, without a trailing slash', () => {
    expect(resolveTableLocation('/data/events/', base)).toBe('/data/events');
  });

  it('resolves relative paths against the folder the host runs in', () => {
    expect(resolveTableLocation('tables/events', base)).toBe('/work/project/tables/events');
    expect(resolveTableLocation('./events', base)).toBe('/work/project/events');
    expect(resolveTableLocation('../shared/events', base)).toBe('/work/shared/events');
  });

  it('expands ~ to the home folder', () => {
    expect(resolveTableLocation('~', base)).toBe('/home/ana');
    expect(resolveTableLocation('~/lake/events', base)).toBe('/home/ana/lake/events');
    // ~user is not expanded: it is a relative name like any other.
    expect(resolveTableLocation('~bob/x', base)).toBe('/work/project/~bob/x');
  });

  it('strips the quotes a copied path carries, and surrounding blanks', () => {
    expect(resolveTableLocation('  "/data/my table"  ', base)).toBe('/data/my table');
    expect(resolveTableLocation("'~/my table'", base)).toBe('/home/ana/my table');
  });

  it('turns a file:// URI into its path, decoding escapes', () => {
    const folder = path.join('/data', 'my table');
    expect(resolveTableLocation(pathToFileURL(folder).href, base)).toBe(folder);
    expect(resolveTableLocation('file:///data/caf%C3%A9', base)).toBe('/data/café');
  });

  it('refuses what is not a local folder, in words a user can act on', () => {
    expect(() => resolveTableLocation(' "" ', base)).toThrow('Type or paste the path of a Delta table folder.');
    expect(() => resolveTableLocation('ftp://host/events', base)).toThrow(
      /opens tables in local folders and in S3, Azure and Google Cloud Storage/,
    );
    expect(() => resolveTableLocation('abfss://events', base)).toThrow(/needs container@account.dfs.core.windows.net/);
    expect(() => resolveTableLocation('file://server/share/x', base)).toThrow(/not the file:\/\/ address of a folder/);
  });
});
