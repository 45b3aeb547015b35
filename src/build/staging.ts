import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { isAlive } from '../process.js';
import type { PageBytes } from '../render/fragments.js';
import { displayPath } from '../site/display-path.js';

/**
 * How a build's files reach the output folder without ever leaving it half-made, and without
 * touching anything the build did not write: a failed or killed build leaves the previous output
 * as it was, or (killed while committing) a commit that the next build completes before it does
 * anything else.
 *
 * - New folder, when the output folder does not exist yet: every file goes into a sibling
 *   staging tree that becomes the output with one rename.
 * - Into the folder, when it exists (empty, holding only `.git`, or a previous output of ours):
 *   only files whose bytes change are staged, as flat files in a sibling folder. The commit
 *   writes a journal of moves and deletions, fsyncs it and renames it into place, which decides
 *   the commit; then it applies it. Files whose bytes did not change are never touched, so they
 *   keep their inode and modification time (hosts that sync by time upload only what changed).
 *   Only files the previous build wrote (its manifest's) are ever deleted or replaced: anything
 *   else in the folder (`.git`, a file the owner put there) stays as it is, and a file of the
 *   new output that would replace one of those stops the build.
 *
 * File calls are synchronous: measured here, writing 3,200 pages takes a third of the time of
 * fs/promises, and the build has nothing else to do meanwhile.
 */
export class Staging {
  /** This thread's files; other threads' arrive through `add`. */
  private readonly own: StageWriter;
  private readonly others: StagedFiles[] = [];
  /** Set once the journal is in place: from then on the commit belongs to the next build too. */
  private decided = false;

  private constructor(readonly target: StageTarget) {
    this.own = new StageWriter(target);
  }

  /**
   * `previous`: the files of the previous build in the output folder, from its manifest; null
   * for none. Call `recoverOutput` first, so a commit a killed build left is complete.
   */
  static open(outDir: string, previous: Readonly<Record<string, number>> | null): Staging {
    const out = path.resolve(outDir);
    const dir = siblingName(out, `staging-${process.pid}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    const incremental = existsSync(out);
    return new Staging({
      outDir: out,
      dir,
      incremental,
      previous: incremental ? (previous ?? {}) : {},
    });
  }

  put(rel: string, data: string | Uint8Array): void {
    this.own.put(rel, data);
  }

  putPage(rel: string, page: PageBytes): void {
    this.own.putPage(rel, page);
  }

  /**
   * Keeps the previous output's files as they are (their inputs did not change): all of them,
   * or none (false) when one is missing, and the caller must `put` them. Their sizes come from
   * the manifest; the disk is asked only whether they are there (a stat each was 10 µs a page).
   */
  keep(...rels: string[]): boolean {
    if (!this.target.incremental) return false;
    // Paths of our own making, already normal: joined by hand (path.join was half the cost).
    const there = (rel: string) =>
      this.target.previous[rel] !== undefined &&
      existsSync(`${this.target.outDir}${path.sep}${rel}`);
    if (!rels.every(there)) return false;
    for (const rel of rels) this.own.kept(rel, this.target.previous[rel] ?? 0);
    return true;
  }

  /** What another thread staged for this build (a StageWriter on the same target). */
  add(files: StagedFiles): void {
    this.others.push(files);
  }

  get files(): number {
    return this.all().reduce((n, f) => n + f.paths.length, 0);
  }

  get bytes(): number {
    return this.all().reduce((n, f) => f.sizes.reduce((m, size) => m + size, n), 0);
  }

  get changed(): number {
    return this.all().reduce((n, f) => n + f.changed, 0);
  }

  /** Every file of the new output, and its size. */
  private written(): Record<string, number> {
    const files: Record<string, number> = {};
    for (const staged of this.all()) {
      for (const [i, rel] of staged.paths.entries()) {
        if (files[rel] !== undefined) throw new Error(`Two files would be written to ${rel}`);
        files[rel] = staged.sizes[i] ?? 0;
      }
    }
    return files;
  }

  /**
   * Makes the new output the output, deleting the previous output's files it no longer has, and
   * returns its files and their sizes. `record` is called first with every file the output
   * folder may hold of ours once the commit starts (the previous output's and the new), so that
   * whatever a kill interrupts, the record beside the folder still says which files are ours.
   */
  commit(record: (files: Record<string, number>) => void): Record<string, number> {
    const { outDir, dir, incremental } = this.target;
    const files = this.written();
    record({ ...this.target.previous, ...files });
    if (!incremental) {
      renameSync(dir, outDir);
      return files;
    }
    const journal: Journal = {
      staging: path.basename(dir),
      moves: this.all().flatMap((f) => f.moves),
      deletes: Object.keys(this.target.previous).filter((rel) => files[rel] === undefined),
    };
    const file = journalFile(outDir);
    const tmp = `${file}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(journal));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    this.decided = true;
    syncDir(path.dirname(outDir));
    applyJournal(outDir, journal);
    return files;
  }

