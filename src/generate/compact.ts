/**
 * Lists a build keeps of every page, a few bytes an entry: at 350,000 pages an array of strings
 * or of numbers above 2^30 costs tens of megabytes more (a V8 string is about 40 bytes before
 * its characters, a heap number 16).
 */

/**
 * Paths appended in order and read back in order, in buffers of a megabyte (a path never spans
 * two): no copy as it grows, and at most one buffer's slack.
 */
export class PathList {
  private readonly full: Array<{ bytes: Buffer; end: number }> = [];
  private bytes = Buffer.allocUnsafe(CHUNK);
  private end = 0;
  count = 0;

  push(path: string): void {
    if (this.end + 3 * path.length + 1 > this.bytes.length) {
      this.full.push({ bytes: this.bytes, end: this.end });
      this.bytes = Buffer.allocUnsafe(Math.max(CHUNK, 3 * path.length + 1));
      this.end = 0;
    }
    this.end += this.bytes.write(path, this.end);
    this.bytes[this.end++] = NEWLINE;
    this.count++;
  }

  *[Symbol.iterator](): Generator<string> {
    for (const at of this.cursor()) yield at.path;
  }

  /**
   * The paths in order, as one cursor moved from path to path: a path is decoded only when its
   * `path` is read (a walk over every page that needs few of their paths decodes few).
   */
  *cursor(): Generator<PathCursor> {
    const at = new PathCursor();
    for (const { bytes, end } of [...this.full, { bytes: this.bytes, end: this.end }])
      for (let start = 0; start < end; ) {
        const stop = bytes.indexOf(NEWLINE, start);
        at.move(bytes, start, stop);
        yield at;
        start = stop + 1;
      }
  }
}

/** Where PathList.cursor is: the path's index and, when read, the path. */
class PathCursor {
  index = -1;
  private bytes: Buffer = Buffer.alloc(0);
  private start = 0;
  private end = 0;

  move(bytes: Buffer, start: number, end: number): void {
    this.bytes = bytes;
    this.start = start;
    this.end = end;
    this.index++;
  }

  get path(): string {
    return this.bytes.toString('utf8', this.start, this.end);
  }
}

const CHUNK = 1 << 20;
const NEWLINE = 10;

/** Numbers appended in order, in one growing typed array (whole numbers below 2^53 stay exact). */
export class NumberList {
  private values: Float64Array;
  length = 0;

  /** `expected`: about how many numbers it will hold, so that it need not grow to them. */
  constructor(expected = 0) {
    this.values = new Float64Array(Math.max(1 << 12, expected));
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  at(i: number): number {
    return this.values[i] ?? 0;
  }
}

/**
 * A set of paths by a 53-bit hash of each, in a typed array (open addressing): about 20 bytes
 * a path whatever its length, where a Set of numbers this large keeps each as a heap number. A
 * hash can collide, so `add` answers "maybe there": a caller that stops on it checks exactly.
 */
export class PathHashes {
  /** Each path's hash plus one; 0 for an empty slot. */
  private slots: Float64Array;
  private count = 0;

  /** `expected`: about how many paths it will hold, so that it need not grow (and rehash) to them. */
  constructor(expected = 0) {
    let size = 1 << 12;
    while (size <= expected * 2) size *= 2;
    this.slots = new Float64Array(size);
  }

  /** Adds a path; false if it (or a path of the same hash) was there. */
  add(path: string): boolean {
    if (this.count * 2 >= this.slots.length) this.grow();
    const value = pathHash(path) + 1;
    const slot = this.slotOf(value);
    if (this.slots[slot] === value) return false;
    this.slots[slot] = value;
    this.count++;
    return true;
  }

  /** Where `value` is, or the empty slot where it goes. */
  private slotOf(value: number): number {
    const { slots } = this;
    const mask = slots.length - 1;
    let slot =
      (Math.imul((value >>> 0) ^ Math.floor(value / 0x100000000), 0x9e3779b1) >>> 0) & mask;
    while (slots[slot] !== 0 && slots[slot] !== value) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const value of old) if (value !== 0) this.slots[this.slotOf(value)] = value;
  }
}

/** A hash of a list of paths, in order: whether a unit's lines are still its files. */
export const filesHash = (files: readonly string[]) => pathHash(files.join('\n'));

/** Two FNV-1a hashes of a string's UTF-16 units, as one number below 2^53. */
export function pathHash(s: string): number {
  let a = BASIS_A;
  let b = BASIS_B;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, PRIME_A);
    b = Math.imul(b ^ c, PRIME_B);
  }
  return joined(a, b);
}

/**
 * filesHash of a list of paths read where they are in a text: a build that copies a city's
 * lines from the last manifest checks them against the city's hash without making a string of
 * the list.
 */
export class PathsHasher {
  private a = BASIS_A;
  private b = BASIS_B;
  private count = 0;

  /** Starts a new list. */
  start(): void {
    this.a = BASIS_A;
    this.b = BASIS_B;
    this.count = 0;
  }

  /** Adds the path text[start, end) to the list. */
  add(text: string, start: number, end: number): void {
    let { a, b } = this;
    // The list is hashed as its paths joined by newlines (see filesHash).
    if (this.count++ > 0) {
      a = Math.imul(a ^ NEWLINE, PRIME_A);
      b = Math.imul(b ^ NEWLINE, PRIME_B);
    }
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, PRIME_A);
      b = Math.imul(b ^ c, PRIME_B);
    }
    this.a = a;
    this.b = b;
  }

  /** filesHash of the paths added since the start. */
  get files(): number {
    return joined(this.a, this.b);
  }
}

const BASIS_A = 0x811c9dc5;
const BASIS_B = 0x01000193;
const PRIME_A = 0x01000193;
const PRIME_B = 0x5bd1e995;
const joined = (a: number, b: number) => (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
