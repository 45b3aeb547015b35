import { readSync } from 'node:fs';

/**
 * Reads a page's phrases (32-bit words, as this machine writes them) from a file into one buffer
 * reused from page to page: the audit takes each page's phrases in before the next, and 40,000
 * pages' arrays left for the collector were 46 MB of memory outside V8's heap at 100x.
 */
export class PhraseReader {
  private scratch = new Uint32Array(4096);

  /** The `count` phrases at `offset` of `fd`; null when the file is cut short. Valid until the next call. */
  read(fd: number, offset: number, count: number): Uint32Array | null {
    if (this.scratch.length < count)
      this.scratch = new Uint32Array(Math.max(count, this.scratch.length * 2));
    const phrases = this.scratch.subarray(0, count);
    const bytes = new Uint8Array(phrases.buffer, 0, count * 4);
    return readSync(fd, bytes, 0, bytes.length, offset) === bytes.length ? phrases : null;
  }
}
