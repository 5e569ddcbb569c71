// Bundles the entries that start a fresh Node process or thread (the CLI, the job and scan workers) from tsc's output
// in dist/ into single files written over those entries, with shared code in dist/electron/chunks/. Why: a cold
// `deltaport preview` spent most of its time resolving and compiling ~200 ES modules, 158 of them apache-arrow's.
// Everything else in dist/ (the Electron main process, the benchmark) keeps running tsc's files unchanged.
// Every output file sits one folder below dist/electron/, as its original module did, which is how bundled code still
// finds files from its own location (threads/start-worker.ts: the worker entries); nothing is rewritten.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const outDir = path.join(dist, 'electron');
const chunks = 'chunks';
const entries = { 'cli/bin': 'cli/bin.js', 'jobs/worker': 'jobs/worker.js', 'delta/scan-worker': 'delta/scan-worker.js' };

// Loaded from node_modules at run time: native addons, the .wasm that parquet-wasm reads from beside its own file,
// and pg, whose optional native binding is looked up dynamically.
const external = [/^node:/, 'better-sqlite3', /^parquet-wasm(\/|$)/, 'pg', 'electron'];

/** Chunk names carry content hashes: the last build's chunks would otherwise pile up. */
function removeOldChunks(): Plugin {
  return {
    name: 'deltaport-remove-old-chunks',
    buildStart() {
      rmSync(path.join(outDir, chunks), { recursive: true, force: true });
    },
  };
}

export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  plugins: [removeOldChunks()],
  build: {
    ssr: true,
    target: 'node20',
    outDir,
    emptyOutDir: false,
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    rolldownOptions: {
      input: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.join(outDir, file)])),
      external,
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: `${chunks}/[name]-[hash].js` },
    },
  },
  ssr: { target: 'node', noExternal: true },
});
