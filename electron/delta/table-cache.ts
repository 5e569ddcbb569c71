// The tables a thread opened recently, each with its parsed log (DeltaTable caches commits, checkpoints and
// replayed versions), so that moving through versions, a preview or a plan after an open read no log twice.
// A DeltaTable re-lists its folder on every snapshot, so a cached table still sees new commits. Every table is
// opened through the cache's engine (engine/engine-context.ts).
import { isCatalogName } from '../../shared/catalog-name.js';
import { canonicalLocation } from '../storage/storage.js';
import type { EngineContext } from './engine/engine-context.js';
import { memoized } from './memo-cache.js';
import { DeltaTable } from './table.js';

export const TABLE_CACHE_SIZE = 8;

export class TableCache {
  private readonly tables = new Map<string, Promise<DeltaTable>>();

  /** `openTable`: how a table not in the cache is opened; a catalog-aware opener (catalog/catalog-tables.ts) also
   * takes names in a catalog. */
  constructor(
    readonly engine: EngineContext,
    private readonly size = TABLE_CACHE_SIZE,
    private readonly openTable: (tablePath: string) => Promise<DeltaTable> = (tablePath) => DeltaTable.open(tablePath, engine),
  ) {}

  /** The table at a path, opened on first use; a failed open is forgotten, so a retry opens it again. A function
   * property, so that it can be handed on as a source's way to open its table. */
  readonly open = (tablePath: string): Promise<DeltaTable> => {
    // A catalog name is its own key: it is not a path to resolve.
    const key = isCatalogName(tablePath) ? tablePath : canonicalLocation(tablePath);
    return memoized(this.tables, key, () => this.openTable(key), this.size);
  };
}
