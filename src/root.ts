import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's own folder (where data/, src/client and src/styles live), from src or lib. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('claimsite: cannot find its package folder');
    dir = up;
  }
  return dir;
}

/**
 * The running code's identity: the hash of the compiled CLI bundle (which holds every template).
 * Running from sources (tests, development) there is no bundle to identify, so null.
 */
export function codeVersion(): string | null {
  if (!isCompiled()) return null;
  // Read once: the build asks for it before its data loads and after.
  version ??= createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex')
    .slice(0, 16);
  return version;
}

let version: string | undefined;

/** True when running the compiled CLI (lib/cli.cjs), false when running from sources. */
export function isCompiled(): boolean {
  return fileURLToPath(import.meta.url).endsWith(`${path.sep}lib${path.sep}cli.cjs`);
}
