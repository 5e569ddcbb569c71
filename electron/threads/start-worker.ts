// Starts a worker thread from a module next to the caller. The built app runs the .js entry directly. Under vitest
// and tsx the sources are .ts: Node 20 does not apply an --import'ed loader to a worker's entry, so a small
// bootstrap loads the .ts entry through tsx's tsImport instead.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `entry` is the worker module's name without extension, resolved next to `callerUrl` (its import.meta.url). */
export function startWorker(callerUrl: string, entry: string, options: WorkerOptions = {}): Worker {
  const extension = path.extname(fileURLToPath(callerUrl));
  const url = new URL(`./${entry}${extension}`, callerUrl);
  if (extension !== '.ts') return new Worker(url, options);
  const bootstrap = `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(callerUrl)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
