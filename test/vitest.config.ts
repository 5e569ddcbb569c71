import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/source-workers.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Two cores: suites that start servers or browsers must not pile up.
    maxWorkers: 2,
    // What tests print (fault and kill harnesses' run lists, the reason for a skip) is shown for a failed test only:
    // a passing run's log stays the list of files and the count, which CI reads for what ran. The reasons for skips
    // go to .ci/run's summary through skip-notes-reporter.ts.
    silent: 'passed-only',
    reporters: ['default', ['json', { outputFile: 'test-output/vitest-results.json' }], './test/support/skip-notes-reporter.ts'],
  },
});
