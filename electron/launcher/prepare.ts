// What `npm start` needs beyond `npm install`, fetched on first run (a user's machine has the network): Electron's
// own binary, which Electron's package downloads on first launch rather than at install, and better-sqlite3 built
// for Electron's ABI, as a prebuilt binary from better-sqlite3's releases (prebuild-install, which better-sqlite3
// itself installs with). Either failure is one line saying what went wrong and what to do instead.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DeltaportError } from '../../shared/errors.js';
import { electronBindingDir, electronBindingFile, installedSqliteVersion, PREPARE_COMMAND } from '../native/sqlite-binding.js';
import { electronPackageDir, electronRuntime, installedElectron } from './electron-runtime.js';

export const SERVE_INSTEAD = '`npx deltaport serve` gives the same app in a browser';

interface StepResult {
  code: number | null;
  stderr: string;
}

function runNode(script: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<StepResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** The first line of a failed step's output that says something, without the tool's log prefix. */
export function causeLine(stderr: string, prefix?: RegExp): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  const line = (prefix ? lines.find((l) => prefix.test(l))?.replace(prefix, '') : undefined) ?? lines[0];
  return line?.trim() || 'no message';
}

/** Runs Electron's installer, which returns at once when the binary is already there. */
export async function ensureElectronBinary(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const result = await runNode(path.join(electronPackageDir(), 'install.js'), [], { env });
  if (result.code !== 0) {
    throw new DeltaportError('MISSING_FILE', `the Electron binary could not be downloaded (${causeLine(result.stderr)}); ${SERVE_INSTEAD}`);
  }
}

/**
 * Puts better-sqlite3 built for the installed Electron where sqlite-binding.ts looks for it, unless it is there.
 * prebuild-install reads the package from its working folder and unpacks into --path, which must hold a
 * package.json of its own: better-sqlite3's is copied there (and records which version the binary belongs to).
 */
export async function ensureElectronSqlite(root: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const electron = installedElectron();
  const runtime = electronRuntime(electron);
  const version = installedSqliteVersion();
  const file = electronBindingFile(root, runtime, version);
  if (existsSync(file)) return file;
  const require = createRequire(import.meta.url);
  const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  const prebuildBin = path.join(path.dirname(require.resolve('prebuild-install/package.json')), 'bin.js');
  const dir = electronBindingDir(root, runtime, version);
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(sqliteDir, 'package.json'), path.join(dir, 'package.json'));
  const args = [
    '--runtime',
    'electron',
    '--target',
    electron.version,
    '--platform',
    runtime.platform,
    '--arch',
    runtime.arch,
    '--path',
    dir,
  ];
  const result = await runNode(prebuildBin, args, { cwd: sqliteDir, env });
  if (result.code !== 0 || !existsSync(file)) {
    rmSync(dir, { recursive: true, force: true });
    const cause = causeLine(result.stderr, /^prebuild-install (warn|ERR!) \S+ /);
    throw new DeltaportError(
      'MISSING_FILE',
      `better-sqlite3 for Electron ${electron.version} could not be downloaded (${cause}); run \`${PREPARE_COMMAND}\` with network access, or ${SERVE_INSTEAD}`,
    );
  }
  return file;
}
