import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { PageBytes } from '../render/fragments.js';
import { commitJournal, type Journal, siblingName } from './commit.js';
import type { FilesFound } from './files-found.js';
import type { PreviousManifest } from './manifest.js';
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
  /** The files of the new output that are not pages (see PageState for those), and their sizes. */
  private readonly extra = new Map<string, number>();
  /** Those of them whose bytes the commit changes (new, or other bytes than the output's). */
  private readonly rewritten = new Set<string>();
  /** Whether each of the previous build's files is in the output folder (see takeFound). */
  private found: Uint8Array | null = null;
  /** Set once the journal is in place: from then on the commit belongs to the next build too. */
  private decided = false;

  private constructor(
    readonly target: StageTarget,
    /** The files of the output folder the previous build wrote: the only ones it may replace. */
    private readonly previous: PreviousManifest | null,
  ) {
    this.own = new StageWriter(target);
  }

  /**
   * `previous`: the previous build's manifest, null for none. Call `recoverOutput` first, so a
   * commit a killed build left is complete.
   */
  static open(outDir: string, previous: PreviousManifest | null): Staging {
    const out = path.resolve(outDir);
    const dir = siblingName(out, `staging-${process.pid}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    const incremental = existsSync(out);
    return new Staging({ outDir: out, dir, incremental }, incremental ? previous : null);
  }

  /** A file of the new output that is not a page: whether the commit changes its file. */
  put(rel: string, data: string | Uint8Array): boolean {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    this.record(rel, bytes.byteLength);
    if (!this.own.put(rel, bytes, this.owns(rel))) return false;
    this.rewritten.add(rel);
    // Once staged names are looked up, a file staged later is found too.
    const moves = this.own.result().moves;
    if (this.staged && this.target.incremental)
      this.staged.set(rel, moves[moves.length - 1]?.[0] ?? '');
    return true;
  }

  /** Whether the commit changes the file of an extra (see extras): put with other bytes. */
  rewrote(rel: string): boolean {
    return this.rewritten.has(rel);
  }

  /** A page, rendered on this thread: whether the commit changes its file. */
  putPage(rel: string, page: PageBytes, owned: boolean): boolean {
    return this.own.putPage(rel, page, owned);
  }

  /** Whether the output folder's file at `rel` is the previous build's (see StageWriter.put). */
  owns(rel: string): boolean {
    return this.previous?.has(rel) ?? false;
  }

  /**
   * Whether a page's file of the previous output can be kept as it is (its inputs did not
   * change): the previous build wrote it, and it is there. Its size is the plan's.
   */
  keepPage(rel: string): boolean {
    const n = this.previous?.entryOf(rel);
    return n !== undefined && this.keepEntry(rel, n);
  }

  /**
   * Whether the file of the previous manifest's entry `n` is in the output folder, if the thread
   * that looked found out (see takeFound); undefined if not known.
   */
  foundAt(n: number): boolean | undefined {
    return this.previous && this.found ? this.found[n] === 1 : undefined;
  }

  /** keepPage for the file of the previous manifest's entry `n` (which must be `rel`'s). */
  keepEntry(rel: string, n: number): boolean {
    // No previous manifest here when the output folder is new (see open).
    if (!this.previous) return false;
    if (this.found) return this.found[n] === 1;
    // Paths of our own making, already normal: joined by hand (path.join costs more than the check).
    return existsSync(`${this.target.outDir}${path.sep}${rel}`);
  }

  /**
   * Which of the previous build's files were found in the output folder, checked on another
   * thread (see files-found.ts): used if it checked the manifest this build read.
   */
  takeFound(files: FilesFound | null): void {
    const { previous } = this;
    if (
      files &&
      previous &&
      files.stamp === previous.stamp &&
      files.found.length === previous.entries
    )
      this.found = files.found;
  }

  /**
   * Follows the last manifest when it lets go of the lines of pages (see
   * PreviousManifest.keepUnmarked): `kept` has, for each line it kept, the number it had.
   */
  renumber(kept: Int32Array): void {
    const { found } = this;
    if (found) this.found = Uint8Array.from(kept, (n) => found[n] ?? 0);
  }

  /**
   * Keeps a file of the previous output that is not a page as it is, when it is there; false
   * when it is not, and the caller must `put` it. Its size comes from the manifest.
   */
  keep(rel: string): boolean {
    if (!this.keepPage(rel)) return false;
    this.record(rel, this.previous?.entry(rel)?.[1] ?? 0);
    return true;
  }

  private record(rel: string, size: number): void {
    if (this.extra.has(rel)) throw new Error(`Two files would be written to ${rel}`);
    this.extra.set(rel, size);
  }

  /** The files of the new output that are not pages, and their sizes. */
  get extras(): ReadonlyMap<string, number> {
    return this.extra;
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

  private staged: Map<string, string> | null = null;

  private stagedNames(): Map<string, string> {
    this.staged ??= new Map(this.all().flatMap((f) => f.moves.map(([name, rel]) => [rel, name])));
    return this.staged;
  }

  /** What another thread staged for this build (a StageWriter on the same target). */
  add(files: StagedFiles): void {
    this.others.push(files);
  }

  /** Files the commit writes: new, or other bytes than the output folder's. */
  get changed(): number {
    return this.all().reduce((n, f) => n + f.changed, 0);
  }

  /**
   * Makes the new output the output, deleting `deletes` (files of the previous output it no
   * longer has), with the manifest that `manifest` writes aside: it is renamed into place with
   * the files, so that whatever a kill interrupts, the manifest beside the folder describes the
   * folder. Into a new folder, the manifest goes first (a manifest of no folder is not read:
   * see open); into the folder, the journal renames it once the files are in place.
   */
  commit(deletes: readonly string[], manifest: () => { tmp: string; file: string }): void {
    const { outDir, dir, incremental } = this.target;
    const written = manifest();
    if (!incremental) {
      try {
        renameSync(written.tmp, written.file);
      } catch (err) {
        rmSync(written.tmp, { force: true });
        throw err;
      }
      renameSync(dir, outDir);
      return;
    }
    const journal: Journal = {
      staging: path.basename(dir),
      moves: this.all().flatMap((f) => f.moves),
      deletes: [...deletes],
      manifest: [path.basename(written.tmp), path.basename(written.file)],
    };
    // Once its journal is renamed into place, the commit belongs to the next build too.
    this.decided = true;
    try {
      commitJournal(outDir, journal);
    } catch (err) {
      // A journal never put in place leaves the manifest aside to nobody: it goes.
      if (!existsSync(siblingName(outDir, 'journal'))) rmSync(written.tmp, { force: true });
      throw err;
    }
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
