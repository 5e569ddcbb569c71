// Lets the TypeScript sources start their worker threads (see electron/threads/start-worker.ts): each worker loads
// this module and then its .ts entry through tsx, so that workers it starts in turn can do the same. Vitest loads it
// for every test file (setupFiles); a child process running the sources gets it with RUN_SOURCES.
import { Worker } from 'node:worker_threads';
import { SOURCE_WORKER_STARTER, type SourceWorkerStarter } from '../../electron/threads/start-worker.js';

const self = import.meta.url;

/** node's arguments that run a .ts entry of this repository, worker threads included. */
export const RUN_SOURCES = ['--import', 'tsx', '--import', self];

const startSource: SourceWorkerStarter = (entry, options) => {
  const load = (url: string) => `tsx.tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)})`;
  const bootstrap = `import('tsx/esm/api').then(async (tsx) => { await ${load(self)}; await ${load(entry.href)}; })`;
  return new Worker(bootstrap, { ...options, eval: true });
};
(globalThis as { [SOURCE_WORKER_STARTER]?: SourceWorkerStarter })[SOURCE_WORKER_STARTER] = startSource;
