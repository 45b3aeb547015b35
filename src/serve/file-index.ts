import { type FSWatcher, readdirSync, statSync, watch } from 'node:fs';
import path from 'node:path';

/**
 * The site's plain files, known in memory, so that a request costs no file-system call to find
 * its file (an `lstat` a path segment made `serve` answer 0.65 of sirv's requests a second).
 * Only regular files reached through real folders are listed: a path with a symbolic link on
 * it, or one not listed, is asked of `check` (the segment-by-segment look of static.ts), so a
 * link is judged as before. The folder is watched: after any change the index is not trusted
 * (every look goes to `check`) until it is read again, once changes have been quiet for a moment;
 * the folder's own identity is looked at once a second (a deploy that swaps a link to it).
 */
export interface FileIndex {
  /** Whether `rel` is a file that may be served: listed, or else as `check` finds it. */
  isFile(rel: string): boolean;
  /**
   * A listed file's size and time, read once while nothing changes (so its headers are made
   * once); null when it is not listed or a change is under way: then `send` stats it.
   */
  known(rel: string): { size: number; mtime: Date } | null;
}

export function fileIndex(root: string, check: (rel: string) => boolean): FileIndex {
  let files: Set<string> | null = null;
  let stats = new Map<string, { size: number; mtime: Date } | null>();
  let dirty = true;
  let changedAt = 0;
  let identity = '';
  let checkedAt = -Infinity;
  let watcher: FSWatcher | null = null;
  const changed = () => {
    dirty = true;
    changedAt = performance.now();
  };
  const rebuild = () => {
    if (!watcher) {
      try {
        watcher = watch(root, { recursive: true, persistent: false }, changed);
        watcher.on('error', () => {
          watcher?.close();
          watcher = null;
          files = null;
          changed();
        });
      } catch {
        // No watching here (a file system that cannot): every look goes to `check`.
        files = null;
        changedAt = performance.now();
        return;
      }
    }
    dirty = false;
    files = listed(root);
    stats = new Map();
  };
  const fresh = () => {
    const now = performance.now();
    if (now - checkedAt >= 1000) {
      checkedAt = now;
      const id = identityOf(root);
      if (id !== identity) {
        // Another folder where the root was: watched anew.
        identity = id;
        watcher?.close();
        watcher = null;
        changed();
      }
    }
    if (dirty && now - changedAt >= QUIET_MS) rebuild();
    return dirty ? null : files;
  };
  return {
    isFile(rel) {
      const listing = fresh();
      return listing?.has(rel) || check(rel);
    },
    known(rel) {
      const listing = fresh();
      if (!listing?.has(rel)) return null;
      let info = stats.get(rel);
      if (info === undefined) {
        const s = statSync(path.join(root, rel), { throwIfNoEntry: false });
        info = s?.isFile() ? { size: s.size, mtime: s.mtime } : null;
        stats.set(rel, info);
      }
      return info;
    },
  };
}

/** Changes quiet this long (a build writing its files) before the folder is read again. */
const QUIET_MS = 200;

function identityOf(root: string): string {
  const info = statSync(root, { throwIfNoEntry: false });
  return info ? `${info.dev}:${info.ino}` : '';
}

/** Every regular file under `root` reached through real folders, relative, forward slashes. */
function listed(root: string): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(path.join(dir, e.name), `${prefix}${e.name}/`);
      else if (e.isFile()) out.add(prefix + e.name);
    }
  };
  walk(root, '');
  return out;
}
