#!/usr/bin/env node
// The `deltaport` executable (package.json "bin", compiled to dist/electron/cli/bin.js and bundled there by
// electron/bundle.config.ts, which also chooses its first line: see cliExecutable there). It imports only what must
// run before the rest of the CLI is compiled, then loads the rest dynamically.
import { enableCompileCache } from '../state/compile-cache.js';
import { setEngineFlags } from '../threads/engine-flags.js';

enableCompileCache();
setEngineFlags();

// `deltaport preview ... | head` closes the pipe early: that is the reader being done, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`deltaport: cannot write the output: ${err.message}\n`);
  process.exit(1);
});

const { main } = await import('./main.js');
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: Boolean(process.stderr.isTTY),
  color: Boolean(process.stdout.isTTY),
});
