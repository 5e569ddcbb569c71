// Node's compile cache (V8's code for each module, kept on disk): a new process then skips parsing and compiling
// what it ran before, about a fifth of a cold `deltaport preview`'s CPU time. It must be on before the modules it
// should cover are loaded, so each entry (the CLI's bin.ts, the app's start-main.ts) turns it on first and then
// imports the rest dynamically. Node checks each entry against the module's source, so a stale entry is never used.
import module from 'node:module';
import path from 'node:path';
import { resolveCacheDir } from './data-dir.js';

/** The folder, under Deltaport's cache folder, unless NODE_COMPILE_CACHE names another. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.NODE_COMPILE_CACHE || path.join(resolveCacheDir(env), 'compile-cache');
}

/** Turns the cache on for this process and, through NODE_COMPILE_CACHE, for its worker threads (each of which starts
 * a Node instance of its own, which reads the variable). Never fails: without it the process is only slower, and
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off. Not in an AppImage (which sets APPIMAGE): it mounts itself at a new path
 * at every launch, and Node keys its entries by the module's path, so the cache would only grow, never be used. */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  if (env.APPIMAGE) return;
  const { directory } = module.enableCompileCache(compileCacheDir(env));
  if (directory) env.NODE_COMPILE_CACHE = directory;
}
