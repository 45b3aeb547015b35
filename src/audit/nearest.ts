import { BINS } from './minhash.js';

/**
 * Each page's most similar other page among its candidates, and how many of the signatures'
 * bins the two share (their similarity is that over BINS); page -1 where no candidate shares a
 * bin.
 */
export interface Nearest {
  page: Int32Array;
  equal: Uint8Array;
}

/** Rows of a band: 32 bands of 4 bins find a sibling of similarity 0.5 with odds of 7 in 8. */
const ROWS = 4;
const BANDS = BINS / ROWS;
/** How many neighbours on each side in a band's bucket a page is compared with. */
const WINDOW = 8;

/*
 * A page's candidates: in each band (locality-sensitive hashing), the pages whose signature has
 * the same band, as far as the WINDOW pages before and after it in page order. A band's bucket
 * of a thousand copies would cost a million comparisons; the window keeps it linear in the
 * pages, and every page whose signature equals another's in a whole band is still compared with
 * one of them. Its nearest page is the candidate sharing the most bins, the first in page order
 * of those that share as many: a function of the signatures alone, whatever order the pages are
 * compared in, so that an incremental audit (renewNearest) finds what a full one finds.
 */

/** Every page's nearest candidate; `signatures` holds BINS values a page. */
export function nearestSiblings(signatures: Uint16Array): Nearest {
  const pages = signatures.length / BINS;
  const best = emptyNearest(pages);
  const compared = new ComparedPairs(pages);
  for (let band = 0; band < BANDS; band++) {
    const buckets = new Map<number, number[]>();
    for (let page = 0; page < pages; page++) {
      const key = bandKey(signatures, page * BINS, band);
      const bucket = buckets.get(key);
      if (bucket) bucket.push(page);
      else buckets.set(key, [page]);
    }
    for (const bucket of buckets.values()) {
      for (let i = 0; i < bucket.length; i++) {
        const a = bucket[i] as number;
        const end = Math.min(bucket.length, i + 1 + WINDOW);
        for (let j = i + 1; j < end; j++) {
          const b = bucket[j] as number;
          // Both have an equal page before the other in page order: neither can do better.
          if (settled(best, a, b) && settled(best, b, a)) continue;
          if (!compared.first(a, b)) continue;
          const equal = equalBins(signatures, a, b);
          consider(best, a, b, equal);
          consider(best, b, a, equal);
        }
      }
    }
  }
  return best;
}

/**
 * Brings `nearest` up to date after the signatures of the pages in `changed` (page to its
 * signature before) changed, as nearestSiblings would find it anew. Only pages within the window
 * of a changed page, in a bucket it left or joined, can have other candidates or a candidate
 * that changed: those are found again, O(the pages times the bands) for the buckets and
 * O(those pages times their candidates) for the rest. Returns how many pages were found again.
 */
export function renewNearest(
  signatures: Uint16Array,
  nearest: Nearest,
  changed: ReadonlyMap<number, Uint16Array>,
): number {
  const pages = signatures.length / BINS;
  const isChanged = new Uint8Array(pages);
  for (const page of changed.keys()) isChanged[page] = 1;
  const renew = new Set<number>(changed.keys());
  for (let band = 0; band < BANDS; band++) {
    const before = new Map<number, number[]>();
    const after = new Map<number, number[]>();
    for (const [page, old] of changed) {
      before.set(bandKey(old, 0, band), []);
      after.set(bandKey(signatures, page * BINS, band), []);
    }
    for (let page = 0; page < pages; page++) {
      const now = bandKey(signatures, page * BINS, band);
      const old = isChanged[page] ? bandKey(changed.get(page) as Uint16Array, 0, band) : now;
      before.get(old)?.push(page);
      after.get(now)?.push(page);
    }
    for (const [page, old] of changed) {
      window(before.get(bandKey(old, 0, band)) as number[], page, renew);
      window(after.get(bandKey(signatures, page * BINS, band)) as number[], page, renew);
    }
  }
  // The page each page was last compared with: near-copies meet again band after band.
  const seen = new Int32Array(pages).fill(-1);
  for (const page of renew) {
    nearest.page[page] = -1;
    nearest.equal[page] = 0;
  }
  for (let band = 0; band < BANDS; band++) {
    const buckets = new Map<number, number[]>();
    for (const page of renew) buckets.set(bandKey(signatures, page * BINS, band), []);
    for (let page = 0; page < pages; page++)
      buckets.get(bandKey(signatures, page * BINS, band))?.push(page);
    for (const a of renew) {
      const bucket = buckets.get(bandKey(signatures, a * BINS, band)) as number[];
      const at = bucket.indexOf(a);
      const end = Math.min(bucket.length, at + 1 + WINDOW);
      for (let j = Math.max(0, at - WINDOW); j < end; j++) {
        const b = bucket[j] as number;
        if (b === a || seen[b] === a) continue;
        seen[b] = a;
        consider(nearest, a, b, equalBins(signatures, a, b));
      }
    }
  }
  return renew.size;
}

