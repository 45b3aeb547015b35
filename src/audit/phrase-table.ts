import { writeSync } from 'node:fs';

/** A count of the pages each phrase is on (see PhraseTable). */
export interface PhraseCounts {
  /**
   * Records that `page` has `phrase` (each page adds each of its phrases once). Returns the page
   * that owned the phrase alone until now and no longer does, SHARED if it was already on more
   * than one page, or NEW if no page had it.
   */
  add(phrase: number, page: number): number;
  remove(phrase: number, page: number): number;
  /** Writes the table at `position` of the file `fd` (keys, counts, owners); returns its bytes. */
  writeTo(fd: number, position: number): number;
  /** Its slots, and those with a key (a phrase of no page any more included). */
  readonly size: { capacity: number; used: number };
}

/**
 * How many pages have each phrase, and which page when only one does (the xor of the pages that
 * have it: with one page left, that page). Pages can be taken out again, so an incremental audit
 * updates the table with the pages that changed instead of making it anew. Open addressing over
 * typed arrays (12 bytes a slot), because a large site has millions of distinct phrases and a
 * Map of numbers would take ten times the memory.
 */
export class PhraseTable implements PhraseCounts {
  private constructor(
    private keys: Uint32Array,
    private counts: Uint32Array,
    private owners: Int32Array,
    /** Slots with a key, a phrase no page has any more included (it is found again if re-added). */
    private used: number,
  ) {}

  static empty(capacity = 1 << 16): PhraseTable {
    return new PhraseTable(
      new Uint32Array(capacity),
      new Uint32Array(capacity),
      new Int32Array(capacity),
      0,
    );
  }

  /** A table as `arrays` gave it (see arrays), e.g. read back from a file. */
  static restore(keys: Uint32Array, counts: Uint32Array, owners: Int32Array): PhraseTable {
    let used = 0;
    for (const key of keys) if (key !== 0) used++;
    return new PhraseTable(keys, counts, owners, used);
  }

  get size(): { capacity: number; used: number } {
    return { capacity: this.keys.length, used: this.used };
  }

  /** The bytes of a table of `capacity` slots as writeTo writes it. */
  static bytes(capacity: number): number {
    return capacity * 12;
  }

  writeTo(fd: number, position: number): number {
    let at = position;
    for (const array of [this.keys, this.counts, this.owners]) {
      at += writeSync(
        fd,
        new Uint8Array(array.buffer, array.byteOffset, array.byteLength),
        0,
        array.byteLength,
        at,
      );
    }
    return at - position;
  }

  add(phrase: number, page: number): number {
    // Up to three quarters full: linear probing stays short, and a table of a million phrases
    // takes 24 MB rather than 48 (issue 21's flat memory).
    if (this.used * 4 >= this.keys.length * 3) this.grow();
    const key = phrase === 0 ? 1 : phrase;
    const slot = this.find(key);
    if (this.keys[slot] === 0) {
      this.keys[slot] = key;
      this.used++;
    }
    const count = this.counts[slot] as number;
    const owner = this.owners[slot] as number;
    this.counts[slot] = count + 1;
    this.owners[slot] = owner ^ page;
    return count === 0 ? NEW : count === 1 ? owner : SHARED;
  }

  remove(phrase: number, page: number): number {
    const slot = this.find(phrase === 0 ? 1 : phrase);
    const count = this.counts[slot] as number;
    if (this.keys[slot] === 0 || count === 0)
      throw new Error(`the phrase table has no phrase ${phrase} of page ${page}`);
    const owner = (this.owners[slot] as number) ^ page;
    this.counts[slot] = count - 1;
    this.owners[slot] = owner;
    return count === 1 ? GONE : count === 2 ? owner : SHARED;
  }

  private find(key: number): number {
    const mask = this.keys.length - 1;
    let slot = homeSlot(key, mask);
    while (this.keys[slot] !== 0 && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  /** Twice the slots, leaving out the phrases no page has any more. */
  private grow(): void {
    const { keys, counts, owners } = this;
    let live = 0;
    for (const count of counts) if (count > 0) live++;
    // A table mostly of phrases gone (pages edited many times) is made again at its size.
    const size = live * 4 >= keys.length * 3 * 0.5 ? keys.length * 2 : keys.length;
    this.keys = new Uint32Array(size);
    this.counts = new Uint32Array(size);
    this.owners = new Int32Array(size);
    this.used = 0;
    for (let i = 0; i < keys.length; i++) {
      const count = counts[i] as number;
      if (count === 0) continue;
      const slot = this.find(keys[i] as number);
      this.keys[slot] = keys[i] as number;
      this.counts[slot] = count;
      this.owners[slot] = owners[i] as number;
      this.used++;
    }
  }
}

/** Where a key's probe starts in a table of mask + 1 slots (a power of two). */
export const homeSlot = (key: number, mask: number) => (Math.imul(key, 0x9e3779b1) >>> 0) & mask;

export const NEW = -1;
export const SHARED = -2;
export const GONE = -3;
