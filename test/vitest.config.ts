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
    reporters: ['default', ['json', { outputFile: 'test-output/vitest-results.json' }]],
  },
});
