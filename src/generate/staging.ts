import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { PageBytes } from '../render/fragments.js';
import { commitJournal, type Journal, siblingName } from './commit.js';
import { type StagedFiles, type StageTarget, StageWriter } from './stage-writer.js';

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
 * File calls are synchronous: the build has nothing else to do meanwhile, and fs/promises's
 * round trips through its thread pool cost more than the writes.
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
   * the manifest; the disk is asked only whether they are there.
   */
  keep(...rels: string[]): boolean {
    if (!this.target.incremental) return false;
    // Paths of our own making, already normal: joined by hand (path.join costs more than the check).
    const there = (rel: string) =>
      this.target.previous[rel] !== undefined &&
      existsSync(`${this.target.outDir}${path.sep}${rel}`);
    if (!rels.every(there)) return false;
    for (const rel of rels) this.own.kept(rel, this.target.previous[rel] ?? 0);
    return true;
  }

  /**
   * Where a file of the new output is before the commit: staged, or kept in the output folder.
   * Call once every thread's files have been added.
   */
  locate(rel: string): string {
    const { outDir, dir, incremental } = this.target;
    if (!incremental) return path.join(dir, rel);
    const name = this.stagedNames().get(rel);
    return name ? path.join(dir, name) : path.join(outDir, rel);
  }

  /** Whether the commit will change a file: new, or other bytes than the output folder's. */
  changes(rel: string): boolean {
    return !this.target.incremental || this.stagedNames().has(rel);
  }

  private staged: Map<string, string> | null = null;

  private stagedNames(): Map<string, string> {
    this.staged ??= new Map(this.all().flatMap((f) => f.moves.map(([name, rel]) => [rel, name])));
    return this.staged;
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
    // Once its journal is renamed into place, the commit belongs to the next build too.
    this.decided = true;
    commitJournal(outDir, journal);
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
