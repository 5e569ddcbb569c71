// Starts a worker thread. Entries are named by their path under electron/ ('delta/scan/scan-worker') and found from this
// module's own location, one folder below electron/ in the sources and in tsc's output, and one folder below
// dist/electron/ in the bundles as well (bundle.config.ts puts every entry and chunk there), so no caller's
// import.meta.url is needed, which bundling would change. The built app runs the .js entry. The tests run the .ts
// sources, which Node 20 cannot start as a worker's entry (it does not apply an --import'ed loader to a worker): they
// install a starter for those under SOURCE_WORKER_STARTER (test/support/source-workers.ts), and the app itself never
// loads a dev tool.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export const SOURCE_WORKER_STARTER = Symbol.for('deltaport.startSourceWorker');
export type SourceWorkerStarter = (entry: URL, options: WorkerOptions) => Worker;

// Paths, not `new URL('../', import.meta.url)`: Vite rewrites that form as an asset URL when it serves a module to a
// DOM test environment.
const here = fileURLToPath(import.meta.url);
const electronRoot = path.dirname(path.dirname(here));
const extension = path.extname(here);

/** `entry` is the worker module's path under electron/, without extension. */
export function startWorker(entry: string, options: WorkerOptions = {}): Worker {
  const url = pathToFileURL(path.join(electronRoot, `${entry}${extension}`));
  if (extension !== '.ts') return new Worker(url, options);
  const startSource = (globalThis as { [SOURCE_WORKER_STARTER]?: SourceWorkerStarter })[SOURCE_WORKER_STARTER];
  if (!startSource) throw new Error(`cannot start ${fileURLToPath(url)} as a worker: import test/support/source-workers.ts first`);
  return startSource(url, options);
}
