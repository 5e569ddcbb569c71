// The tables a test's tasks (electron/jobs/tasks.ts) read, as a task worker holds them: opened through an engine of
// the default cloud settings, which is all a local table needs.
import { engineFrom } from '../../electron/delta/engine/engine-context.js';
import { TableCache } from '../../electron/delta/table-cache.js';

export function taskTables(): TableCache {
  return new TableCache(engineFrom({ storeOptions: [] }));
}
