// A small process that starts the benchmark's measured processes and times them. The benchmark itself grows to
// hundreds of MB (the limits' data, the database clients), and a process forked from one that large starts about
// 0.1 s later: a cold preview would be charged for the benchmark's own memory. Forked while the benchmark is still
// small, this process stays small.
import { spawn } from 'node:child_process';
import type { LaunchReply, LaunchRequest } from './launch-messages.js';

process.on('message', (request: LaunchRequest) => {
  const started = performance.now();
  const child = spawn(request.program, request.argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...request.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const reply = (r: Omit<LaunchReply, 'id'>) => process.send!({ id: request.id, ...r } satisfies LaunchReply);
  child.once('error', (err) => reply({ ms: performance.now() - started, code: null, stdout, stderr: err.message }));
  child.once('close', (code) => reply({ ms: performance.now() - started, code, stdout, stderr }));
});
process.on('disconnect', () => process.exit(0));
