// Electron's entry (package.json "main"): turns on Node's compile cache (state/compile-cache.ts) before the main
// process's modules are compiled, then loads them (main.ts). The import is awaited: Electron emits `ready` only once
// its entry has been evaluated, and main.ts registers the app:// scheme and takes the single-instance lock before that.
import module from 'node:module';
import { enableCompileCache } from './state/compile-cache.js';

enableCompileCache();
await import('./main.js');
// Node writes the cache when the process exits normally; the app may run for days and end by a crash or a kill.
module.flushCompileCache();
