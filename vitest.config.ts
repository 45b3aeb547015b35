import os from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/slowest-first.js';

/**
 * The files that hold a server or a process to a bound in time or memory (a page within 1 s
 * beside 1,000 idle sockets, a drain's p99 under 50 ms, a graceful stop within 8 s, a first lead
 * taken within 5 s after a kill): they measure the code, not its neighbours, so they run one at a
 * time, after the rest, with the machine to themselves.
 */
const SYSTEM = [
  'tests/serve-fair.test.ts',
  'tests/watch.test.ts',
  'tests/deploy.test.ts',
  'tests/share-images.test.ts',
  'tests/lead/drain-pages.test.ts',
  'tests/lead/faults.test.ts',
  'tests/lead/store-harm.test.ts',
  'tests/lead/crm.test.ts',
  'tests/lead/production.test.ts',
];

/**
 * The rest (units, builds, browser pages) side by side: most of their time is spent waiting (on
 * a child process, a server, Chromium), so more files than cores keep both cores busy.
 * CLAIMSITE_TEST_WORKERS sets how many.
 */
const workers = Number(process.env.CLAIMSITE_TEST_WORKERS) || os.availableParallelism() + 1;

export default defineConfig({
  test: {
    globalSetup: ['tests/global-setup.ts'],
    // Files side by side share the cores: a test's time limit allows for that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    sequence: { sequencer: SlowestFirst },
    // Each file's time, for docs/tests.md's slowest twenty (scripts/test-times.mjs).
    reporters: ['default', 'json'],
    outputFile: { json: 'node_modules/.cache/claimsite-tests/last-run.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'side-by-side',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: SYSTEM,
          maxWorkers: workers,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'one-at-a-time',
          include: SYSTEM,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
