/** How many words make a phrase: the audit compares pages by their five-word phrases. */
export const SHINGLE_WORDS = 5;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** The words of a text, lower-cased, apostrophes kept inside words. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * The distinct five-word phrases of a text as 32-bit hashes, sorted. A text shorter than five
 * words is one phrase. Hashes, not strings: a page has a thousand phrases and a large site
 * millions, and two phrases sharing a hash by chance only nudge a share by a fraction of a
 * percent.
 */
export function shingles(text: string): Uint32Array {
  const ws = words(text);
  if (ws.length === 0) return new Uint32Array(0);
  const hashes = ws.map(hashWord);
  const count = Math.max(1, ws.length - SHINGLE_WORDS + 1);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let h = 0x811c9dc5;
    for (let k = i; k < Math.min(i + SHINGLE_WORDS, hashes.length); k++) {
      h = Math.imul(h ^ (hashes[k] as number), 0x01000193);
      h ^= h >>> 15;
    }
    out[i] = fmix(h);
  }
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++)
    if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i] as number;
  return out.slice(0, n);
}

/** FNV-1a over a word's UTF-16 units. */
function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's finaliser: spreads the bits, so a hash's bins and bands are uniform. */
export function fmix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
