import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { displayPath } from '../site/display-path.js';

/** The build will not write into this folder; the message says why and what to do. */
class OutputRefused extends Error {
  constructor(outDir: string, why: string, todo: string) {
    super(`Refusing to build into ${displayPath(outDir)}: ${why}. ${todo}`);
    this.name = 'OutputRefused';
  }
}

/** A folder the build reads from or belongs to, which the output must never hold. */
export interface Protected {
  dir: string;
  /** How the message names it: "the data folder", "the project". */
  what: string;
  /** An input the build reads: the output may not be inside it either (only hold it is refused otherwise). */
  input?: boolean;
}

/** Version-control metadata a publishing worktree keeps in the output (`git worktree add dist gh-pages`). */
export const KEPT_ENTRIES: readonly string[] = ['.git'];

/**
 * Decides whether a build may write into `outDir`, before anything is written. It may when the
 * folder does not exist, is empty (or holds only `.git`), or holds a previous claimsite output
 * (`ours`: the record of the last build beside it). Never the file system's root, the home
 * folder, a folder that holds any protected folder, or one inside an input.
 */
export function guardOutput(
  outDir: string,
  options: { protect: readonly Protected[]; ours: boolean },
): void {
  const out = realPath(outDir);
  const named = (why: string) =>
    new OutputRefused(outDir, why, 'Choose a folder of its own for the site, such as --out dist.');
  if (out === path.parse(out).root) throw named('it is the root of the file system');
  if (out === realPath(os.homedir())) throw named('it is your home folder');
  for (const p of options.protect) {
    const dir = realPath(p.dir);
    if (contains(out, dir))
      throw named(out === dir ? `it is ${p.what}` : `it holds ${p.what} (${displayPath(p.dir)})`);
    if (p.input && contains(dir, out))
      throw named(`it is inside ${p.what} (${displayPath(p.dir)})`);
  }
  const info = statSync(out, { throwIfNoEntry: false });
  if (!info) return;
  if (!info.isDirectory())
    throw new OutputRefused(outDir, 'it is a file, not a folder', 'Choose a folder with --out.');
  if (options.ours) return;
  const foreign = readdirSync(out).filter((n) => !KEPT_ENTRIES.includes(n));
  if (foreign.length > 0) {
    throw new OutputRefused(
      outDir,
      `it is not empty (${describe(foreign)}) and holds no previous claimsite output`,
      'Choose a new or empty folder with --out, or empty this one yourself; files the site should publish belong in public/.',
    );
  }
}

/** True when `outer` is `inner` or one of its ancestors. */
function contains(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The real path of `p`, following links; for a path not made yet, its nearest existing parent's. */
function realPath(p: string): string {
  const abs = path.resolve(p);
  if (existsSync(abs)) return realpathSync.native(abs);
  const parent = path.dirname(abs);
  return parent === abs ? abs : path.join(realPath(parent), path.basename(abs));
}

function describe(names: string[]): string {
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}

/**
 * The folder of the project a command runs in: the nearest folder up from `from` with a
 * package.json or a .git, else `from` itself. An output there would hold the project's sources.
 */
export function projectRoot(from = process.cwd()): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) || existsSync(path.join(dir, '.git')))
      return dir;
    if (path.dirname(dir) === dir) return path.resolve(from);
  }
}
