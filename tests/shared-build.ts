import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUNDLED_DATA, FIXTURE_DATA, runCliAsync } from './helpers.js';

/** How long a file waits for another to finish the build it started. */
const WAIT_MS = 10 * 60_000;

/**
 * The fixture or the bundled data built once per test run by the compiled CLI (`generate`, the
 * audit left out), for tests that only read it (serve it, open it in Chromium, check its
 * files): seven files built the same sites each for itself, from sources on their own thread.
 * The first file of the run to ask builds it; the others, in this worker or another, wait for
 * it. A test never writes into it.
 */
export async function sharedBuild(dataDir: string): Promise<string> {
  const name = dataDir === BUNDLED_DATA ? 'bundled' : dataDir === FIXTURE_DATA ? 'fixture' : null;
  if (!name) throw new Error(`no shared build of ${dataDir}`);
  const dir = path.join(process.env.CLAIMSITE_TEST_TMP ?? os.tmpdir(), `shared-${name}`);
  const dist = path.join(dir, 'dist');
  const done = path.join(dir, 'done');
  try {
    // The one that makes the folder builds.
    mkdirSync(dir);
  } catch {
    return waitFor(done, dist);
  }
  const built = await runCliAsync(['generate', '--data', dataDir, '--out', dist, '--no-audit']);
  writeFileSync(done, built.code === 0 ? '' : `exit ${built.code}: ${built.stderr}`);
  if (built.code !== 0) throw new Error(`the shared build ${dist} failed: ${built.stderr}`);
  return dist;
}

async function waitFor(done: string, dist: string): Promise<string> {
  const until = Date.now() + WAIT_MS;
  while (!existsSync(done)) {
    if (Date.now() > until) throw new Error(`the shared build ${dist} did not finish`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const failure = readFileSync(done, 'utf8');
  if (failure) throw new Error(`the shared build ${dist} failed: ${failure}`);
  return dist;
}
