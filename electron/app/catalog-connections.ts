// Saved catalog connections (Unity Catalog, AWS Glue): what one may say, how it is saved (its token split off for the
// state file to encrypt, as a storage connection's secrets are) and how the app browses it. Only what is saved counts:
// the environment variables the CLI falls back on (DATABRICKS_HOST, DATABRICKS_TOKEN) are not read for a saved
// Unity Catalog connection, so that what the dialog shows is what is used. Glue's credentials are the AWS credential
// chain's, as in the CLI. Nothing here ever puts a secret value into a message or a result.
import type { BrowseCatalogRequest, CatalogConnection, CatalogConnectionInput, CatalogOptionInfo } from '../../shared/api.js';
import type { BrowsePage } from '../../shared/browse.js';
import { parseCatalogPath, type CatalogKind } from '../../shared/catalog-name.js';
import { DeltaportError } from '../../shared/errors.js';
import { browseCatalog } from '../catalog/browse-catalog.js';
import type { Catalog } from '../catalog/catalog.js';
import { CATALOG_OPTIONS, catalogOptionProblems, kindName, openCatalog, type CatalogOptions } from '../catalog/catalog-options.js';
import type { AppState } from '../state/app-state.js';
import { savedSecrets } from '../state/connection-table.js';

export const CATALOG_OPTION_INFO: CatalogOptionInfo[] = Object.entries(CATALOG_OPTIONS).map(([name, o]) => ({
  name,
  kinds: o.kinds,
  secret: o.secret === true,
  about: o.about,
}));

/** Problems with a connection's options for its kind of catalog, one per entry; a secret given as '' (forget it) is
 * fine. A Unity Catalog connection must say where the server is. */
export function catalogConnectionProblems(kind: CatalogKind, options: CatalogOptions): string[] {
  const given = Object.fromEntries(Object.entries(options).filter(([name, value]) => !(value === '' && CATALOG_OPTIONS[name]?.secret)));
  const problems = catalogOptionProblems(kind, given);
  if (kind === 'unity' && !given.endpoint) problems.push(`${kindName(kind)} needs its endpoint (the server or workspace URL)`);
  return problems;
}

/** Saves a checked connection: secrets left out keep their saved value, secrets given as '' are dropped. */
export function saveCatalogConnection(state: AppState, input: CatalogConnectionInput): CatalogConnection {
  const saved = state.catalogConnections.secrets(input.name);
  const { options, secrets } = savedSecrets(input.options, saved, CATALOG_OPTIONS, input.kind);
  return state.catalogConnections.save({ name: input.name, kind: input.kind, options, secrets });
}

/** The client of a saved connection, with its secrets. */
function savedCatalog(state: AppState, name: string): Promise<Catalog> {
  const connection = state.catalogConnections.list().find((c) => c.name === name);
  if (!connection) throw new DeltaportError('NOT_FOUND', `no catalog connection named "${name}"`);
  return openCatalog(connection.kind, { ...connection.options, ...state.catalogConnections.secrets(name) }, {});
}

/** One level of a saved catalog, a page at a time; with a filter, only the entries whose name starts with it (in any
 * case), as a bucket's listing is filtered. A catalog cannot filter its listings itself: pages are listed from `page`
 * on until one holds a match or the listing ends, so that no page shown is empty while more may match. */
export async function browseSavedCatalog(state: AppState, req: BrowseCatalogRequest): Promise<BrowsePage> {
  let place;
  try {
    place = parseCatalogPath(req.location, true);
  } catch (err) {
    throw new DeltaportError('VALIDATION', (err as Error).message);
  }
  if (!place)
    throw new DeltaportError('VALIDATION', `'${req.location}' is not a place in a catalog (uc://<connection>/…, glue://<connection>/…)`);
  const connection = state.catalogConnections.list().find((c) => c.name === place.connection);
  if (!connection) throw new DeltaportError('NOT_FOUND', `no catalog connection named "${place.connection}"`);
  if (connection.kind !== place.kind)
    throw new DeltaportError(
      'VALIDATION',
      `"${connection.name}" is a ${kindName(connection.kind)} connection, not ${kindName(place.kind)}`,
    );
  const catalog = await savedCatalog(state, connection.name);
  const filter = req.filter?.trim().toLowerCase();
  if (!filter) return browseCatalog(catalog, req.location, req.page);
  let page = req.page;
  for (;;) {
    const listed = await browseCatalog(catalog, req.location, page);
    const entries = listed.entries.filter((e) => e.name.toLowerCase().startsWith(filter));
    if (entries.length > 0 || listed.nextPage === null) return { entries, nextPage: listed.nextPage };
    page = listed.nextPage;
  }
}
