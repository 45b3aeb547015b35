import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { PageBytes } from '../render/fragments.js';
import { mainText } from './main-text.js';
import { PhraseReader } from './phrase-reader.js';
import { shingles } from './shingles.js';
import type { Topics } from './topics.js';

/**
 * The phrases of the indexable pages this thread rendered, split as each page was rendered and
 * kept in a file beside the output until the audit takes them: the audit need not read the
 * pages back. At 100x that was 40,000 files, 1.2 GB, read while the system was still writing
 * out the build's 9 GB, and ten times slower a file than at 10x.
 */
export class RenderedPhrases {
  private readonly file: string;
  private fd: number | null;
  private end = 0;
  /** Where each page's phrases are, by page index. */
  private readonly at = new Map<number, [offset: number, count: number]>();
  private readonly reader = new PhraseReader();

  constructor(
    outDir: string,
    private readonly topics?: Topics,
  ) {
    const out = path.resolve(outDir);
    this.file = path.join(
      path.dirname(out),
      `.${path.basename(out)}.audit-rendered.${process.pid}.tmp`,
    );
    this.fd = openSync(this.file, 'w+');
  }

  /** Splits the main text of the page at `index` into its phrases and keeps them. */
  add(index: number, page: PageBytes): void {
    if (this.fd === null) throw new Error(`${this.file} is closed`);
    const phrases = shingles(mainText(page.toBuffer().toString()), this.topics);
    const bytes = new Uint8Array(phrases.buffer, phrases.byteOffset, phrases.byteLength);
    writeSync(this.fd, bytes, 0, bytes.length, this.end);
    this.at.set(index, [this.end, phrases.length]);
    this.end += bytes.length;
  }

  /** The phrases of the page at `index`, if this thread rendered it; valid until the next call. */
  get(index: number): Uint32Array | null {
    const at = this.at.get(index);
    if (!at || this.fd === null) return null;
    const phrases = this.reader.read(this.fd, at[0], at[1]);
    if (!phrases) throw new Error(`${this.file} is cut short`);
    return phrases;
  }

  /** Closes and removes the file (once; again does nothing). */
  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    rmSync(this.file, { force: true });
  }
}
