// `npm start` after the build: prepares what Electron needs (prepare.ts), then runs the app from the package root
// with any arguments given (`npm start -- <table>`). With --prepare-only it stops after preparing (`npm run dist`
// and the command an error names). A failure is one line on stderr and exit code 1, never a stack trace.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { toErrorValue } from '../../shared/errors.js';
import { packageRoot } from '../app/package-root.js';
import { electronPackageDir } from './electron-runtime.js';
import { ensureElectronBinary, ensureElectronSqlite } from './prepare.js';

async function main(argv: string[]): Promise<number> {
  const root = packageRoot();
  const prepareOnly = argv[0] === '--prepare-only';
  try {
    if (!prepareOnly) await ensureElectronBinary();
    await ensureElectronSqlite(root);
  } catch (err) {
    process.stderr.write(`Deltaport: ${toErrorValue(err).message}\n`);
    return 1;
  }
  if (prepareOnly) return 0;
  // Electron's own launcher script forwards signals and the app's exit code.
  const child = spawn(process.execPath, [path.join(electronPackageDir(), 'cli.js'), root, ...argv], { stdio: 'inherit' });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

process.exitCode = await main(process.argv.slice(2));
