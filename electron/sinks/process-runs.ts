// Whether the process that left something behind (a partial file, a lease) still runs: what it left is then its own.

/** Whether a process of this machine still runs (EPERM: it runs, under another user). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
