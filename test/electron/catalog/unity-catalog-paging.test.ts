// Unity Catalog's listings past one page, on the real server (test/support/unity-catalog.ts): 250 tables in one
// schema and 120 schemas in one catalog, made through the server's own REST API. The open-source server sends at most
// 100 names a page whatever max_results asks (its PagedListingHelper caps it), so the tables come in 3 pages and the
// schemas in 2, as 1,000 tables would come in 10. (1,050 tables and 120 schemas took 108 s to make on the 2-core test
// machine, ~90 ms each with 8 requests at a time: too long for one test.) The CLI lists every page and the
// navigator's browsing follows next_page_token page by page; both are checked against the server's own listing,
// walked here with raw REST calls.
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { browseCatalog } from '../../../electron/catalog/browse-catalog.js';
import { openCatalog } from '../../../electron/catalog/catalog-options.js';
import type { BrowseEntry } from '../../../shared/browse.js';
import { isSkipped } from '../../support/object-stores.js';
import { startUnityCatalog, UNITY_CATALOG_START_MS, type UnityCatalogServer } from '../../support/unity-catalog.js';
import { cli } from '../cli/run-cli.js';

const TABLES = 250;
const SCHEMAS = 120;
/** Requests to the server at once while the test makes its entries. */
const AT_ONCE = 8;
let server: UnityCatalogServer | undefined;
let skipped: string | null = null;

const name = (prefix: string, i: number) => `${prefix}_${String(i).padStart(4, '0')}`;

/** Runs `make` for 0..count-1, AT_ONCE at a time. */
async function each(count: number, make: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < count) await make(next++);
    }),
  );
}

beforeAll(async () => {
  const started = await startUnityCatalog();
  if (isSkipped(started)) return void (skipped = started.skipped);
  server = started;
  const uc = started;
  const made = Date.now();
  await uc.api('POST', '/catalogs', { name: 'big' });
  await uc.api('POST', '/schemas', { name: 'many', catalog_name: 'big' });
  // Each table needs a folder of its own (the server refuses two over one); none is read.
  await each(TABLES, (i) =>
    uc.api('POST', '/tables', {
      name: name('t', i),
      catalog_name: 'big',
      schema_name: 'many',
      table_type: 'EXTERNAL',
      data_source_format: 'DELTA',
      storage_location: `file:///nowhere/many/${name('t', i)}`,
      columns: [],
    }),
  );
  await uc.api('POST', '/catalogs', { name: 'wide' });
  await each(SCHEMAS, (i) => uc.api('POST', '/schemas', { name: name('s', i), catalog_name: 'wide' }));
  console.info(`made ${TABLES} tables and ${SCHEMAS} schemas in ${((Date.now() - made) / 1000).toFixed(1)} s`);
}, UNITY_CATALOG_START_MS);
afterAll(() => server?.stop());

function running(ctx: TestContext): UnityCatalogServer {
  if (!server) ctx.skip(`Unity Catalog skipped: ${skipped}`);
  return server!;
}

/** The server's own listing, every page of it, and how many pages it took. */
async function serverListing(
  uc: UnityCatalogServer,
  list: 'tables' | 'schemas',
  query: string,
): Promise<{ names: string[]; pages: number }> {
  const names: string[] = [];
  let pages = 0;
  let token: string | undefined;
  do {
    const page = await uc.api<{ tables?: { name: string }[]; schemas?: { name: string }[]; next_page_token?: string }>(
      'GET',
      `/${list}?${query}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
    );
    names.push(...(page[list] ?? []).map((e) => e.name));
    pages++;
    token = page.next_page_token || undefined;
  } while (token);
  return { names, pages };
}

const admin = (uc: UnityCatalogServer) => ['--catalog-option', `endpoint=${uc.endpoint}`, '--catalog-option', `token=${uc.adminToken}`];

describe('Unity Catalog listings past one page', () => {
  it('lists every table of a schema of 250 and every schema of a catalog of 120 through the CLI', async (ctx) => {
    const uc = running(ctx);
    const tables = await serverListing(uc, 'tables', 'catalog_name=big&schema_name=many');
    expect(tables.names).toHaveLength(TABLES);
    expect(tables.pages).toBeGreaterThan(2);
    const listed = await cli('tables', 'uc://big.many', ...admin(uc), '--json');
    expect(listed.stderr).toBe('');
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((t) => t.name)).toEqual(tables.names);

    const schemas = await serverListing(uc, 'schemas', 'catalog_name=wide');
    expect(schemas.names).toHaveLength(SCHEMAS);
    expect(schemas.pages).toBeGreaterThan(1);
    const listedSchemas = await cli('schemas', 'uc://wide', ...admin(uc), '--json');
    expect(listedSchemas.stderr).toBe('');
    expect(JSON.parse(listedSchemas.stdout)).toEqual(schemas.names);
  });

  it('browses a schema of 250 tables a page at a time, each page where the last ended', async (ctx) => {
    const uc = running(ctx);
    const catalog = await openCatalog('unity', { endpoint: uc.endpoint, token: uc.adminToken });
    const entries: BrowseEntry[] = [];
    let pages = 0;
    let page: string | undefined;
    do {
      const listed = await browseCatalog(catalog, 'uc://work/big.many', page);
      entries.push(...listed.entries);
      pages++;
      page = listed.nextPage ?? undefined;
    } while (page);
    expect(pages).toBeGreaterThan(2);
    const expected = (await serverListing(uc, 'tables', 'catalog_name=big&schema_name=many')).names;
    expect(entries).toEqual(expected.map((table) => ({ name: table, kind: 'table', location: `uc://work/big.many.${table}` })));

    const first = await browseCatalog(catalog, 'uc://work/wide');
    expect(first.nextPage).not.toBeNull();
    const second = await browseCatalog(catalog, 'uc://work/wide', first.nextPage!);
    expect([...first.entries, ...second.entries].map((e) => e.name)).toEqual(
      (await serverListing(uc, 'schemas', 'catalog_name=wide')).names,
    );
  });
});
