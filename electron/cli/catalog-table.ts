// A table named in a catalog on the command line (uc://catalog.schema.table, glue://database/table): the catalog the
// --catalog-option flags describe is asked once where the table is, and the table is read through the engine it
// gives (its credentials, where it vends any).
import { parseCatalogName } from '../../shared/catalog-name.js';
import type { ResolvedTable } from '../catalog/catalog.js';
import { openCatalog, type CatalogOptions } from '../catalog/catalog-options.js';
import type { EngineContext } from '../delta/engine/engine-context.js';
import { DeltaTable } from '../delta/table.js';
import { UsageError } from './args.js';

/** Opens the catalog table by its name and, through the same engine, any location inside it (what a source opens
 * again by its folder). */
export function catalogTableOpener(text: string, options: CatalogOptions, base: EngineContext): (tablePath: string) => Promise<DeltaTable> {
  let name;
  try {
    name = parseCatalogName(text)!;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (name.connection !== null)
    throw new UsageError(`'${text}' names a saved connection, which only the app has: give the catalog with --catalog-option instead`);
  let resolved: Promise<ResolvedTable> | undefined;
  return async (tablePath) => {
    const table = await (resolved ??= openCatalog(name.kind, options).then((catalog) => catalog.resolveTable(name, base)));
    return DeltaTable.open(tablePath === text ? table.location : tablePath, table.engine);
  };
}
