// The tables a test's tasks (electron/jobs/tasks.ts) read, as a task worker holds them: opened through an engine of
// the default cloud settings, which is all a local table needs.
import { engineFrom, type EngineSettings } from '../../electron/delta/engine/engine-context.js';
import { TableCache } from '../../electron/delta/table-cache.js';

/** The settings of that engine, for a job runner or a task thread that reads only local tables. */
export const localEngine = (): EngineSettings => ({ storeOptions: [] });

export function taskTables(): TableCache {
  return new TableCache(engineFrom(localEngine()));
}
