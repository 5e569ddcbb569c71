// Bundles the entries that start a fresh Node process or thread (the CLI, the job and scan workers) from tsc's output
// in dist/ into single files written over those entries, with shared code in dist/electron/chunks/. Why: a cold
// `deltaport preview` spent most of its time resolving and compiling ~200 ES modules, 158 of them apache-arrow's.
// Everything else in dist/ (the Electron main process, the benchmark) keeps running tsc's files unchanged.
// Every entry is written where its original module was, and every chunk one folder below dist/electron/, which is how
// bundled code still finds files from its own location (threads/start-worker.ts: the worker entries); no path is
// rewritten. The CLI's
// entry is then made executable, its first line chosen for this machine (cliExecutable).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { SEMI_SPACE_MB } from './threads/young-generation.js';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const outDir = path.join(dist, 'electron');
const chunks = 'chunks';
const entries = { 'cli/bin': 'cli/bin.js', 'jobs/worker': 'jobs/worker.js', 'delta/scan/scan-worker': 'delta/scan/scan-worker.js' };

// Loaded from node_modules at run time: native addons (better-sqlite3, DuckDB's @duckdb/node-bindings), the .wasm that parquet-wasm reads from
// beside its own file, and pg, whose optional native binding is looked up dynamically. DuckDB's JavaScript API
// (@duckdb/node-api, 124 CommonJS files) is bundled: imported from an ES module, each of its files was parsed again
// for its exports (Node's cjs-module-lexer), half the CPU time of a cold `deltaport sql`.
const external = [/^node:/, 'better-sqlite3', /^@duckdb\/node-bindings/, /^parquet-wasm(\/|$)/, 'pg', 'electron'];

/** Chunk names carry content hashes: the last build's chunks would otherwise pile up. */
function removeOldChunks(): Plugin {
  return {
    name: 'deltaport-remove-old-chunks',
    buildStart() {
      rmSync(path.join(outDir, chunks), { recursive: true, force: true });
    },
  };
}

/** The CLI's first line where this machine's `env` splits its argument (`-S`: GNU coreutils 8.30 and later, macOS, the
 * BSDs): Node with glibc's MALLOC_ARENA_MAX=1 and an export's young generation (young-generation.ts, which says why).
 * glibc gives each thread that allocates while another holds the lock an arena of its own (up to 8 per core), and
 * V8's helper threads kept ~30 MB of them resident for a whole export; with the one arena the benchmark's 2M-row
 * exports peaked 23-29 MiB lower at the same wall and CPU time. BusyBox's `env` (Alpine) has no -S and would refuse
 * the line, so there it stays plain; other C libraries ignore the variable, and npm's Windows shims read it from the
 * line. The build runs where the CLI will (npm install's prepare). */
const EXPORT_SHEBANG = `#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node --max-semi-space-size=${SEMI_SPACE_MB}`;

/** Makes the bundled CLI executable, with EXPORT_SHEBANG as its first line where `env -S` works here. */
function cliExecutable(): Plugin {
  return {
    name: 'deltaport-cli-executable',
    writeBundle() {
      const bin = path.join(outDir, 'cli/bin.js');
      if (spawnSync('/usr/bin/env', ['-S', 'true']).status === 0) {
        writeFileSync(bin, readFileSync(bin, 'utf8').replace(/^#!.*/, EXPORT_SHEBANG));
      }
      chmodSync(bin, 0o755);
    },
  };
}

/** The Spark jobs' Python files (handoff/python-sources.ts reads them as text), beside tsc's output of handoff/: tsc
 * copies no .py, and both the bundles and the unbundled main process find them there. */
function copyPythonSources(): Plugin {
  return {
    name: 'deltaport-copy-python-sources',
    writeBundle() {
      const from = fileURLToPath(new URL('./handoff/python/', import.meta.url));
      const to = path.join(outDir, 'handoff/python');
      mkdirSync(to, { recursive: true });
      for (const name of readdirSync(from).filter((f) => f.endsWith('.py'))) copyFileSync(path.join(from, name), path.join(to, name));
    },
  };
}

export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  plugins: [removeOldChunks(), cliExecutable(), copyPythonSources()],
  build: {
    ssr: true,
    target: 'node22',
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
