import { lstatSync, readdirSync, readFileSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';

interface FileIndex {
  /** Whether `rel` is a file that may be served: listed, or else as `check` finds it. */
  isFile(rel: string): boolean;
  /**
   * A listed file's size and time, read again once a second at most (so its headers are made
   * once); null when it is not listed: then `send` stats it.
   */
  known(rel: string): KnownFile | null;
}

/** A listed file's size and time, and its bytes when it is small enough to keep (see KEPT_BYTES). */
export interface KnownFile {
  size: number;
  mtime: Date;
  body?: Buffer;
  /** Its whole answer's headers, by the `_headers` rules' map they were made with (send-file.ts). */
  answers?: WeakMap<ReadonlyMap<string, string>, string[]>;
}

/** A file up to this size is kept in memory once read, while the files kept stay under KEPT_TOTAL. */
const KEPT_BYTES = 256 * 1024;
const KEPT_TOTAL = 64 * 1024 * 1024;

/**
 * The site's plain files, known in memory, so that a request costs no file-system call to find
 * its file (an `lstat` a path segment made `serve` answer 0.65 of sirv's requests a second).
 * Only regular files reached through real folders are listed: a path with a symbolic link on
 * it, or one not listed (a file added since), is asked of `check` (the segment-by-segment look of
 * static.ts), so a link is judged as before. A listed file is looked at again (one `lstat`) when
 * `trustMs` has passed since its last look: a second by default, as sirv trusts its files for
 * good and that one `lstat` a request still cost `serve` a sixth of its time; 0 in watch mode,
 * where a rebuild's files must be seen at once. A file replaced, by a build's rename or by a
 * link, is judged again and read again; one gone is no file. The folder is listed again when it
 * is another folder (a deploy swapping a link to it), looked at once a second. Not fs.watch: on
 * Linux, Node 20's recursive watch polls every file with a stat of its own, which cost more
 * than the lookups it saved.
 */
export function fileIndex(
  root: string,
  check: (rel: string) => boolean,
  trustMs = RECHECK_MS,
): FileIndex {
  let files = new Set<string>();
  let known = new Map<string, Kept>();
  let kept = 0;
  let identity: string | null = null;
  let checkedAt = -Infinity;
  const fresh = () => {
    const now = performance.now();
    if (now - checkedAt < RECHECK_MS) return now;
    checkedAt = now;
    const id = identityOf(root);
    if (id !== identity) {
      identity = id;
      files = listed(root);
      known = new Map();
      kept = 0;
    }
    return now;
  };
  /**
   * A listed file as it is now, looked at within `trustMs`: one `lstat` of it, no more. The same file as when it was read
   * (inode, size, time) is trusted as it was; another where it was is judged by `check` first
   * (a folder on its way may have become a link), and read again.
   */
  const validated = (rel: string, now: number): Kept | null => {
    const entry = known.get(rel);
    if (entry && now - entry.at < trustMs) return entry;
    const info = lstatSync(path.join(root, rel), { throwIfNoEntry: false });
    const stamp = info?.isFile() ? `${info.ino}:${info.size}:${info.mtimeMs}` : '';
    if (entry && entry.stamp === stamp) {
      entry.at = now;
      return entry;
    }
    kept -= entry?.file?.body?.length ?? 0;
    known.delete(rel);
    if (!info || !stamp || (entry && !check(rel))) {
      // Gone, or a link now: judged by `check` from here on.
      files.delete(rel);
      return null;
    }
    const file = read(path.join(root, rel), info, kept + KEPT_BYTES <= KEPT_TOTAL);
    kept += file?.body?.length ?? 0;
    const next = { at: now, stamp, file };
    known.set(rel, next);
    return next;
  };
  // Listed now, as sirv lists its folder when it starts: not on the first visitor's request.
  fresh();
  return {
    isFile(rel) {
      const now = fresh();
      if (!files.has(rel)) return check(rel);
      return validated(rel, now) !== null || check(rel);
    },
    known(rel) {
      const now = fresh();
      return files.has(rel) ? (validated(rel, now)?.file ?? null) : null;
    },
  };
}

interface Kept {
  /** When it was last looked at. */
  at: number;
  stamp: string;
  file: KnownFile | null;
}

/** How long the folder's identity is trusted. */
const RECHECK_MS = 1000;

/** A file's size and time, and its bytes when small and `keep` allows. */
function read(file: string, info: Stats, keep: boolean): KnownFile | null {
  const meta = { size: info.size, mtime: info.mtime };
  if (!keep || info.size > KEPT_BYTES) return meta;
  try {
    const body = readFileSync(file);
    // Changed between the two looks: not kept, sent from the disk.
    return body.length === info.size ? { ...meta, body } : meta;
  } catch {
    return null;
  }
}

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
