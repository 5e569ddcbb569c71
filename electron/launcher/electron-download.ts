// Electron's own binary (~100 MB), which its npm package downloads on first launch rather than at install. The
// download runs here, through the same @electron/get call and cache as Electron's installer, so that the user sees
// progress; the installer then finds the file in the cache and only unpacks it. A failure is one line.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { downloadArtifact } from '@electron/get';
import { DeltaportError } from '../../shared/errors.js';
import { electronExecutable, electronPackageDir, installedElectronVersion } from './electron-runtime.js';

export const SERVE_INSTEAD = '`npx deltaport serve` gives the same app in a browser';

/** Where progress goes: a terminal gets one line rewritten in place, anything else a line every tenth. */
export interface ProgressOut {
  isTTY?: boolean;
  write(text: string): unknown;
}

export function progressReporter(out: ProgressOut, label: string): (percent: number, total: number) => void {
  let shownTenth = -1;
  return (percent, total) => {
    const whole = Math.floor(percent * 100);
    const size = total > 0 ? ` of ${Math.round(total / 1e6)} MB` : '';
    if (out.isTTY) {
      out.write(`\r${label}: ${whole}%${size}${percent >= 1 ? '\n' : ''}`);
    } else if (Math.floor(whole / 10) > shownTenth) {
      shownTenth = Math.floor(whole / 10);
      out.write(`${label}: ${whole}%${size}\n`);
    }
  };
}

/** The first line of a failure that says something, without stack frames. */
export function causeLine(message: string): string {
  const line = message
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('at '));
  return line || 'no message';
}

function runInstaller(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(electronPackageDir(), 'install.js')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Downloads (with progress on `out`) and unpacks Electron's binary unless it is there; returns its path. */
export async function ensureElectronBinary(out: ProgressOut, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const ready = electronExecutable();
  if (ready) return ready;
  const version = installedElectronVersion();
  const label = `Downloading Electron ${version} for ${process.platform}-${process.arch} (first start only)`;
  // The installer's own options, so that it finds this download in the cache: checksums from its package unless the
  // user asked for the mirror's, the cache folder from the same variable.
  const remoteChecksums = env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums;
  const checksums = remoteChecksums ? undefined : (createRequire(import.meta.url)('electron/checksums.json') as Record<string, string>);
  const report = progressReporter(out, label);
  report(0, 0);
  try {
    await downloadArtifact({
      version,
      artifactName: 'electron',
      platform: process.platform,
      arch: process.arch,
      cacheRoot: env.electron_config_cache,
      checksums,
      downloadOptions: { quiet: true, getProgressCallback: (p: { percent: number; total?: number }) => report(p.percent, p.total ?? 0) },
    });
  } catch (err) {
    throw new DeltaportError(
      'MISSING_FILE',
      `the Electron binary could not be downloaded (${causeLine(errorText(err))}); ${SERVE_INSTEAD}`,
    );
  }
  const installed = await runInstaller(env);
  const binary = electronExecutable();
  if (installed.code !== 0 || !binary) {
    throw new DeltaportError(
      'MISSING_FILE',
      `the Electron binary could not be unpacked (${causeLine(installed.stderr)}); ${SERVE_INSTEAD}`,
    );
  }
  return binary;
}

/** Node's fetch hides the network cause ("fetch failed") in err.cause: both are named. */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}
