// Tables named through the app's saved catalog connections (uc://<connection>/catalog.schema.table,
// glue://<connection>/database/table), opened in whichever thread reads them: the connections come with the engine's
// settings as data (EngineSettings.catalogs), so a worker asks the catalog where the table is and, for its whole
// life, for each new credential (vended-engine.ts). Any other location opens through the engine as it is.
import { isCatalogName, parseCatalogName } from '../../shared/catalog-name.js';
import { DeltaportError } from '../../shared/errors.js';
import { engineFrom, type EngineContext, type EngineSettings } from '../delta/engine/engine-context.js';
import { TableCache } from '../delta/table-cache.js';
import { DeltaTable } from '../delta/table.js';
import { kindName, openCatalog } from './catalog-options.js';

/** A thread's table cache over the settings: catalog names open through their saved connection. */
export function catalogAwareTables(settings: EngineSettings): TableCache {
  const engine = engineFrom(settings);
  return new TableCache(engine, undefined, catalogAwareOpener(settings, engine));
}

/** Opens a table by its location or by its name through a saved catalog connection. */
export function catalogAwareOpener(settings: EngineSettings, engine: EngineContext = engineFrom(settings)) {
  return async (tablePath: string): Promise<DeltaTable> => {
    if (!isCatalogName(tablePath)) return DeltaTable.open(tablePath, engine);
    let name;
    try {
      name = parseCatalogName(tablePath)!;
    } catch (err) {
      throw new DeltaportError('VALIDATION', (err as Error).message);
    }
    const saved = settings.catalogs?.find((c) => c.name === name.connection);
    if (!saved) throw new DeltaportError('NOT_FOUND', `no catalog connection named "${name.connection}" (for ${tablePath})`);
    if (saved.kind !== name.kind)
      throw new DeltaportError(
        'VALIDATION',
        `"${saved.name}" is a ${kindName(saved.kind)} connection: ${tablePath} names ${kindName(name.kind)}`,
      );
    // The saved connection says everything: the environment the CLI falls back on is not read.
    const catalog = await openCatalog(saved.kind, saved.options, {});
    const resolved = await catalog.resolveTable(name, engine);
    return DeltaTable.open(resolved.location, resolved.engine);
  };
}
