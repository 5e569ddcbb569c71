// Runs the built CLI as its own process, as a user would, and measures it whole: wall time from spawn to exit, peak
// RSS and CPU time (reported by the preloaded report-usage module); and the benchmark's Python scripts the same way,
// which report their own usage. The processes are started by a launcher process forked when this module loads, while
// the benchmark is still small (see launcher.ts).
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LaunchReply, LaunchRequest } from './launch-messages.js';
import { USAGE_MARKER, type ChildUsage } from './usage-marker.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/test/bench -> dist/electron/cli/bin.js */
export const CLI_BIN = path.resolve(here, '../../electron/cli/bin.js');
/** dist/test/bench -> test/bench: tsc emits only its own output, so the scripts stay beside the sources. */
const PYTHON_SCRIPTS = path.resolve(here, '../../../test/bench');
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

function launch(program: string, argv: string[], env: Record<string, string> = {}): Promise<LaunchReply> {
  const id = nextId++;
  return new Promise<LaunchReply>((resolve) => {
    waiting.set(id, resolve);
    launcher.channel?.ref();
    launcher.send({ id, program, argv, env } satisfies LaunchRequest);
  }).finally(() => {
    if (waiting.size === 0) launcher.channel?.unref();
  });
}

/** The last line a failed process wrote, or its exit code. */
const lastLine = (text: string, code: number | null) => text.trim().split('\n').pop() || `exit code ${code}`;

const childRun = (reply: LaunchReply, usage: ChildUsage | null): ChildRun => ({
  ms: reply.ms,
  maxRssMb: usage && usage.maxRssKb / 1024,
  cpuSeconds: usage && usage.cpuMicros / 1e6,
  stdout: reply.stdout,
});

/** Starts the executable itself, so that its first line (chosen by electron/bundle.config.ts) starts Node as a user's
 * shell would. */
export async function runCli(args: string[]): Promise<ChildRun> {
  const reply = await launch(CLI_BIN, args, { NODE_OPTIONS: `--import ${PRELOAD}` });
  const { stderr, code } = reply;
  const marker = stderr.lastIndexOf(USAGE_MARKER);
  const usage = marker >= 0 ? (JSON.parse(stderr.slice(marker + USAGE_MARKER.length).split('\n')[0]) as ChildUsage) : null;
  if (code !== 0) throw new Error(`deltaport ${args[0]} failed: ${lastLine(marker >= 0 ? stderr.slice(0, marker) : stderr, code)}`);
  return childRun(reply, usage);
}

/** Runs one of the benchmark's Python scripts (in test/bench/), which reports its own usage: a JSON line on stdout
 * with ChildUsage's fields; with `niceness`, at that lower priority (nice(1)), for work that is not measured. */
export async function runPython(script: string, args: string[], { niceness }: { niceness?: number } = {}): Promise<ChildRun> {
  const argv = [path.join(PYTHON_SCRIPTS, script), ...args];
  const reply = await (niceness === undefined ? launch('python3', argv) : launch('nice', ['-n', String(niceness), 'python3', ...argv]));
  if (reply.code !== 0) throw new Error(`${script}: ${lastLine(reply.stderr, reply.code)}`);
  return childRun(reply, JSON.parse(reply.stdout) as ChildUsage);
}
