import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from '../scripts/chromium.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's one Chromium, for every browser test to connect to (tests/e2e/harness.ts). */
    chromiumEndpoint: string | null;
  }
}

/**
 * One folder for everything a test run writes (tests/helpers.ts tempDir), removed when the run
 * ends: a run leaves some gigabytes of built sites, and runs add up. Builds in tests also cache
 * their share images there, never in the user's cache folder; the workers and the CLI processes
 * they start inherit both. And one Chromium for the run: fifteen files each launching their
 * own spent a second or more apiece, and as much memory again while files run side by side.
 */
export default async function setup(project: TestProject) {
  const run = mkdtempSync(path.join(os.tmpdir(), 'claimsite-test-run-'));
  const cache = path.join(run, 'claimsite-test-cache-images');
  mkdirSync(cache);
  process.env.CLAIMSITE_TEST_TMP = run;
  process.env.CLAIMSITE_CACHE_DIR = cache;
  // Without Chromium each browser test launches its own, and fails saying what is missing.
  const server = await chromium
    .launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    .catch(() => null);
  project.provide('chromiumEndpoint', server?.wsEndpoint() ?? null);
  return async () => {
    await server?.close();
    // Retried: a build a failed test left running may still be writing there.
    rmSync(run, { recursive: true, force: true, maxRetries: 5 });
  };
}
