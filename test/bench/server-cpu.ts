// The CPU time the PostgreSQL server spent on one measured run: the work every exporter of the same rows pays, beside
// the exporter's own, which together bound an export on a machine whose cores both share. Read from the postmaster:
// every backend is its child, and Linux adds a child's CPU time to its parent's (cutime and cstime in
// /proc/<pid>/stat) when the parent reaps it. So only backends that ended count, not the benchmark's own open
// connections; an autovacuum worker that ran and ended meanwhile counts too. Only where the server is a local process
// this one can read: the benchmark's own server, on Linux.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/** Starts measuring; the function it returns waits until the backends started since have ended and been reaped,
 * then gives the CPU seconds the server's ended processes used meanwhile. */
export type ServerCpu = () => Promise<() => Promise<number>>;

const SETTLE_POLL_MS = 20;
/** A backend whose client has exited ends at once; one still there after this is stuck, not slow. */
const SETTLE_LIMIT_MS = 10_000;
/** A client backend's title names its client's address and port: `postgres: user db 127.0.0.1(40312) idle`. */
const CLIENT_TITLE = /\(\d+\)/;

/** The meter for the server behind `databaseUrl`, or why there is none. */
export async function serverCpu(databaseUrl: string): Promise<ServerCpu | { error: string }> {
  if (process.platform !== 'linux') return { error: 'needs /proc (Linux)' };
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(databaseUrl).hostname)) return { error: 'the server is not on this machine' };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let postmaster: number;
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const status = await fs.readFile(`/proc/${rows[0].pid}/status`, 'utf8').catch(() => '');
    postmaster = Number(/^PPid:\s*(\d+)/m.exec(status)?.[1] ?? 0);
  } finally {
    await client.end();
  }
  if (!postmaster || (await fs.readFile(`/proc/${postmaster}/comm`, 'utf8').catch(() => '')).trim() !== 'postgres') {
    return { error: 'the server is not a process this one can read' };
  }
  const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  return async () => {
    const before = new Set(await children(postmaster));
    const started = await reapedTicks(postmaster);
    return async () => {
      for (const deadline = performance.now() + SETTLE_LIMIT_MS; ; await sleep(SETTLE_POLL_MS)) {
        const titles = await Promise.all((await children(postmaster)).filter((pid) => !before.has(pid)).map(title));
        // A child that exited and is not yet reaped has no title.
        if (!titles.some((t) => t === '' || CLIENT_TITLE.test(t))) break;
        if (performance.now() > deadline) throw new Error(`backends of the run were still there ${SETTLE_LIMIT_MS / 1000} s after it`);
      }
      return ((await reapedTicks(postmaster)) - started) / ticksPerSecond;
    };
  };
}

async function children(pid: number): Promise<number[]> {
  // The postmaster has one thread, whose id is its pid.
  const text = await fs.readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return text.split(' ').filter(Boolean).map(Number);
}

async function title(pid: number): Promise<string> {
  return (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ').trim();
}

/** The user and system time of the process's reaped children, in clock ticks. */
async function reapedTicks(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from the 3rd (state): cutime is the 16th, cstime the 17th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[13]) + Number(fields[14]);
}
