// Loading node-pg (pg-connection.ts): its Cloudflare Workers check must not make Node load its fetch implementation
// (on Node 22 it reads navigator.userAgent; on Node 20, which had no navigator, it built a fetch Response).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_SOURCES } from '../../support/source-workers.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('loading the PostgreSQL client', () => {
  it('does not load the fetch implementation in a fresh process', async () => {
    const script = [
      "await import('./electron/sinks/pg-connection.ts');",
      "process.stdout.write(String(process.moduleLoadList.some((m) => m.includes('undici'))));",
    ].join('\n');
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [...RUN_SOURCES, '--input-type=module', '-e', script], { cwd: root }, (err, out) =>
        err ? reject(err) : resolve(out),
      );
    });
    expect(stdout).toBe('false');
  });
});
