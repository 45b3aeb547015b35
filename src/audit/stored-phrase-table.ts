import { readSync, writeSync } from 'node:fs';
import { GONE, homeSlot, NEW, type PhraseCounts, PhraseTable, SHARED } from './phrase-table.js';

/**
 * The last audit's phrase table where it is, in its file, read a few slots at a time: an
 * incremental audit looks up only the phrases of the pages that changed (thousands, of a
 * table of millions, 25 MB at 100x), and keeps the slots it changes aside until it writes a
 * copy with them (see writeTo). Laid out as PhraseTable.writeTo writes it: keys, counts, owners.
 * Should the table fill up, it is read whole and goes on as a PhraseTable, which can grow.
 */
export class StoredPhraseTable implements PhraseCounts {
  /** The slots changed since it was read: key, count, owner (see PhraseTable). */
  private readonly changed = new Map<number, [number, number, number]>();
  private memory: PhraseTable | null = null;
  private readonly probe = new Uint32Array(64);
  private readonly word = new Uint32Array(1);

  constructor(
    private readonly fd: number,
    /** Where the table starts in the file. */
    private readonly at: number,
    private readonly capacity: number,
    private used: number,
  ) {}

  get size(): { capacity: number; used: number } {
    return this.memory?.size ?? { capacity: this.capacity, used: this.used };
  }

  add(phrase: number, page: number): number {
    if (this.memory) return this.memory.add(phrase, page);
    const key = phrase === 0 ? 1 : phrase;
    const [slot, found, count, owner] = this.find(key);
    if (found === 0) {
      // Up to three quarters full, as PhraseTable; beyond, it is read and grows.
      if ((this.used + 1) * 4 > this.capacity * 3) return this.inMemory().add(phrase, page);
      this.used++;
    }
    this.changed.set(slot, [key, count + 1, owner ^ page]);
    return count === 0 ? NEW : count === 1 ? owner : SHARED;
  }

  remove(phrase: number, page: number): number {
    if (this.memory) return this.memory.remove(phrase, page);
    const [slot, found, count, owner] = this.find(phrase === 0 ? 1 : phrase);
    if (found === 0 || count === 0)
      throw new Error(`the phrase table has no phrase ${phrase} of page ${page}`);
    this.changed.set(slot, [found, count - 1, owner ^ page]);
    return count === 1 ? GONE : count === 2 ? owner ^ page : SHARED;
  }

  /**
   * Writes the table at `position` of `fd`: the file's table copied a megabyte at a time, with
   * the changed slots written over it.
   */
  writeTo(fd: number, position: number): number {
    if (this.memory) return this.memory.writeTo(fd, position);
    const size = PhraseTable.bytes(this.capacity);
    const chunk = Buffer.allocUnsafe(Math.min(size, 1 << 20));
    for (let done = 0; done < size; ) {
      const n = readSync(this.fd, chunk, 0, Math.min(chunk.length, size - done), this.at + done);
      if (n === 0) throw new Error('the phrase table is cut short');
      writeSync(fd, chunk, 0, n, position + done);
      done += n;
    }
    const value = new Uint32Array(1);
    const bytes = new Uint8Array(value.buffer);
    for (const [slot, fields] of this.changed)
      for (const [k, field] of fields.entries()) {
        value[0] = field;
        writeSync(fd, bytes, 0, 4, position + (k * this.capacity + slot) * 4);
      }
    return size;
  }

  /** The slot of `key` or the empty one where it goes, and its key (0: empty), count and owner. */
  private find(key: number): [number, number, number, number] {
    const mask = this.capacity - 1;
    let slot = homeSlot(key, mask);
    for (;;) {
      // The keys from `slot` on, as far as the end of the table or the probe's length.
      const n = Math.min(this.probe.length, this.capacity - slot);
      this.read(this.probe, n, slot * 4);
      for (let i = 0; i < n; i++, slot++) {
        const changed = this.changed.get(slot);
        const found = changed ? changed[0] : (this.probe[i] as number);
        if (found !== 0 && found !== key) continue;
        if (found === 0) return [slot, 0, 0, 0];
        if (changed) return [slot, found, changed[1], changed[2]];
        return [slot, found, this.field(1, slot), this.field(2, slot) | 0];
      }
      slot &= mask;
    }
  }

  /** Counts (1) or owners (2) at a slot. */
  private field(which: number, slot: number): number {
    this.read(this.word, 1, (which * this.capacity + slot) * 4);
    return this.word[0] as number;
  }

  private read(into: Uint32Array, words: number, offset: number): void {
    const bytes = new Uint8Array(into.buffer, 0, words * 4);
    if (readSync(this.fd, bytes, 0, bytes.length, this.at + offset) !== bytes.length)
      throw new Error('the phrase table is cut short');
  }

  /** The table read whole, with the changes made so far: from now on it is a PhraseTable. */
  private inMemory(): PhraseTable {
    const read = (which: number) => {
      const words = new Uint32Array(this.capacity);
      this.read(words, this.capacity, which * this.capacity * 4);
      return words;
    };
    const keys = read(0);
    const counts = read(1);
    const owners = new Int32Array(read(2).buffer);
    for (const [slot, [key, count, owner]] of this.changed) {
      keys[slot] = key;
      counts[slot] = count;
      owners[slot] = owner;
    }
    this.memory = PhraseTable.restore(keys, counts, owners);
    return this.memory;
  }
}