  /** Drops what was staged, unless the commit was decided: then `recoverOutput` completes it. */
  abort(): void {
    if (this.decided) return;
    rmSync(this.target.dir, { recursive: true, force: true });
  }

  private all(): StagedFiles[] {
    return [this.own.result(), ...this.others];
  }
}

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

interface Journal {
  /** The sibling folder holding the staged files. */
  staging: string;
  moves: Array<[string, string]>;
  deletes: string[];
}

/**
 * Run before a build touches anything: completes an incremental commit a killed build left, and
 * clears the staging folders of builds that are no longer running.
 */
export function recoverOutput(outDir: string): void {
  const out = path.resolve(outDir);
  const parent = path.dirname(out);
  const journal = journalFile(out);
  if (existsSync(journal)) {
    applyJournal(out, JSON.parse(readFileSync(journal, 'utf8')) as Journal);
  }
  const prefix = `.${path.basename(out)}.`;
  for (const n of readdirSafe(parent)) {
    if (!n.startsWith(prefix)) continue;
    const rest = n.slice(prefix.length);
    // A journal never renamed into place: its commit was not decided.
    if (rest.startsWith('journal.') && rest.endsWith('.tmp')) {
      rmSync(path.join(parent, n), { force: true });
      continue;
    }
    if (!rest.startsWith('staging-')) continue;
    const pid = Number(rest.split('-')[1]);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    rmSync(path.join(parent, n), { recursive: true, force: true });
  }
}

/** Applies a decided commit; safe to run again on a commit that was partly applied. */
function applyJournal(out: string, journal: Journal): void {
  const staging = path.join(path.dirname(out), journal.staging);
  const made = new Set<string>();
  for (const [staged, rel] of journal.moves) {
    const from = path.join(staging, staged);
    if (!existsSync(from)) continue; // moved before a kill
    const target = path.join(out, rel);
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    renameSync(from, target);
  }
  const emptied = new Set<string>();
  for (const rel of journal.deletes) {
    rmSync(path.join(out, rel), { force: true });
    emptied.add(path.dirname(path.join(out, rel)));
  }
  // A removed page leaves its folder (and maybe its parent) empty.
  for (const dir of [...emptied].sort().reverse()) {
    for (let d = dir; d.startsWith(out + path.sep); d = path.dirname(d)) {
      try {
        rmdirSync(d);
      } catch {
        break;
      }
    }
  }
  rmSync(journalFile(out), { force: true });
  // Empty once every move is made; rmdir spares loading the recursive remover for nothing.
  try {
    rmdirSync(staging);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
}

const journalFile = (out: string) => siblingName(out, 'journal');

/** A file of the output folder that the build did not write, and would replace. */
export class ForeignFileError extends Error {
  constructor(target: StageTarget, rel: string) {
    super(
      `${displayPath(path.join(target.outDir, rel))} was not written by claimsite, and this build would replace it. Move it into public/ to publish it with the site, or delete it.`,
    );
    this.name = 'ForeignFileError';
  }
}

function siblingName(out: string, suffix: string): string {
  return path.join(path.dirname(out), `.${path.basename(out)}.${suffix}`);
}

function readIfFile(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Makes a rename in `dir` durable; not every file system can, and then it is skipped. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort: the journal file itself was fsynced.
  }
}
