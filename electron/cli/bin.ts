#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node
// The `deltaport` executable (package.json "bin", compiled to dist/electron/cli/bin.js and bundled there by
// electron/bundle.config.ts).
//
// MALLOC_ARENA_MAX=1: glibc gives each thread that allocates while another holds the lock an arena of its own (up to
// 8 per core), and V8's helper threads kept ~30 MB of them resident for the whole run. With the one arena the
// benchmark's 2M-row exports peaked 23-29 MiB lower at the same wall and CPU time (test/bench/child-run.ts starts the
// CLI as this line does). Other C libraries ignore the variable; `env -S` is what lets the line carry it.
import { main } from './main.js';
import { keepWasmBaselineFor } from './short-process.js';

keepWasmBaselineFor(process.argv[2]);

// `deltaport preview ... | head` closes the pipe early: that is the reader being done, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`deltaport: cannot write the output: ${err.message}\n`);
  process.exit(1);
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: Boolean(process.stderr.isTTY),
  color: Boolean(process.stdout.isTTY),
});
