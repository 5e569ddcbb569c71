// Runs the built CLI as its own process, as a user would, and measures it whole: wall time from spawn to exit, peak
// RSS and CPU time (reported by the preloaded report-usage module). The processes are started by a launcher process
// forked when this module loads, while the benchmark is still small (see launcher.ts).
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LaunchReply, LaunchRequest } from './launch-messages.js';
import { USAGE_MARKER, type ChildUsage } from './usage-marker.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/test/bench -> dist/electron/cli/bin.js */
export const CLI_BIN = path.resolve(here, '../../electron/cli/bin.js');
const PRELOAD = pathToFileURL(path.join(here, 'report-usage.js')).href;

const launcher = fork(path.join(here, 'launcher.js'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const waiting = new Map<number, (reply: LaunchReply) => void>();
let nextId = 0;
launcher.on('message', (reply: LaunchReply) => {
  waiting.get(reply.id)?.(reply);
  waiting.delete(reply.id);
});
// The launcher must not keep the benchmark alive once nothing waits for it.
launcher.unref();
launcher.channel?.unref();

export interface ChildRun {
  ms: number;
  maxRssMb: number | null;
  cpuSeconds: number | null;
  stdout: string;
}

export async function runCli(args: string[]): Promise<ChildRun> {
  const id = nextId++;
  const reply = await new Promise<LaunchReply>((resolve) => {
    waiting.set(id, resolve);
    launcher.channel?.ref();
    launcher.send({ id, argv: ['--import', PRELOAD, CLI_BIN, ...args] } satisfies LaunchRequest);
  }).finally(() => {
    if (waiting.size === 0) launcher.channel?.unref();
  });
  const { stdout, stderr, code } = reply;
  const marker = stderr.lastIndexOf(USAGE_MARKER);
  const usage = marker >= 0 ? (JSON.parse(stderr.slice(marker + USAGE_MARKER.length).split('\n')[0]) as ChildUsage) : null;
  if (code !== 0) {
    const message = (marker >= 0 ? stderr.slice(0, marker) : stderr).trim().split('\n').pop() || `exit code ${code}`;
    throw new Error(`deltaport ${args[0]} failed: ${message}`);
  }
  return { ms: reply.ms, maxRssMb: usage && usage.maxRssKb / 1024, cpuSeconds: usage && usage.cpuMicros / 1e6, stdout };
}
