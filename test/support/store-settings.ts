// Storage options a test gathers bucket by bucket, as the app's saved storage connections do, and an engine that
// reads through them as they stand at each read (the object-store servers' tests add a bucket's options as they
// create it).
import { engineFrom, type EngineContext } from '../../electron/delta/engine/engine-context.js';
import { DeltaTable } from '../../electron/delta/table.js';
import { withStoreOptions, type PrefixedStoreOptions, type StoreOptions } from '../../electron/storage/store-options.js';

export class StoreSettings {
  private list: PrefixedStoreOptions = [];

  /** Options for the locations under `prefix`, replacing any given before for it. */
  add(prefix: string, options: StoreOptions): void {
    this.list = withStoreOptions(this.list, prefix, options);
  }

  readonly engine: EngineContext = {
    storage: (location) => engineFrom({ storeOptions: this.list }).storage(location),
    settings: () => ({ storeOptions: this.list }),
  };

  readonly openTable = (tablePath: string): Promise<DeltaTable> => DeltaTable.open(tablePath, this.engine);
}
