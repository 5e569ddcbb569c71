// An export run in a child process (test/electron/sinks/export-child.ts) and killed with SIGKILL once it has
// reported a number of committed rows: a crash at a point of the test's choosing.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { RUN_SOURCES } from './source-workers.js';

/** Runs the export in a child process and kills it once it has reported `rows` committed rows; returns that count. */
export function killMidway(request: object, rows: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...RUN_SOURCES, path.join(import.meta.dirname, '../electron/sinks/export-child.ts')], {
      env: { ...process.env, DELTAPORT_CHILD_EXPORT: JSON.stringify(request) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = 0;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      for (const m of d.toString().matchAll(/committed (\d+)/g)) seen = Math.max(seen, Number(m[1]));
      if (seen >= rows && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(seen);
      else reject(new Error(`the export child ended on its own (code ${code}) before it was killed: ${stderr.split('\n')[0]}`));
    });
  });
}
