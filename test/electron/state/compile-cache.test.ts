// Node's compile cache for the built CLI (dist/, as `npm test` builds it), in new processes: where its folder is made,
// and that a second start takes the CLI's compiled code from it. Node's own trace (NODE_DEBUG_NATIVE=COMPILE_CACHE)
// says which modules it read from the folder and accepted, so nothing here depends on timing.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveCacheDir } from '../../../electron/state/data-dir.js';
import { tablePath } from '../../support/tables.js';

const BIN = path.resolve(import.meta.dirname, '../../../dist/electron/cli/bin.js');
const scratch = mkdtempSync(path.join(tmpdir(), 'deltaport-compile-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The environment of a user whose home is `home`, with none of the variables that move the cache. */
function userEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, ...extra };
  for (const name of ['XDG_CACHE_HOME', 'DELTAPORT_DATA_DIR', 'NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'APPIMAGE']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

function preview(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = ['preview', tablePath('simple_table'), '--format', 'csv', '--limit', '2'];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/** The modules Node's trace says it took from the cache folder. */
function accepted(trace: string): string[] {
  return [...trace.matchAll(/cache for (\S+) was accepted/g)].map((m) => path.basename(new URL(m[1]).pathname));
}

const entries = (folder: string) => (existsSync(folder) ? readdirSync(folder, { recursive: true }) : []);

describe('the compile cache of the CLI', () => {
  it("is made in the user's cache folder (~/.cache/deltaport/compile-cache) and used by the next start", async () => {
    const home = path.join(scratch, 'home');
    const first = await preview(userEnv(home));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const folder = path.join(home, '.cache', 'deltaport', 'compile-cache');
    expect(entries(folder).length).toBeGreaterThan(0);

    const second = await preview(userEnv(home, { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }));
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const taken = accepted(second.stderr);
    // The command's own module and the reader's: what a preview compiles after bin.js.
    expect(taken.some((file) => file.startsWith('preview-command-'))).toBe(true);
    expect(taken.some((file) => file.startsWith('table-'))).toBe(true);
  });

  it('follows XDG_CACHE_HOME', async () => {
    const home = path.join(scratch, 'home-xdg');
    const cache = path.join(scratch, 'xdg-cache');
    expect((await preview(userEnv(home, { XDG_CACHE_HOME: cache }))).code).toBe(0);
    expect(entries(path.join(cache, 'deltaport', 'compile-cache')).length).toBeGreaterThan(0);
    expect(existsSync(path.join(home, '.cache'))).toBe(false);
  });

  it('stays inside a data folder of its own (DELTAPORT_DATA_DIR), leaving the home folder alone', async () => {
    const home = path.join(scratch, 'home-portable');
    const data = path.join(scratch, 'portable');
    expect((await preview(userEnv(home, { DELTAPORT_DATA_DIR: data }))).code).toBe(0);
    expect(entries(path.join(data, 'cache', 'compile-cache')).length).toBeGreaterThan(0);
    expect(existsSync(home)).toBe(false);
  });

  it('goes where NODE_COMPILE_CACHE says', async () => {
    const home = path.join(scratch, 'home-moved');
    const moved = path.join(scratch, 'moved');
    expect((await preview(userEnv(home, { NODE_COMPILE_CACHE: moved }))).code).toBe(0);
    expect(entries(moved).length).toBeGreaterThan(0);
    expect(existsSync(home)).toBe(false);
  });

  it('is left off in an AppImage, whose files move at every launch (APPIMAGE set)', async () => {
    const home = path.join(scratch, 'home-appimage');
    const run = await preview(userEnv(home, { APPIMAGE: '/opt/Deltaport.AppImage' }));
    expect(run.code).toBe(0);
    expect(existsSync(path.join(home, '.cache'))).toBe(false);
  });

  it('is left off with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const home = path.join(scratch, 'home-off');
    const run = await preview(userEnv(home, { NODE_DISABLE_COMPILE_CACHE: '1' }));
    expect(run.code).toBe(0);
    expect(existsSync(path.join(home, '.cache'))).toBe(false);
  });
});

describe("the platform's cache folder", () => {
  it('is the one each platform sets aside for caches', () => {
    expect(resolveCacheDir({}, 'linux', '/home/ann')).toBe('/home/ann/.cache/deltaport');
    expect(resolveCacheDir({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Caches/deltaport');
    expect(resolveCacheDir({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'win32', 'C:\\Users\\ann')).toBe(
      path.join('C:\\Users\\ann\\AppData\\Local', 'deltaport', 'Cache'),
    );
  });
});
