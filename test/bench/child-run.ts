// Runs the built CLI as its own process, as a user would, and measures it whole: wall time from spawn to exit, peak
// RSS and CPU time (reported by the preloaded report-usage module).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { USAGE_MARKER, type ChildUsage } from './usage-marker.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/test/bench -> dist/electron/cli/bin.js */
export const CLI_BIN = path.resolve(here, '../../electron/cli/bin.js');
const PRELOAD = pathToFileURL(path.join(here, 'report-usage.js')).href;

export interface ChildRun {
  ms: number;
  maxRssMb: number | null;
  cpuSeconds: number | null;
  stdout: string;
}

export async function runCli(args: string[]): Promise<ChildRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PRELOAD, CLI_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const ms = performance.now() - started;
  const marker = stderr.lastIndexOf(USAGE_MARKER);
  const usage = marker >= 0 ? (JSON.parse(stderr.slice(marker + USAGE_MARKER.length).split('\n')[0]) as ChildUsage) : null;
  if (code !== 0) {
    const message = (marker >= 0 ? stderr.slice(0, marker) : stderr).trim().split('\n').pop() || `exit code ${code}`;
    throw new Error(`deltaport ${args[0]} failed: ${message}`);
  }
  return { ms, maxRssMb: usage && usage.maxRssKb / 1024, cpuSeconds: usage && usage.cpuMicros / 1e6, stdout };
}
