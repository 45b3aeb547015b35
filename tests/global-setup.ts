import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Builds in tests cache their share images in a folder of the run's own, never in the user's
// cache folder; the workers and the CLI processes they start inherit it.
export default function setup() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'claimsite-test-cache-'));
  process.env.CLAIMSITE_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
