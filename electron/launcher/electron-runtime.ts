// The installed Electron, read from its npm package without starting it (in plain Node, importing `electron` itself
// would try to download the binary).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export function electronPackageDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
}

export function installedElectronVersion(dir = electronPackageDir()): string {
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Electron's executable as its npm package runs it once downloaded (path.txt names it inside dist/), or null. */
export function electronExecutable(dir = electronPackageDir()): string | null {
  const pathFile = path.join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(dir, 'dist'), readFileSync(pathFile, 'utf8'));
  return existsSync(binary) ? binary : null;
}
