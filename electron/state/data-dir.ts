// Where Deltaport keeps its state and the sample table. DELTAPORT_DATA_DIR wins (tests, portable installs); Electron
// passes its own userData folder; `deltaport serve` and the CLI use the platform's usual config folder.
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
