import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One folder for everything a test run writes (tests/helpers.ts tempDir), removed when the run
 * ends: a run leaves some gigabytes of built sites, and runs add up. Builds in tests also cache
 * their share images there, never in the user's cache folder; the workers and the CLI processes
 * they start inherit both.
 */
export default function setup() {
  const run = mkdtempSync(path.join(os.tmpdir(), 'claimsite-test-run-'));
  const cache = path.join(run, 'claimsite-test-cache-images');
  mkdirSync(cache);
  process.env.CLAIMSITE_TEST_TMP = run;
  process.env.CLAIMSITE_CACHE_DIR = cache;
  return () => rmSync(run, { recursive: true, force: true });
}
