import { closeSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';
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
  /** Where a rendered page is assembled. */
  private readonly scratch = new ReusedBuffer();
  /** Where the previous output's file is read to be compared (see compare). */
  private readonly previous = new ReusedBuffer();

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
    const old = this.compare(path.join(this.target.outDir, rel), bytes);
    if (old === 'same') return false;
    if (old === 'different' && !owned) throw new ForeignFileError(this.target, rel);
    const staged = `${this.prefix}${this.staged.moves.length}`;
    writeFileSync(path.join(this.target.dir, staged), bytes);
    this.staged.moves.push([staged, rel]);
    this.staged.changed++;
    return true;
  }

  /** A rendered page, assembled in a buffer reused from page to page. */
  putPage(rel: string, page: PageBytes, owned: boolean): boolean {
    const scratch = this.scratch.for(page.size);
    page.copyTo(scratch, 0);
    return this.put(rel, scratch.subarray(0, page.size), owned);
  }

  /**
   * Whether the file at `file` holds `bytes`: 'none' if there is no file there. A file of
   * another size is not read, and one of the same size is read into a buffer kept from call to
   * call: a buffer a page piles up as garbage outside V8's heap, which V8 collects only once
   * tens of megabytes of it are held (a 10x render in place peaked 30 MiB higher with them).
   */
  private compare(file: string, bytes: Uint8Array): 'none' | 'same' | 'different' {
    let info: ReturnType<typeof statSync>;
    try {
      info = statSync(file, { throwIfNoEntry: false });
    } catch {
      // Not there as a file (a file where its folder should be): the commit will say so.
      return 'none';
    }
    if (!info?.isFile()) return 'none';
    if (info.size !== bytes.length) return 'different';
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return 'none';
    }
    try {
      const previous = this.previous.for(bytes.length);
      let read = 0;
      while (read < bytes.length) {
        const n = readSync(fd, previous, read, bytes.length - read, read);
        if (n === 0) return 'different';
        read += n;
      }
      return Buffer.compare(previous.subarray(0, read), bytes) === 0 ? 'same' : 'different';
    } finally {
      closeSync(fd);
    }
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

/**
 * A buffer used again from page to page, grown with room to spare. Pages are tens of kilobytes;
 * a larger one (the HTML sitemap page of a national network is many megabytes) gets a buffer of
 * its own, not kept.
 */
class ReusedBuffer {
  private kept = Buffer.alloc(0);

  /** A buffer of at least `size` bytes, valid until the next call. */
  for(size: number): Buffer {
    if (this.kept.length >= size) return this.kept;
    const buffer = Buffer.allocUnsafe(size * 2 <= KEPT_MAX ? size * 2 : Math.max(size, KEPT_MAX));
    if (buffer.length <= KEPT_MAX) this.kept = buffer;
    return buffer;
  }
}

const KEPT_MAX = 1 << 20;

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
