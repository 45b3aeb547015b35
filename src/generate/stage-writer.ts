import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PageBytes } from '../render/fragments.js';
import { displayPath } from '../site/display-path.js';

/** Where a build stages its files; any thread can write there with its own StageWriter. */
export interface StageTarget {
  outDir: string;
  /** The sibling staging folder. */
  dir: string;
  /** True when the output folder exists: its files are compared, and moved into it one by one. */
  incremental: boolean;
}

/**
 * What one thread staged: how many files it wrote (new or changed; the others keep their
 * previous file) and, incremental, how to commit them. Which files the output has, and their
 * sizes, the build keeps itself (see PageState), so a thread's result does not grow with the
 * pages it kept.
 */
export interface StagedFiles {
  changed: number;
  /** Incremental: [staged file name, path in the output]. */
  moves: Array<[string, string]>;
}

/**
 * One thread's writes into a staging target. Several threads can write into the same target
 * at once: their pages are different files, and incremental staged names carry `prefix`.
 */
export class StageWriter {
  private readonly staged: StagedFiles = { changed: 0, moves: [] };
  private readonly madeDirs = new Set<string>();
  private scratch = Buffer.alloc(0);

  constructor(
    readonly target: StageTarget,
    private readonly prefix = '',
  ) {}

  /**
   * A file of the new output; written only if its bytes differ from the previous output's.
   * `owned`: the output folder's file at its path, if any, is the previous build's (else it is
   * never replaced). Returns whether the commit changes the file.
   */
  put(rel: string, data: string | Uint8Array, owned: boolean): boolean {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (!this.target.incremental) {
      const target = path.join(this.target.dir, rel);
      this.ensureDir(path.dirname(target));
      writeFileSync(target, bytes);
      this.staged.changed++;
      return true;
    }
    const old = readIfFile(path.join(this.target.outDir, rel));
    if (old && Buffer.compare(old, bytes) === 0) return false;
    if (old && !owned) throw new ForeignFileError(this.target, rel);
    const staged = `${this.prefix}${this.staged.moves.length}`;
    writeFileSync(path.join(this.target.dir, staged), bytes);
    this.staged.moves.push([staged, rel]);
    this.staged.changed++;
    return true;
  }

  /** A rendered page, assembled in a buffer reused from page to page. */
  putPage(rel: string, page: PageBytes, owned: boolean): boolean {
    if (this.scratch.length < page.size) this.scratch = Buffer.allocUnsafe(page.size * 2);
    page.copyTo(this.scratch, 0);
    return this.put(rel, this.scratch.subarray(0, page.size), owned);
  }

  result(): StagedFiles {
    return this.staged;
  }

  private ensureDir(dir: string) {
    if (this.madeDirs.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    // Most pages have a folder of their own, made once: remembering every one would grow with
    // the site, and only folders of many files (assets/) are asked for again.
    if (this.madeDirs.size >= MADE_DIRS) this.madeDirs.clear();
    this.madeDirs.add(dir);
  }
}

/** Folders remembered as made (see ensureDir). */
const MADE_DIRS = 1024;

/** A file of the output folder that the build did not write, and would replace. */
export class ForeignFileError extends Error {
  constructor(target: StageTarget, rel: string) {
    super(
      `${displayPath(path.join(target.outDir, rel))} was not written by claimsite, and this build would replace it. Move it into public/ to publish it with the site, or delete it.`,
    );
    this.name = 'ForeignFileError';
  }
}

export function readIfFile(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
