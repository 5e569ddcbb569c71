// The tables a test's tasks (electron/jobs/tasks.ts) read, as a task worker holds them: opened through an engine of
// the default cloud settings, which is all a local table needs.
import { engineFrom, type EngineContext, type EngineSettings } from '../../electron/delta/engine/engine-context.js';
import { TableCache } from '../../electron/delta/table-cache.js';
import { DeltaTable } from '../../electron/delta/table.js';

/** The settings of that engine, for a job runner or a task thread that reads only local tables. */
export const localEngine = (): EngineSettings => ({ storeOptions: [] });

/** That engine, to open a local table with. */
export const localReads: EngineContext = engineFrom(localEngine());

/** Opens a local table through that engine: what a source spec is opened with. */
export const openLocal = (tablePath: string): Promise<DeltaTable> => DeltaTable.open(tablePath, localReads);

export function taskTables(): TableCache {
  return new TableCache(engineFrom(localEngine()));
}
