/**
 * Which page each phrase is on, as far as the audit needs it: the one page, or "more than one".
 * Open addressing over typed arrays (8 bytes a slot), because a large site has millions of
 * distinct phrases and a Map of numbers would take ten times the memory.
 */
export class PhraseTable {
  private keys: Uint32Array;
  private owners: Int32Array;
  private count = 0;

  constructor(capacity = 1 << 16) {
    this.keys = new Uint32Array(capacity);
    this.owners = new Int32Array(capacity);
  }

  /**
   * Records that `page` has `phrase` (each page adds each of its phrases once). Returns the page
   * that owned the phrase alone until now and no longer does, SHARED if it was already on more
   * than one page, or NEW if no page had it.
   */
  add(phrase: number, page: number): number {
    // Up to three quarters full: linear probing stays short, and a table of a million phrases
    // takes 16 MB rather than 32 (issue 21's flat memory).
    if (this.count * 4 >= this.keys.length * 3) this.grow();
    const key = phrase === 0 ? 1 : phrase;
    const slot = this.find(key);
    if (this.keys[slot] === 0) {
      this.keys[slot] = key;
      this.owners[slot] = page;
      this.count++;
      return NEW;
    }
    const owner = this.owners[slot] as number;
    this.owners[slot] = SHARED;
    return owner;
  }

  private find(key: number): number {
    const mask = this.keys.length - 1;
    let slot = (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
    while (this.keys[slot] !== 0 && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, owners } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.owners = new Int32Array(keys.length * 2);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as number;
      if (key === 0) continue;
      const slot = this.find(key);
      this.keys[slot] = key;
      this.owners[slot] = owners[i] as number;
    }
  }
}

export const NEW = -1;
export const SHARED = -2;
