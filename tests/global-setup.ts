import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { CHROMIUM } from '../scripts/chromium.mjs';

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
  const browser = existsSync(CHROMIUM) ? await startChromium() : null;
  project.provide('chromiumEndpoint', browser?.endpoint ?? null);
  return async () => {
    browser?.child.stdin?.end();
    // Retried: a build a failed test left running may still be writing there.
    rmSync(run, { recursive: true, force: true, maxRetries: 5 });
  };
}

/** scripts/chromium-server.mjs, and the endpoint it prints (null if it printed none). */
async function startChromium(): Promise<{ child: ChildProcess; endpoint: string } | null> {
  const script = path.join(import.meta.dirname, '../scripts/chromium-server.mjs');
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const endpoint = await new Promise<string | null>((resolve) => {
    lines.once('line', resolve);
    child.once('exit', () => resolve(null));
  });
  lines.close();
  return endpoint ? { child, endpoint } : null;
}
