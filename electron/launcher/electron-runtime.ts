// The installed Electron described as the runtime it will be once launched, read from its npm package without
// starting it (in plain Node, importing `electron` itself would try to download the binary).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Runtime } from '../native/sqlite-binding.js';

export function electronPackageDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

export function installedElectron(dir = electronPackageDir()): { version: string; abi: string } {
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  return { version, abi: readFileSync(path.join(dir, 'abi_version'), 'utf8').trim() };
}

/** What process.versions and friends will say inside that Electron, as far as the addon's choice depends on them. */
export function electronRuntime(electron: { version: string; abi: string }, env: NodeJS.ProcessEnv = {}): Runtime {
  return { versions: { electron: electron.version, modules: electron.abi }, env, platform: process.platform, arch: process.arch };
}