/** Adds the pages within the window of `page` in `bucket` (in page order) to `into`. */
function window(bucket: readonly number[], page: number, into: Set<number>): void {
  const at = bucket.indexOf(page);
  const end = Math.min(bucket.length, at + 1 + WINDOW);
  for (let j = Math.max(0, at - WINDOW); j < end; j++) into.add(bucket[j] as number);
}

function emptyNearest(pages: number): Nearest {
  return { page: new Int32Array(pages).fill(-1), equal: new Uint8Array(pages) };
}

/** Takes `b` as `a`'s nearest if it shares more bins, or as many and comes first. */
function consider(best: Nearest, a: number, b: number, equal: number): void {
  const was = best.equal[a] as number;
  if (equal > was || (equal === was && equal > 0 && b < (best.page[a] as number))) {
    best.page[a] = b;
    best.equal[a] = equal;
  }
}

/** Whether `a`'s nearest is an equal page before `b`, which `b` cannot displace. */
const settled = (best: Nearest, a: number, b: number) =>
  best.equal[a] === BINS && (best.page[a] as number) < b;

function equalBins(signatures: Uint16Array, a: number, b: number): number {
  const x = a * BINS;
  const y = b * BINS;
  let equal = 0;
  for (let i = 0; i < BINS; i++) if (signatures[x + i] === signatures[y + i]) equal++;
  return equal;
}

/**
 * The pages each page was last compared with, a few per page. Near-copies share most bands and
 * sit next to each other in each band's bucket, so the same pair would be compared band after
 * band; comparing it again gives the same answer, so skipping it changes nothing.
 */
class ComparedPairs {
  private readonly partners: Int32Array;
  private readonly next: Uint8Array;

  constructor(pages: number) {
    this.partners = new Int32Array(pages * REMEMBERED).fill(-1);
    this.next = new Uint8Array(pages);
  }

  /** Whether `a` and `b` (a before b) are compared for the first time lately; notes they are. */
  first(a: number, b: number): boolean {
    const base = a * REMEMBERED;
    for (let k = 0; k < REMEMBERED; k++) if (this.partners[base + k] === b) return false;
    const slot = this.next[a] as number;
    this.partners[base + slot] = b;
    this.next[a] = (slot + 1) % REMEMBERED;
    return true;
  }
}

/** Partners remembered per page: twice a bucket's window. */
const REMEMBERED = 2 * WINDOW;

/**
 * A band's four 16-bit bins as one number below 2^53: the first two as they are, the last two
 * mixed into the remaining 21 bits. Two bands sharing it by chance only makes two pages
 * candidates (once in millions of pairs at 40,000 pages).
 */
function bandKey(signatures: Uint16Array, at: number, band: number): number {
  const i = at + band * ROWS;
  const high = (signatures[i] as number) * 0x10000 + (signatures[i + 1] as number);
  const low = Math.imul(
    ((signatures[i + 2] as number) << 16) ^ (signatures[i + 3] as number) ^ 0x9e3779b9,
    0x85ebca6b,
  );
  return high * 0x200000 + ((low ^ (low >>> 15)) >>> 11);
}
