#!/usr/bin/env node
// The `deltaport` executable (package.json "bin", compiled to dist/electron/cli/bin.js).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: Boolean(process.stderr.isTTY),
  color: Boolean(process.stdout.isTTY),
});
