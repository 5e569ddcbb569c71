import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../electron/app/package-root.js';
import { electronPackageDir } from '../../../electron/launcher/electron-runtime.js';
import { ensureElectronSqlite } from '../../../electron/launcher/prepare.js';

const root = packageRoot();
let dir: string;
let closedPort: number;

/** A loopback port with nothing listening: every download from it is refused at once. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-launcher-'));
  closedPort = await freePort();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('npm start without network', () => {
  it("is where Electron's binary comes from: its npm package runs nothing at install", () => {
    const electron = JSON.parse(fs.readFileSync(path.join(electronPackageDir(), 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    for (const hook of ['preinstall', 'install', 'postinstall']) expect(electron.scripts?.[hook]).toBeUndefined();
  });

  it('is the launcher after the build', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('npm run build && node dist/electron/launcher/start.js');
  });

  it('prints one line naming the failed Electron download and the browser alternative, and exits non-zero', async () => {
    // Electron's installer is pointed at a refused loopback port with an empty cache and a binary that is not there,
    // so the download fails here and on a networked machine alike.
    const env = {
      ...process.env,
      ELECTRON_MIRROR: `http://127.0.0.1:${closedPort}/`,
      electron_config_cache: path.join(dir, 'electron-cache'),
      ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'no-electron-here'),
    };
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [path.join(root, 'dist/electron/launcher/start.js')],
        { cwd: root, env, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err ? (child.exitCode ?? -1) : 0, stdout, stderr }),
      );
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Deltaport: the Electron binary could not be downloaded \(.*fetch failed.*\); `npx deltaport serve` gives the same app in a browser$/,
    );
  });

  it('reports a failed download of better-sqlite3 for Electron in one line and leaves no partial folder', async () => {
    const env = { ...process.env, npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${closedPort}` };
    await expect(ensureElectronSqlite(dir, env)).rejects.toThrow(
      new RegExp(
        `^better-sqlite3 for Electron [\\d.]+ could not be downloaded \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${closedPort}\\); ` +
          'run `npm run electron:prepare` with network access, or `npx deltaport serve` gives the same app in a browser$',
      ),
    );
    expect(fs.existsSync(path.join(dir, 'native')) && fs.readdirSync(path.join(dir, 'native'))).toEqual([]);
  });
});
