// `npm start` as a user runs it, against Electron download mirrors on loopback: one that refuses every connection
// (no network) and one that serves a stand-in Electron build with its checksum file. The launcher runs from a
// temporary package whose node_modules/electron is a copy, so that the download lands there, not in this checkout.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../electron/app/package-root.js';
import { electronPackageDir, installedElectronVersion } from '../../../electron/launcher/electron-runtime.js';
import { freePort } from '../../support/free-port.js';

const root = packageRoot();
const version = installedElectronVersion();
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
let dir: string;
let pkg: string;
let mirror: http.Server;
let mirrorUrl: string;
let requests: string[] = [];

/** A package folder with the built launcher, the rest of node_modules linked, and a copy of Electron's npm package. */
function temporaryPackage(): string {
  const at = path.join(dir, 'package');
  fs.mkdirSync(path.join(at, 'node_modules'), { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(at, 'package.json'));
  fs.cpSync(path.join(root, 'dist', 'electron'), path.join(at, 'dist', 'electron'), { recursive: true });
  fs.cpSync(path.join(root, 'dist', 'shared'), path.join(at, 'dist', 'shared'), { recursive: true });
  for (const name of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (name !== 'electron') fs.symlinkSync(path.join(root, 'node_modules', name), path.join(at, 'node_modules', name));
  }
  const electron = electronPackageDir();
  fs.mkdirSync(path.join(at, 'node_modules', 'electron'));
  for (const file of ['package.json', 'install.js', 'checksums.json', 'index.js', 'cli.js']) {
    fs.copyFileSync(path.join(electron, file), path.join(at, 'node_modules', 'electron', file));
  }
  return at;
}

/** A zip holding an executable `electron` that prints its arguments (Electron's layout for Linux, in miniature) and
 * 4 MB that does not compress, so that the download takes several steps. */
function standInZip(): Buffer {
  const file = path.join(dir, zipName);
  const script = `import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    info = zipfile.ZipInfo('electron')
    info.external_attr = 0o100755 << 16
    z.writestr(info, '#!/bin/sh\\necho "stand-in electron started with $*"\\n')
    z.writestr('version', sys.argv[2])
    z.writestr('filler', os.urandom(4_000_000))
`;
  execFileSync('python3', ['-c', script, file, version]);
  return fs.readFileSync(file);
}

function runLauncher(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(pkg, 'dist/electron/launcher/start.js'), 'some-table'],
      { cwd: pkg, env: { ...process.env, electron_config_cache: path.join(dir, 'electron-cache'), ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? (child.exitCode ?? -1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-launcher-'));
  pkg = temporaryPackage();
  const zip = standInZip();
  const sums = `${createHash('sha256').update(zip).digest('hex')} *${zipName}\n`;
  mirror = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === `/v${version}/${zipName}`) {
      // Sent in eight pieces apart in time, as a real download arrives, so that progress has steps to show.
      res.writeHead(200, { 'content-length': zip.length });
      const step = Math.ceil(zip.length / 8);
      const send = (at: number): void => {
        if (at >= zip.length) return void res.end();
        res.write(zip.subarray(at, at + step));
        setTimeout(() => send(at + step), 50);
      };
      send(0);
    } else if (req.url === `/v${version}/SHASUMS256.txt`) {
      res.end(sums);
    } else {
      res.writeHead(404).end();
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => mirror.listen(port, '127.0.0.1', resolve));
  mirrorUrl = `http://127.0.0.1:${port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => mirror?.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it("is the launcher after the build, and Electron's npm package downloads nothing at install", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toBe('npm run build && node dist/electron/launcher/start.js');
    const electron = JSON.parse(fs.readFileSync(path.join(electronPackageDir(), 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    for (const hook of ['preinstall', 'install', 'postinstall']) expect(electron.scripts?.[hook]).toBeUndefined();
  });

  it('without network prints one line naming the failed Electron download and the browser alternative', async () => {
    const run = await runLauncher({ ELECTRON_MIRROR: `http://127.0.0.1:${await freePort()}/` });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((l) => l && !l.startsWith('Downloading'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^Deltaport: the Electron binary could not be downloaded \(fetch failed: .*ECONNREFUSED.*\); `npx deltaport serve` gives the same app in a browser$/,
      ),
    ]);
    expect(fs.existsSync(path.join(pkg, 'node_modules', 'electron', 'path.txt'))).toBe(false);
  });

  it('downloads Electron with progress, checks it against the mirror checksum, unpacks it and starts it', async () => {
    requests = [];
    const run = await runLauncher({ ELECTRON_MIRROR: mirrorUrl, electron_use_remote_checksums: '1' });
    // Not a terminal: a line at the start and at every tenth reached.
    const label = `Downloading Electron ${version} for ${process.platform}-${process.arch} (first start only)`;
    const progress = run.stderr.split('\n').filter(Boolean);
    expect(progress[0]).toBe(`${label}: 0%`);
    expect(progress.at(-1)).toBe(`${label}: 100% of 4 MB`);
    const percents = progress.map((line) => Number(/: (\d+)%/.exec(line)?.[1]));
    expect(percents.length).toBeGreaterThan(3);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(`stand-in electron started with ${pkg} some-table`);
    // The zip once: Electron's installer takes it from the cache (it asks again for the checksums, which are small).
    expect(requests.filter((url) => url.endsWith('.zip'))).toEqual([`/v${version}/${zipName}`]);
    // The second start finds it installed and downloads nothing.
    requests = [];
    const again = await runLauncher({ ELECTRON_MIRROR: mirrorUrl, electron_use_remote_checksums: '1' });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(requests).toEqual([]);
  });
});
