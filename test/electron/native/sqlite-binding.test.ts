import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../electron/app/package-root.js';
import { electronRuntime, installedElectron } from '../../../electron/launcher/electron-runtime.js';
import { BINDING_ENV, installedSqliteVersion, openDatabase, sqliteBinding, type Runtime } from '../../../electron/native/sqlite-binding.js';

const require = createRequire(import.meta.url);
const root = '/opt/deltaport';
const nodeRuntime: Runtime = { versions: { node: '20.19.0', modules: '115' }, env: {}, platform: 'linux', arch: 'x64' };
const electronMain: Runtime = { versions: { node: '22.20.0', modules: '150', electron: '45.5.0' }, env: {}, platform: 'linux', arch: 'x64' };
const electronFile = '/opt/deltaport/native/better-sqlite3-12.11.1-electron-v150-linux-x64/build/Release/better_sqlite3.node';

describe('which better-sqlite3 addon a runtime loads', () => {
  it('Node keeps the build npm installed (no nativeBinding), and it opens a database here', () => {
    expect(sqliteBinding(nodeRuntime, root, '12.11.1')).toBeUndefined();
    expect(sqliteBinding(process, packageRoot(), installedSqliteVersion())).toBeUndefined();
    const db = openDatabase(':memory:');
    expect(db.prepare('SELECT 6 * 7 AS n').get()).toEqual({ n: 42 });
    db.close();
  });

  it('Electron loads the build kept under native/, named by better-sqlite3 version, ABI, platform and arch', () => {
    expect(sqliteBinding(electronMain, root, '12.11.1')).toBe(electronFile);
    expect(sqliteBinding({ ...electronMain, platform: 'darwin', arch: 'arm64' }, root, '12.11.1')).toBe(
      '/opt/deltaport/native/better-sqlite3-12.11.1-electron-v150-darwin-arm64/build/Release/better_sqlite3.node',
    );
  });

  it('a thread of the Electron process loads what its main thread chose, passed in the environment', () => {
    const thread: Runtime = { ...nodeRuntime, versions: { node: '22.20.0', modules: '150' }, env: { [BINDING_ENV]: electronFile } };
    expect(sqliteBinding(thread, root, '12.11.1')).toBe(electronFile);
  });

  it('the launcher prepares exactly the file that the installed Electron will look for', () => {
    const electron = installedElectron();
    // node-abi (prebuild-install's own table) is the independent word on Electron's ABI.
    const { getAbi } = require('node-abi') as { getAbi(target: string, runtime: string): string };
    expect(electron.abi).toBe(getAbi(electron.version, 'electron'));
    const asLaunched: Runtime = { versions: { electron: electron.version, modules: getAbi(electron.version, 'electron') }, env: {}, platform: process.platform, arch: process.arch };
    expect(sqliteBinding(electronRuntime(electron), root, '1.0.0')).toBe(sqliteBinding(asLaunched, root, '1.0.0'));
  });

  it('a missing Electron build is one line saying what to run', async () => {
    const script = `import('./electron/native/sqlite-binding.ts').then((m) => { try { m.openDatabase(':memory:'); } catch (e) { console.log(e.message); } })`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: packageRoot(),
      env: { ...process.env, [BINDING_ENV]: path.join(packageRoot(), 'native', 'nowhere.node') },
      timeout: 30_000,
    });
    expect(stdout.trim().split('\n')).toEqual([
      `better-sqlite3 built for Electron is missing (${path.join(packageRoot(), 'native', 'nowhere.node')}); run \`npm run electron:prepare\` with network access`,
    ]);
  });
});
