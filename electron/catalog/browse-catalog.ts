// A catalog as the navigator shows it, one level and one page at a time: Unity Catalog's catalogs, their schemas and
// tables, Glue's databases and tables. A catalog or schema is a folder; a Delta table is a table whose location is
// its catalog name through the saved connection (`uc://<connection>/main.sales.orders`, `glue://<connection>/db/t`),
// which opening a table accepts; any other table is listed with its format and does not open.
import type { BrowseEntry, BrowsePage } from '../../shared/browse.js';
import { catalogNameText, parseCatalogPath } from '../../shared/catalog-name.js';
import { DeltaportError } from '../../shared/errors.js';
import { DELTA_FORMAT, type Catalog } from './catalog.js';

/** The entries under `location` (`uc://<connection>`, `uc://<connection>/main`, `uc://<connection>/main.sales`,
 * `glue://<connection>`, `glue://<connection>/db`), from `page` on. */
export async function browseCatalog(catalog: Catalog, location: string, page?: string): Promise<BrowsePage> {
  let path;
  try {
    path = parseCatalogPath(location, true);
  } catch (err) {
    throw new DeltaportError('VALIDATION', (err as Error).message);
  }
  if (!path || path.kind !== catalog.kind) throw new DeltaportError('VALIDATION', `'${location}' is not a place in this catalog`);
  const { kind, connection, parts } = path;
  const here = (names: string[]) => `${kind === 'unity' ? 'uc' : 'glue'}://${connection}/${names.join(kind === 'unity' ? '.' : '/')}`;
  const folders = (listed: { items: string[]; nextPage: string | null }): BrowsePage => ({
    entries: listed.items.map((name) => ({ name, kind: 'folder', location: here([...parts, name]) })),
    nextPage: listed.nextPage,
  });
  const depth = kind === 'unity' ? parts.length : parts.length + 1;
  if (depth === 0) return folders(await catalog.listCatalogs(page));
  if (depth === 1) return folders(await catalog.listSchemas(parts[0] ?? null, page));
  if (depth === 2) {
    const [catalogName, schema] = kind === 'unity' ? [parts[0], parts[1]] : [null, parts[0]];
    const listed = await catalog.listTables(catalogName, schema, page);
    return {
      entries: listed.items.map((table): BrowseEntry => {
        const location = catalogNameText({ kind, connection, catalog: catalogName, schema, table: table.name });
        return table.format === DELTA_FORMAT
          ? { name: table.name, kind: 'table', location }
          : { name: table.name, kind: 'other', location, detail: table.format };
      }),
      nextPage: listed.nextPage,
    };
  }
  throw new DeltaportError('VALIDATION', `'${location}' is a table, not a place that holds tables`);
}
