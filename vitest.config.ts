import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One file at a time by default: the tests that hold a server to a bound (a page within 1 s
 * beside 1,000 idle sockets, a drain's p99 under 50 ms) measure the server, not its neighbours,
 * and on a 2-core machine three files side by side made them fail. CLAIMSITE_TEST_WORKERS=3
 * runs three at a time where that does not matter (a quick local run).
 */
const workers =
  Number(process.env.CLAIMSITE_TEST_WORKERS) || Math.max(1, os.availableParallelism() - 1);

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['tests/global-setup.ts'],
    // Files side by side share the cores: a test's time limit allows for that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: workers,
    // Each file's time, for docs/tests.md's slowest twenty (scripts/test-times.mjs).
    reporters: ['default', 'json'],
    outputFile: { json: 'node_modules/.cache/claimsite-tests/last-run.json' },
  },
});
