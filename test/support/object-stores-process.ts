// Runs an object-store server as a child process that cannot outlive the test run: a shell between the two ends
// the server when its stdin closes, which stop() does and which also happens when the parent dies.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** The server's last lines of output, to explain a failed start. */
  lastOutput(): string;
  stop(): Promise<void>;
}

// sh gives a background job /dev/null for stdin, so the watcher reads the real one through fd 3. sh exits with the
// server (which is how an early exit shows), after removing the scratch folder it runs in, however the run ended.
const WATCH_STDIN =
  'exec 3<&0; "$@" </dev/null 3<&- & server=$!; (cat <&3 >/dev/null; kill "$server" 2>/dev/null) & exec 3<&-; ' +
  'wait "$server"; status=$?; rm -rf "$SERVER_HOME"; exit "$status"';

/** Starts command in a scratch folder of its own (removed when it ends); name tells the servers' folders apart. */
export function startServerProcess(name: string, command: string, args: string[]): ServerProcess {
  const home = mkdtempSync(path.join(tmpdir(), `deltaport-${name}-`));
  const child = spawn('sh', ['-c', WATCH_STDIN, 'sh', command, ...args], {
    cwd: home,
    env: { ...process.env, SERVER_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      output.push(line);
      if (output.length > 20) output.shift();
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    lastOutput: () => output.join(' | '),
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

/** Polls url until the server answers any HTTP status; throws one line naming the server if it exits or stays silent. */
export async function waitUntilServing(server: ServerProcess, name: string, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      await server.stop();
      throw new Error(`could not start ${name}: it exited (${server.child.exitCode ?? server.child.signalCode}): ${server.lastOutput()}`);
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`could not start ${name}: nothing answered on ${url} within ${timeoutMs / 1000} s: ${server.lastOutput()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The first JSON line a launcher prints (see object-stores-moto.py), or null if it exits or stays silent first. */
export function firstJsonLine<T>(server: ServerProcess, timeoutMs = 60_000): Promise<T | null> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: server.child.stdout });
    const silent = setTimeout(() => resolve(null), timeoutMs);
    const settle = (value: T | null) => {
      clearTimeout(silent);
      resolve(value);
    };
    lines.once('line', (line) => {
      try {
        settle(JSON.parse(line) as T);
      } catch {
        settle(null);
      }
    });
    lines.once('close', () => settle(null));
  });
}
