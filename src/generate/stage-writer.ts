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
  /** The files of the output folder that the previous build wrote: the only ones it may replace. */
  previous: Readonly<Record<string, number>>;
}

/** What one thread staged: files of the new output (new, changed or kept) and how to commit them. */
export interface StagedFiles {
  /** Files written (new or changed); the others keep their previous file. */
  changed: number;
  paths: string[];
  /** The size of each of `paths`. */
  sizes: number[];
  /** Incremental: [staged file name, path in the output]. */
  moves: Array<[string, string]>;
}

/**
 * One thread's writes into a staging target. Several threads can write into the same target
 * at once: their pages are different files, and incremental staged names carry `prefix`.
 */
export class StageWriter {
  private readonly staged: StagedFiles = {
    changed: 0,
    paths: [],
    sizes: [],
    moves: [],
  };
  private readonly madeDirs = new Set<string>();
  private scratch = Buffer.alloc(0);

  constructor(
    readonly target: StageTarget,
    private readonly prefix = '',
  ) {}

  /** A file of the new output; written only if its bytes differ from the previous output's. */
  put(rel: string, data: string | Uint8Array): void {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    this.count(rel, bytes.byteLength);
    if (!this.target.incremental) {
      const target = path.join(this.target.dir, rel);
      this.ensureDir(path.dirname(target));
      writeFileSync(target, bytes);
      this.staged.changed++;
      return;
    }
    const old = readIfFile(path.join(this.target.outDir, rel));
    if (old && Buffer.compare(old, bytes) === 0) return;
    if (old && this.target.previous[rel] === undefined)
      throw new ForeignFileError(this.target, rel);
    const staged = `${this.prefix}${this.staged.moves.length}`;
    writeFileSync(path.join(this.target.dir, staged), bytes);
    this.staged.moves.push([staged, rel]);
    this.staged.changed++;
  }

  /** A rendered page, assembled in a buffer reused from page to page. */
  putPage(rel: string, page: PageBytes): void {
    if (this.scratch.length < page.size) this.scratch = Buffer.allocUnsafe(page.size * 2);
    page.copyTo(this.scratch, 0);
    this.put(rel, this.scratch.subarray(0, page.size));
  }

  /** A file of the previous output kept as it is. */
  kept(rel: string, size: number): void {
    this.count(rel, size);
  }

  result(): StagedFiles {
    return this.staged;
  }

  private count(rel: string, size: number) {
    this.staged.paths.push(rel);
    this.staged.sizes.push(size);
  }

  private ensureDir(dir: string) {
    if (this.madeDirs.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.madeDirs.add(dir);
  }
}

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
