import { closeSync, fstatSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { pathHash } from './compact.js';

/**
 * What the last build made, kept beside the output folder and never published: a header (the
 * build key, the public files' stamps, the nearby lists), then one line per file of the output
 * (a JSON array: path, size, and for a page its fingerprint and, for an indexable page, the day
 * its content last changed). It is also the record of which files in the output folder the
 * build wrote, the only ones a later build may replace or delete.
 *
 * A line per file, not one JSON document, so that a site of 350,000 pages is read and written
 * a line at a time: the build keeps the file's text and an index of it, never an object per
 * entry (issue 21's flat memory).
 */
export interface ManifestHeader {
  format: typeof FORMAT;
  /** The build key; empty when no page may be reused by fingerprint (see Inputs.key). */
  key: string;
  /** The public folder's files and their size and modification time when last copied. */
  public: Record<string, string>;
  /** Every city's nearby cities, and what they were measured from (see restoreNearby). */
  nearby?: { key: string; lists: Record<string, string[]> };
  /** Each city's pages, by the city's slug (see UnitLine). */
  units?: Record<string, UnitLine>;
  /** What compressed the `.br` and `.gz` files it lists (see COMPRESSOR); absent for none. */
  precompressed?: string;
}

/**
 * A city's pages in the manifest: the digest of what they are made of (see unitDigest), where
 * its lines start among the files' lines and how many there are, its share images, and a hash
 * of its files' paths (see filesHash), which the lines must match to be taken as the unit's.
 */
export type UnitLine = [
  digest: string,
  first: number,
  count: number,
  images: string[],
  files: number,
];

/** The unit's lines, as UnitLine says where they are. */
export interface UnitLines {
  first: number;
  count: number;
  images: string[];
  files: number;
}

/**
 * A file of the output: path, size, a page's fingerprint, and for an indexable page the day its
 * content last changed and what sitemap.xml and the audit need of it.
 */
export type FileEntry = [
  rel: string,
  size: number,
  print?: string,
  modified?: string,
  indexed?: IndexedLine,
];

/** An indexable page's language, translation, sitemap priority and frequency, and audit kind. */
export type IndexedLine = [
  lang: string,
  alternate: string | null,
  priority: number,
  changefreq: string,
  kind: string,
];

const FORMAT = 2;

/**
 * A page's line of the manifest, as PreviousManifest.readPage reads it: the path is
 * text[start, end), in the manifest's own text when it needed no decoding.
 */
export interface PageLine {
  text: string;
  start: number;
  end: number;
  size: number;
  print: number;
  indexed: IndexedLine | undefined;
}

export const pageLine = (): PageLine => ({
  text: '',
  start: 0,
  end: 0,
  size: 0,
  print: 0,
  indexed: undefined,
});

/** A page's manifest line as a build writes it. */
function wholePage(entry: unknown): entry is [string, number, string, unknown, IndexedLine?] {
  if (!Array.isArray(entry)) return false;
  const [file, size, print, , line] = entry as unknown[];
  return (
    typeof file === 'string' &&
    Number.isInteger(size) &&
    (size as number) >= 0 &&
    typeof print === 'string' &&
    DIGITS.test(print) &&
    (line === undefined || (Array.isArray(line) && line.length === 5))
  );
}

const DIGITS = /^\d+$/;

/** The whole number written in text[from, to) in decimal digits; -1 if it is not one. */
function digitsAt(text: string, from: number, to: number): number {
  if (to <= from) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

export const manifestFile = (outDir: string) =>
  path.join(
    path.dirname(path.resolve(outDir)),
    `.${path.basename(path.resolve(outDir))}.manifest.json`,
  );

/** The last build's manifest, as read: its header, and its entries looked up by path. */
export class PreviousManifest {
  /** Where each entry's line starts in `text`. */
  private starts: Int32Array = new Int32Array(0);
  /**
   * Entry numbers (plus one) by the hash of their path, open addressing: 4 bytes a slot where a
   * Map of 350,000 paths costs tens of megabytes. A path is checked against its line's text.
   */
  private slots: Int32Array = new Int32Array(0);
  /** Entries whose path is escaped in JSON (a quote or a backslash in it): looked up as strings. */
  private escaped = new Map<string, number>();
  /** Their entry numbers. */
  private escapedLines = new Set<number>();
  /** Entries the new output has too (see mark). */
  private seen = new Uint8Array(0);

  private constructor(
    readonly header: ManifestHeader,
    private text: string,
    index: ManifestIndex,
    /** The file as read (see fileStamp); '' for a manifest of the format before this one. */
    readonly stamp: string,
  ) {
    this.take(index);
  }

  private take({ starts, slots, escaped }: ManifestIndex): void {
    this.starts = starts;
    this.slots = slots;
    this.escaped = new Map(escaped);
    this.escapedLines = new Set(escaped.map(([, n]) => n));
    this.seen = new Uint8Array(starts.length);
  }

  /**
   * Keeps only the lines the new output's pages did not mark (see mark): the files that are not
   * pages, and the pages it no longer has. For a build that reuses no line (a new build key),
   * whose render would otherwise hold the whole text (34 MB at 100x) for what is asked of it
   * after the pages are planned: keep, has, entry and unmarked, all of files that are not pages.
   * Returns each kept line's number before, in order; the marks of the kept lines start again.
   */
  keepUnmarked(): Int32Array {
    const kept: number[] = [];
    const lines: string[] = [];
    for (let n = 0; n < this.starts.length; n++)
      if (this.seen[n] !== 1) {
        kept.push(n);
        lines.push(this.lineAt(n));
      }
    this.text = lines.length > 0 ? `${lines.join('\n')}\n` : '';
    this.take(indexManifest(this.text, 0));
    return Int32Array.from(kept);
  }

  /** The entry number of a path (see entryAt); undefined for a path the last build did not write. */
  entryOf(rel: string): number | undefined {
    const mask = this.slots.length - 1;
    for (let slot = pathHash(rel) % this.slots.length; ; slot = (slot + 1) & mask) {
      const n = (this.slots[slot] as number) - 1;
      if (n < 0) return this.escaped.size > 0 ? this.escaped.get(rel) : undefined;
      if (this.isAt(n, rel)) return n;
    }
  }

  /** Whether line `n` is of this (unescaped) path: it starts ["rel", */
  private isAt(n: number, rel: string): boolean {
    return lineIsOf(this.text, this.starts[n] as number, rel);
  }

  has(rel: string): boolean {
    return this.entryOf(rel) !== undefined;
  }

  /** How many entries (files) it lists. */
  get entries(): number {
    return this.starts.length;
  }

  /** A file's entry; null for a file the last build did not write. */
  entry(rel: string): FileEntry | null {
    const n = this.entryOf(rel);
    return n === undefined ? null : (JSON.parse(this.lineAt(n)) as FileEntry);
  }

  /**
   * A file's size if its entry has this fingerprint, else -1. Read from the line without
   * parsing it whole: asked for every page of an incremental build.
   */
  sizeIfPrint(rel: string, print: string): number {
    const n = this.entryOf(rel);
    if (n === undefined) return -1;
    const line = this.lineAt(n);
    // ["rel",size,"print"...: the print follows the size, after the path's closing quote.
    const afterRel = line.indexOf('",', 2) + 2;
    const comma = line.indexOf(',', afterRel);
    if (afterRel < 2 || comma < 0) return -1;
    if (!line.startsWith(`"${print}"`, comma + 1)) return -1;
    const size = Number(line.slice(afterRel, comma));
    return Number.isInteger(size) && size >= 0 ? size : -1;
  }

  /**
   * A city's lines in this manifest, if its pages were made of what `digest` sums up; null if
   * not, or if the manifest does not hold them whole.
   */
  unit(slug: string, digest: string): UnitLines | null {
    const line = this.header.units?.[slug];
    if (!Array.isArray(line) || line[0] !== digest) return null;
    const [, first, count, images, files] = line;
    const whole =
      Number.isInteger(first) &&
      Number.isInteger(count) &&
      first >= 0 &&
      count > 0 &&
      first + count <= this.starts.length &&
      Array.isArray(images) &&
      Number.isInteger(files);
    return whole ? { first, count, images, files } : null;
  }

  /**
   * Line `n` (counted from 0 after the header) as a page's entry, as a build writes it, read into
   * `into`; false if it is not one (a manifest edited by hand). Asked for every page of every
   * city an incremental build copies (350,000 at 100x): a line of a plain path and no sitemap
   * facts, ["rel",size,"print"], is read where it is, its path left in this text and its numbers
   * read from their digits, without JSON.parse or a string made.
   */
  readPage(n: number, into: PageLine): boolean {
    const { text } = this;
    const start = this.starts[n] ?? 0;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const close = text.indexOf('",', start + 2);
    const comma = close < 0 ? -1 : text.indexOf(',', close + 2);
    const printEnd = comma < 0 ? -1 : text.indexOf('"', comma + 2);
    if (
      text.startsWith('["', start) &&
      printEnd > 0 &&
      printEnd + 2 === end &&
      text.charCodeAt(comma + 1) === QUOTE &&
      text.charCodeAt(printEnd + 1) === CLOSE &&
      !this.escapedLines.has(n)
    ) {
      const size = digitsAt(text, close + 2, comma);
      const print = digitsAt(text, comma + 2, printEnd);
      if (size >= 0 && print >= 0) {
        into.text = text;
        into.start = start + 2;
        into.end = close;
        into.size = size;
        into.print = print;
        into.indexed = undefined;
        return true;
      }
    }
    let entry: unknown;
    try {
      entry = JSON.parse(text.slice(start, end));
    } catch {
      return false;
    }
    if (!wholePage(entry)) return false;
    const [file, size, print, , indexed] = entry;
    into.text = file;
    into.start = 0;
    into.end = file.length;
    into.size = size;
    into.print = Number(print);
    into.indexed = indexed;
    return true;
  }

  /**
   * Lets go of what only planning reads: each city's unit and the nearby lists (10 MB of objects
   * at 100x, otherwise held while every page renders).
   */
  forgetPlanning(): void {
    delete this.header.units;
    delete this.header.nearby;
  }

  /**
   * Notes that the new output has the file of line `n` too; false if it was noted already (then
   * two of the new output's files have that path).
   */
  markAt(n: number): boolean {
    if (this.seen[n] === 1) return false;
    this.seen[n] = 1;
    return true;
  }

  /**
   * Notes that the new output has this file too: as markAt, or undefined if the last output did
   * not have it.
   */
  mark(rel: string): boolean | undefined {
    const n = this.entryOf(rel);
    return n === undefined ? undefined : this.markAt(n);
  }

  /**
   * The files of the last output the new one has not marked (see mark), unless `kept` says so:
   * what a commit deletes.
   */
  *unmarked(kept: (rel: string) => boolean): Generator<string> {
    for (let n = 0; n < this.starts.length; n++) {
      if (this.seen[n] === 1) continue;
      const line = this.lineAt(n);
      const rel = relOf(line, 0, line.length);
      if (!kept(rel)) yield rel;
    }
  }

  /** Line `n` as written (counted from 0 after the header). */
  lineAt(n: number): string {
    const start = this.starts[n] ?? 0;
    const end = this.text.indexOf('\n', start);
    return this.text.slice(start, end < 0 ? undefined : end);
  }

  /**
   * Synchronous, as the rest of the build's file calls: fs/promises's first call starts a
   * thread pool that an incremental build has no use for. An unreadable manifest is none; one
   * of the single-document format before this one gives only which files are ours.
   */
  static read(outDir: string): PreviousManifest | null {
    const read = readStamped(manifestFile(outDir));
    return read && PreviousManifest.of(read.bytes.toString('utf8'), read.stamp);
  }

  /**
   * The manifest of `text`, read as a file of `stamp`; `index`, when given, is indexManifest's
   * of it (made on another thread: see manifest-read.ts). Null if it is not one.
   */
  static of(text: string, stamp: string, index?: ManifestIndex): PreviousManifest | null {
    const first = text.indexOf('\n');
    try {
      const header = JSON.parse(first < 0 ? text : text.slice(0, first)) as ManifestHeader & {
        files?: Record<string, number>;
      };
      if (header.format === FORMAT)
        return new PreviousManifest(header, text, index ?? indexManifest(text, first + 1), stamp);
      if (!header.files || typeof header.files !== 'object') return null;
      const lines = Object.entries(header.files).map(([rel, size]) => JSON.stringify([rel, size]));
      const older = `${lines.join('\n')}\n`;
      return new PreviousManifest(ownershipHeader(), older, indexManifest(older, 0), '');
    } catch {
      return null;
    }
  }
}

/**
 * Where each line of a manifest's text starts (from `first`, past the header), and its entries
 * by the hash of their path (see PreviousManifest.slots). Of the text alone, so that another
 * thread can make it while the build loads its data.
 */
export interface ManifestIndex {
  starts: Int32Array;
  slots: Int32Array;
  /** Entries whose path is escaped in JSON, by path. */
  escaped: Array<[string, number]>;
}

export function indexManifest(text: string, first: number): ManifestIndex {
  let lines = 0;
  for (let at = text.indexOf('\n', first); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  const all = new Int32Array(lines + 1);
  let count = 0;
  for (let start = first; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) all[count++] = start;
    start = end + 1;
  }
  const starts = all.subarray(0, count);
  let size = 1024;
  while (size < count * 2) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  const escaped: Array<[string, number]> = [];
  for (let n = 0; n < count; n++) {
    const start = starts[n] as number;
    const close = text.indexOf('",', start + 2);
    const rel = text.slice(start + 2, close);
    if (close < 0 || rel.includes('\\')) {
      const end = text.indexOf('\n', start);
      escaped.push([(JSON.parse(text.slice(start, end < 0 ? undefined : end)) as FileEntry)[0], n]);
      continue;
    }
    // In the slot of its path, unless an earlier line has that path (the first counts).
    for (let slot = pathHash(rel) % size; ; slot = (slot + 1) & mask) {
      const at = (slots[slot] as number) - 1;
      if (at < 0) {
        slots[slot] = n + 1;
        break;
      }
      if (lineIsOf(text, starts[at] as number, rel)) break;
    }
  }
  return { starts, slots, escaped };
}

/** Whether the line at `start` is of this (unescaped) path: it starts ["rel", */
function lineIsOf(text: string, start: number, rel: string): boolean {
  return (
    text.startsWith(rel, start + 2) &&
    text.charCodeAt(start + 2 + rel.length) === QUOTE &&
    text.charCodeAt(start + 3 + rel.length) === COMMA
  );
}

/**
 * A manifest file's bytes and its stamp (see fileStamp), taken from the same open file; null if
 * it cannot be read (an unreadable manifest is none).
 */
export function readStamped(file: string): { bytes: Buffer; stamp: string } | null {
  try {
    const fd = openSync(file, 'r');
    try {
      return { stamp: fileStamp(fstatSync(fd)), bytes: readFileSync(fd) };
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** The path of a line's entry; quick for the plain paths a build writes. */
export function relOf(text: string, start: number, end: number): string {
  const close = text.indexOf('",', start + 2);
  if (close > 0 && close < end) {
    const rel = text.slice(start + 2, close);
    if (!rel.includes('\\')) return rel;
  }
  return (JSON.parse(text.slice(start, end)) as FileEntry)[0];
}

/** What tells a version of a file from another: a manifest rewritten since has another stamp. */
export const fileStamp = (s: { ino: number; size: number; mtimeMs: number }) =>
  `${s.ino}:${s.size}:${s.mtimeMs}`;

const QUOTE = 34;
const COMMA = 44;
const ZERO = 48;
const CLOSE = 93;

/** A header that reuses nothing: an older manifest's, which says only which files are ours. */
const ownershipHeader = (): ManifestHeader => ({ format: FORMAT, key: '', public: {} });

export const manifestHeader = (rest: Omit<ManifestHeader, 'format'>): ManifestHeader => ({
  format: FORMAT,
  ...rest,
});

/**
 * The manifest written beside its place, for the commit to rename with the files (see
 * Staging.commit). `lines` are the files' lines, written in batches, so the whole text is never
 * one string.
 */
export function writeManifestAside(
  outDir: string,
  header: ManifestHeader,
  ...lines: Iterable<string>[]
): { tmp: string; file: string } {
  const file = manifestFile(outDir);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let batch = `${JSON.stringify(header)}\n`;
    for (const part of lines)
      for (const line of part) {
        batch += `${line}\n`;
        if (batch.length >= BATCH_CHARS) {
          writeSync(fd, batch);
          batch = '';
        }
      }
    writeSync(fd, batch);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  return { tmp, file };
}

const BATCH_CHARS = 1 << 20;

/** A file's line in the manifest. */
export const entryLine = (entry: FileEntry): string => JSON.stringify(entry);
