// `deltaport catalogs uc://`, `deltaport schemas uc://main | glue://`, `deltaport tables uc://main.sales |
// glue://sales`: what a catalog holds, every page of it, the catalog reached as --catalog-option says. Tables come
// with their format (only Delta tables open) and location.
import { parseCatalogPath, type CatalogPath } from '../../shared/catalog-name.js';
import type { Catalog, CatalogPage } from '../catalog/catalog.js';
import { kindName, openCatalog } from '../catalog/catalog-options.js';
import { onePositional, parseArgs, UsageError } from './args.js';
import type { CliIo } from './io.js';
import { catalogOptionsOf } from './source-flags.js';
import { renderTable } from './text-table.js';

const FLAGS = { 'catalog-option': 'list', json: 'switch' } as const;

export async function catalogsCommand(argv: string[], io: CliIo): Promise<number> {
  const { catalog, path, json } = await catalogArgument(argv, 'catalogs', { unity: 0, glue: null });
  return writeNames(await allPages((page) => catalog.listCatalogs(page)), json, io, `${kindName(path.kind)} catalogs`);
}

export async function schemasCommand(argv: string[], io: CliIo): Promise<number> {
  const { catalog, path, json } = await catalogArgument(argv, 'schemas', { unity: 1, glue: 0 });
  const names = await allPages((page) => catalog.listSchemas(path.parts[0] ?? null, page));
  return writeNames(names, json, io, path.kind === 'unity' ? 'schemas' : 'databases');
}

export async function tablesCommand(argv: string[], io: CliIo): Promise<number> {
  const { catalog, path, json } = await catalogArgument(argv, 'tables', { unity: 2, glue: 1 });
  const [catalogName, schema] = path.kind === 'unity' ? path.parts : [null, path.parts[0]];
  const tables = await allPages((page) => catalog.listTables(catalogName, schema, page));
  if (json) io.stdout.write(`${JSON.stringify(tables, null, 2)}\n`);
  else {
    const columns = [{ title: 'table' }, { title: 'format' }, { title: 'location' }];
    io.stdout.write(
      renderTable(
        columns,
        tables.map((t) => [t.name, t.format, t.location]),
        io.color ?? false,
      ),
    );
  }
  return 0;
}

/** The catalog the command lists in and where: `parts` says how many names it takes for each kind (null: none). */
async function catalogArgument(
  argv: string[],
  command: string,
  parts: Record<CatalogPath['kind'], number | null>,
): Promise<{ catalog: Catalog; path: CatalogPath; json: boolean }> {
  const args = parseArgs(argv, FLAGS, command);
  const text = onePositional(args, forms(parts));
  let path: CatalogPath | null;
  try {
    path = parseCatalogPath(text, false);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (!path) throw new UsageError(`${command} takes ${forms(parts)}, not '${text}'`);
  const wanted = parts[path.kind];
  if (wanted === null)
    throw new UsageError(
      `${kindName(path.kind)} has one catalog per account and region: list its databases with deltaport schemas glue://`,
    );
  if (path.parts.length !== wanted) throw new UsageError(`${command} takes ${forms(parts)}, not '${text}'`);
  return { catalog: await openCatalog(path.kind, catalogOptionsOf(args)), path, json: args.switches.has('json') };
}

function forms(parts: Record<CatalogPath['kind'], number | null>): string {
  const unity = ['uc://', 'uc://catalog', 'uc://catalog.schema'][parts.unity ?? 0];
  return parts.glue === null ? unity : `${unity} or ${['glue://', 'glue://database'][parts.glue]}`;
}

async function allPages<T>(list: (page?: string) => Promise<CatalogPage<T>>): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  do {
    const next = await list(page);
    items.push(...next.items);
    page = next.nextPage ?? undefined;
  } while (page !== undefined);
  return items;
}

function writeNames(names: string[], json: boolean, io: CliIo, what: string): number {
  if (json) io.stdout.write(`${JSON.stringify(names, null, 2)}\n`);
  else if (names.length === 0) io.stdout.write(`(no ${what})\n`);
  else io.stdout.write(`${names.join('\n')}\n`);
  return 0;
}
