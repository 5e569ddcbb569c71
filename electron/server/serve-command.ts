// `deltaport serve [--port N]`: the app in a browser. Prints the URL to open (token included) as its first line and
// serves until interrupted; on the way out it cancels running jobs and closes the state file.
import path from 'node:path';
import type { DeltaportEvents } from '../../shared/api.js';
import { createApiService } from '../app/api-service.js';
import { rendererDir } from '../app/package-root.js';
import { sampleTableProvider } from '../app/sample.js';
import { JobRunner } from '../jobs/job-runner.js';
import { StorageConnections } from '../app/storage-connections.js';
import { SQL_TEMP_FOLDER } from '../sql/limits.js';
import { AppState, STATE_FILE_NAME } from '../state/app-state.js';
import { resolveDataDir } from '../state/data-dir.js';
import { startHttpHost } from './http-host.js';

export interface ServeIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Stops the server when aborted (tests); otherwise SIGINT or SIGTERM does. */
  signal?: AbortSignal;
}

const USAGE = 'usage: deltaport serve [--port N]   (N = 0 or absent: any free port)';

export async function runServe(args: string[], io: ServeIo): Promise<number> {
  const parsed = parseServeArgs(args);
  if ('help' in parsed) {
    io.stdout.write(`${USAGE}\nServes the Deltaport UI on 127.0.0.1 and prints the address to open.\n`);
    return 0;
  }
  if ('error' in parsed) {
    io.stderr.write(`deltaport serve: ${parsed.error}\n${USAGE}\n`);
    return 2;
  }

  const dataDir = resolveDataDir();
  // No OS keychain here: saved profiles keep no passwords (they say so).
  const state = AppState.open(path.join(dataDir, STATE_FILE_NAME), { encryptor: null });
  if (state.setAsidePath) io.stderr.write(`deltaport serve: the state file was unreadable and was moved to ${state.setAsidePath}\n`);
  // One engine's settings for every read, made from the saved storage connections (and again when they change).
  const connections = new StorageConnections(state);
  const jobs = new JobRunner({ store: state, engine: connections.settings });
  const sampleTable = sampleTableProvider(dataDir);
  const events: DeltaportEvents = { onJobEvent: (listener) => jobs.onJobEvent(listener) };
  let host;
  try {
    host = await startHttpHost({
      api: createApiService({ state, jobs, connections, sampleTable, sqlTempDirectory: path.join(dataDir, SQL_TEMP_FOLDER) }),
      events,
      staticRoot: rendererDir(),
      port: parsed.port,
    });
  } catch (err) {
    state.close();
    io.stderr.write(`deltaport serve: cannot listen on port ${parsed.port}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  io.stdout.write(`${host.url}\n`);
  // First run: have the sample ready by the time someone asks for it.
  sampleTable().catch((err: unknown) => io.stderr.write(`deltaport serve: could not write the sample table: ${String(err)}\n`));

  await untilStopped(io.signal);
  await jobs.cancelAll();
  await host.close();
  state.close();
  return 0;
}

export function parseServeArgs(args: string[]): { port: number } | { help: true } | { error: string } {
  let port = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    const value = arg === '--port' ? args[++i] : arg.startsWith('--port=') ? arg.slice('--port='.length) : undefined;
    if (value === undefined) return { error: arg === '--port' ? '--port needs a number' : `unknown argument "${arg}"` };
    if (!/^\d+$/.test(value) || Number(value) > 65535) return { error: `--port must be a number from 0 to 65535, not "${value}"` };
    port = Number(value);
  }
  return { port };
}

function untilStopped(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}
