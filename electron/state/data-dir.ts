// Where Deltaport keeps its state and the sample table, and where it keeps what it can make again (caches).
// DELTAPORT_DATA_DIR wins for both (tests, portable installs); Electron passes its own userData folder; `deltaport
// serve` and the CLI use the platform's usual config folder.
import os from 'node:os';
import path from 'node:path';

export function resolveDataDir(
  env: NodeJS.ProcessEnv = process.env,
  electronUserData?: string,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.DELTAPORT_DATA_DIR) return path.resolve(env.DELTAPORT_DATA_DIR);
  if (electronUserData) return electronUserData;
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'deltaport');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'deltaport');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'deltaport');
}

/** The platform's folder for files that may be deleted at any time (a backup skips them), or `cache` in a data folder
 * of its own (DELTAPORT_DATA_DIR), so that a portable install or a test leaves nothing behind elsewhere. */
export function resolveCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.DELTAPORT_DATA_DIR) return path.join(path.resolve(env.DELTAPORT_DATA_DIR), 'cache');
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'deltaport', 'Cache');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'deltaport');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'deltaport');
}
