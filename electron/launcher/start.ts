// `npm start` after the build: fetches Electron's binary on first run (with progress), checks that Linux will let its
// sandbox start, then runs the app from the package root with any arguments given (`npm start -- <table>`). With
// --prepare-only it stops after the download (`npm run electron:prepare`). A failure is one line on stderr and exit
// code 1, never a stack trace.
import { spawn } from 'node:child_process';
import { toErrorValue } from '../../shared/errors.js';
import { packageRoot } from '../app/package-root.js';
import { ensureElectronBinary } from './electron-download.js';
import { readSandboxFacts, sandboxBlock } from './linux-sandbox.js';

async function main(argv: string[]): Promise<number> {
  const prepareOnly = argv[0] === '--prepare-only';
  let binary: string;
  try {
    binary = await ensureElectronBinary(process.stderr);
  } catch (err) {
    process.stderr.write(`Deltaport: ${toErrorValue(err).message}\n`);
    return 1;
  }
  if (prepareOnly) return 0;
  const blocked = process.platform === 'linux' ? sandboxBlock(readSandboxFacts(binary), binary) : null;
  if (blocked) {
    process.stderr.write(`Deltaport: ${blocked}\n`);
    return 1;
  }
  const child = spawn(binary, [packageRoot(), ...argv], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

process.exitCode = await main(process.argv.slice(2));
