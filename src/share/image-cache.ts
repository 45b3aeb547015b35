import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import envPaths from 'env-paths';

/**
 * Share images drawn by earlier builds, kept in the project's cache folder (see defaultCacheDir,
 * as other generators keep processed images), so that a build into a new folder does not draw them again: drawing
 * one takes about 15 ms, copying it a fraction of that. Files are named by the key of what they
 * show, written whole (a temporary file renamed into place), and removed once no build has
 * written them for PRUNE_AFTER_DAYS. Nothing but our own `<key>.png` files is ever removed.
 * A cache that cannot be read or written is no cache: the build draws the images itself.
 */
export class ImageCache {
  private wrote = false;
  private readonly cached: RegExp;

  /**
   * `dir` null: no cache. `ext` and `looksWhole` for files other than share images (owner
   * photos' AVIF, WebP and JPEG files share the folder, each kind pruned by its own cache).
   */
  constructor(
    readonly dir: string | null,
    private readonly ext = 'png',
    private readonly looksWhole: (bytes: Uint8Array) => boolean = isPng,
  ) {
    // Our files only: a key of 64 hex digits, or one of ours left half-written.
    this.cached = new RegExp(`^[0-9a-f]{64}\\.${ext}(\\.\\d+(-\\d+)?\\.tmp)?$`);
  }

  get(key: string): Uint8Array | null {
    if (!this.dir) return null;
    try {
      const bytes = readFileSync(path.join(this.dir, `${key}.${this.ext}`));
      return this.looksWhole(bytes) ? bytes : null;
    } catch {
      return null;
    }
  }

  /** Whether an image is cached, without reading it (see drawAhead). */
  has(key: string): boolean {
    return this.dir !== null && existsSync(path.join(this.dir, `${key}.${this.ext}`));
  }

  /** Images were added by another thread of this build: prune after it as after a put. */
  markWritten(): void {
    this.wrote = true;
  }

  /** Caches an image; false when it could not be written (the cache is then no cache). */
  put(key: string, bytes: Uint8Array): boolean {
    if (!this.dir) return false;
    const file = path.join(this.dir, `${key}.${this.ext}`);
    // The thread too: several drawing threads of one build write beside each other.
    const temp = `${file}.${process.pid}-${threadId}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temp, bytes);
      renameSync(temp, file);
      this.wrote = true;
      return true;
    } catch {
      rmSync(temp, { force: true });
      return false;
    }
  }

  /** Removes images no build has written for a while; only after a build added some. */
  prune(now = Date.now()): void {
    if (!this.dir || !this.wrote) return;
    try {
      for (const name of readdirSync(this.dir)) {
        if (!this.cached.test(name)) continue;
        const file = path.join(this.dir, name);
        const info = statSync(file, { throwIfNoEntry: false });
        if (info && now - info.mtimeMs > PRUNE_AFTER_DAYS * 86_400_000)
          rmSync(file, { force: true });
      }
    } catch {
      // Another build may be pruning too; what is left is left for the next one.
    }
  }
}

export const PRUNE_AFTER_DAYS = 90;

const isPng = (bytes: Uint8Array) =>
  bytes.length > 8 &&
  bytes[0] === 0x89 &&
  bytes[1] === 0x50 &&
  bytes[2] === 0x4e &&
  bytes[3] === 0x47;

/**
 * Where share images are cached: `CLAIMSITE_CACHE_DIR` if set (empty: no cache); else
 * `node_modules/.cache/claimsite` of the project the build runs in (the nearest folder up from
 * `from` with a package.json, when its node_modules is there and writable), the folder that
 * hosts keep between builds and bundlers share; else the system's cache folder for claimsite
 * (`~/.cache/claimsite` on Linux).
 */
export function defaultCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  from = process.cwd(),
): string | null {
  const set = env.CLAIMSITE_CACHE_DIR;
  if (set !== undefined) return set === '' ? null : path.resolve(set, 'share-images');
  const modules = projectModules(from);
  const root = modules
    ? path.join(modules, '.cache', 'claimsite')
    : envPaths('claimsite', { suffix: '' }).cache;
  return path.join(root, 'share-images');
}

/** The node_modules folder of the nearest project up from `from`, if there and writable. */
function projectModules(from: string): string | null {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) {
      const modules = path.join(dir, 'node_modules');
      try {
        accessSync(modules, constants.W_OK);
        return modules;
      } catch {
        return null;
      }
    }
    if (path.dirname(dir) === dir) return null;
  }
}
