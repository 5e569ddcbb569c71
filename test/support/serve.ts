// Starts the real browser host (`dist/electron/cli/bin.js serve --port 0`, the executable itself, so through its
// shebang line as a shell would) with its own data folder, and reads the URL it prints as its first line. Needs the
// build (npm run build).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { ExportRequest, JobInfo, Result } from '../../shared/api.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const CLI_BIN = path.join(REPO_ROOT, 'dist/electron/cli/bin.js');

export interface ServedApp {
  /** The URL with its token, as printed. */
  url: string;
  dataDir: string;
  /** The host's process id (its shebang's `env` execs node in place, so the id is node's). */
  pid: number;
  /** What the host wrote to stderr so far, for failure messages. */
  stderr(): string;
  /** One call of the host's API, as the page makes it (POST /api/<method> with the token). */
  call<T>(method: string, body: unknown): Promise<Result<T>>;
  stop(): Promise<void>;
}

export async function startServe(): Promise<ServedApp> {
  if (!fs.existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run npm run build first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-e2e-'));
  const child = spawn(CLI_BIN, ['serve', '--port', '0'], {
    env: { ...process.env, DELTAPORT_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (errors += chunk));

  const url = await firstLine(child, () => errors);
  return {
    url,
    dataDir,
    pid: child.pid!,
    stderr: () => errors,
    call: async <T>(method: string, body: unknown) => {
      const { origin, searchParams } = new URL(url);
      const res = await fetch(`${origin}/api/${method}`, {
        method: 'POST',
        headers: { 'X-Deltaport-Token': searchParams.get('token')! },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Result<T>;
    },
    stop: async () => {
      await stopChild(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The value of one call of the host's API; a refusal throws, with its code and message. */
export async function apiValue<T>(served: ServedApp, method: string, arg: unknown = null): Promise<T> {
  const result = await served.call<T>(method, arg);
  if (!result.ok) throw new Error(`${method}: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Starts an export through the host's API and waits for its job to end (a minute at most): its last record. */
export async function exportToEnd(served: ServedApp, request: ExportRequest): Promise<JobInfo> {
  const job = await apiValue<JobInfo>(served, 'startExport', request);
  let done = job;
  for (let i = 0; i < 600 && (done.state === 'queued' || done.state === 'running'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    done = (await apiValue<JobInfo[]>(served, 'listJobs')).find((j) => j.id === job.id)!;
  }
  return done;
}

function firstLine(child: ChildProcess, errors: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => fail(new Error(`deltaport serve printed no URL within 30 s. stderr: ${errors()}`)), 30_000);
    const onExit = (code: number | null) =>
      fail(new Error(`deltaport serve exited (code ${code}) before printing its URL. stderr: ${errors()}`));
    function fail(err: Error) {
      clearTimeout(timer);
      child.off('exit', onExit);
      lines.close();
      child.kill('SIGKILL');
      reject(err);
    }
    child.once('exit', onExit);
    lines.once('line', (line) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      // Later output is not ours to read, but it must be drained so the host never blocks on a full pipe.
      lines.close();
      child.stdout!.resume();
      if (/^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/.test(line)) resolve(line);
      else reject(new Error(`deltaport serve's first line is not its URL: ${line}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
