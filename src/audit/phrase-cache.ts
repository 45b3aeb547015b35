import {
  closeSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Each audited page's phrases (see shingles) as the last build found them, kept beside the
 * output folder: a page whose file the build did not change is not read and split again. On a
 * large site that is most of an incremental build's audit (at 350,000 pages, 40,000 indexable
 * pages of 30 KB each). Two files: the phrases, 32-bit words one page after the other, and an
 * index of where each page's are.
 */
export class PhraseCache {
  /** Where `get` reads a page's phrases (see get). */
  private scratch = new Uint32Array(4096);

  private constructor(
    private readonly dataFile: string,
    private readonly index: Record<string, [offset: number, count: number]>,
    private fd: number | null,
  ) {}

  /** The cache of the output folder's last build; empty when there is none or it is unreadable. */
  static open(outDir: string): PhraseCache {
    const { data, index } = cacheFiles(outDir);
    try {
      const read = JSON.parse(readFileSync(index, 'utf8')) as { format: number; pages: unknown };
      if (read.format !== FORMAT || typeof read.pages !== 'object' || read.pages === null)
        return new PhraseCache(data, {}, null);
      return new PhraseCache(
        data,
        read.pages as Record<string, [number, number]>,
        openSync(data, 'r'),
      );
    } catch {
      return new PhraseCache(data, {}, null);
    }
  }

  /**
   * A page's phrases of the last build; null when not kept. Valid until the next call: the
   * audit takes a page's phrases in at once, and 40,000 pages' arrays left for the collector
   * were 46 MB of memory outside V8's heap at 100x, freed late.
   */
  get(rel: string): Uint32Array | null {
    const at = Object.hasOwn(this.index, rel) ? this.index[rel] : undefined;
    if (!at || this.fd === null) return null;
    const [offset, count] = at;
    if (this.scratch.length < count)
      this.scratch = new Uint32Array(Math.max(count, this.scratch.length * 2));
    const phrases = this.scratch.subarray(0, count);
    // Read straight into the array where its bytes are little-endian as in the file (x64, arm64).
    const bytes = LITTLE_ENDIAN
      ? new Uint8Array(phrases.buffer, 0, count * 4)
      : Buffer.allocUnsafe(count * 4);
    if (readSync(this.fd, bytes, 0, bytes.length, offset) !== bytes.length) return null;
    if (!LITTLE_ENDIAN)
      for (let i = 0; i < count; i++) phrases[i] = (bytes as Buffer).readUInt32LE(i * 4);
    return phrases;
  }

  /**
   * Forgets the cache before the output folder changes: a build that is killed after changing
   * the output, or that does not audit, must leave no phrases of files that are gone.
   */
  static discard(outDir: string): void {
    const { index, data } = cacheFiles(outDir);
    rmSync(index, { force: true });
    rmSync(data, { force: true });
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * The phrases of this build's audited pages, written aside while the audit runs and put in
 * place by `commit` once the output is: a failed build leaves the last build's cache.
 */
export class PhraseCacheWriter {
  private readonly fd: number;
  private readonly index: Record<string, [number, number]> = {};
  private offset = 0;
  private readonly tmp: { data: string; index: string };

  constructor(private readonly outDir: string) {
    const { data, index } = cacheFiles(outDir);
    this.tmp = { data: `${data}.${process.pid}.tmp`, index: `${index}.${process.pid}.tmp` };
    this.fd = openSync(this.tmp.data, 'w');
  }

  add(rel: string, phrases: Uint32Array): void {
    let bytes: Uint8Array;
    if (LITTLE_ENDIAN)
      bytes = new Uint8Array(phrases.buffer, phrases.byteOffset, phrases.byteLength);
    else {
      const le = Buffer.allocUnsafe(phrases.length * 4);
      for (let i = 0; i < phrases.length; i++) le.writeUInt32LE(phrases[i] as number, i * 4);
      bytes = le;
    }
    writeSync(this.fd, bytes);
    this.index[rel] = [this.offset, phrases.length];
    this.offset += bytes.length;
  }

  /** Puts the new cache in place of the last (called once the output is committed). */
  commit(): void {
    closeSync(this.fd);
    writeFileSync(this.tmp.index, JSON.stringify({ format: FORMAT, pages: this.index }));
    const { data, index } = cacheFiles(this.outDir);
    // The index last: an index never points into another build's phrases.
    PhraseCache.discard(this.outDir);
    renameSync(this.tmp.data, data);
    renameSync(this.tmp.index, index);
  }

  /** Drops what was written (the build failed). */
  abort(): void {
    closeSync(this.fd);
    rmSync(this.tmp.data, { force: true });
    rmSync(this.tmp.index, { force: true });
  }
}

const FORMAT = 1;
const LITTLE_ENDIAN = os.endianness() === 'LE';

/** Beside the output folder, as its manifest: never published with the site. */
function cacheFiles(outDir: string): { data: string; index: string } {
  const out = path.resolve(outDir);
  const base = path.join(path.dirname(out), `.${path.basename(out)}.audit-phrases`);
  return { data: `${base}.bin`, index: `${base}.json` };
}
