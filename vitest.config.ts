import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Vitest's default on this project's 2-core machine is one worker (cores - 1): every file then
 * waits on the one before it, though most of a file's time is spent waiting on a child process,
 * a browser or a server, not on the cores. Three files at a time keep both cores busy;
 * CLAIMSITE_TEST_WORKERS overrides it (1 runs them one after another).
 */
const workers =
  Number(process.env.CLAIMSITE_TEST_WORKERS) || Math.max(3, os.availableParallelism() + 1);

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
