import { BINS, signature, similarity } from './minhash.js';
import { NEW, PhraseTable, SHARED } from './phrase-table.js';
import { shingles } from './shingles.js';

/** What the audit holds every indexable page to. */
export const THRESHOLDS = {
  /** The median share of a page's phrases found on no other page, per kind of page. */
  medianOwnShare: 0.35,
  /** The least share any one page may have. */
  minOwnShare: 0.2,
  /** The most a page may resemble its nearest indexable sibling (Jaccard of phrases). */
  maxSimilarity: 0.5,
  /** Fewer phrases of its own than this, and a page is reported as thin. */
  thinPhrases: 100,
} as const;

/**
 * An indexable page's main text, or its phrases when known already (see shingles), and the
 * kind of page it is (its route, or finer).
 */
export type AuditInput = { path: string; kind: string } & (
  | { text: string }
  | { phrases: Uint32Array }
);

export interface PageScore {
  path: string;
  kind: string;
  /** Distinct five-word phrases in its main text. */
  phrases: number;
  /** Of them, those found on no other indexable page. */
  ownPhrases: number;
  ownShare: number;
  /** The most similar other indexable page, and how similar (estimated). */
  nearest: { path: string; similarity: number } | null;
}

export interface KindSummary {
  kind: string;
  pages: number;
  medianOwnShare: number;
  minOwnShare: number;
  medianSimilarity: number;
  maxSimilarity: number;
  /** The page of this kind with the least of its own. */
  worst: string;
}

export interface AuditReport {
  thresholds: typeof THRESHOLDS;
  kinds: KindSummary[];
  /** Groups of pages each more similar than maxSimilarity to another in the group, largest first. */
  clusters: string[][];
  /** Pages with fewer than thinPhrases phrases of their own. */
  thin: string[];
  /** Every threshold broken, one line each. */
  failures: string[];
  pages: PageScore[];
}

/**
 * The content audit: how much of each indexable page is its own, and which page it most
 * resembles. Linear in the site's phrases: each page's phrases go through one table once (so
 * "found on no other page" is exact), and its nearest sibling is searched among the pages that
 * share a band of its MinHash signature (locality-sensitive hashing), not among all pages.
 */
export function audit(inputs: Iterable<AuditInput>): AuditReport {
  const table = new PhraseTable();
  const paths: string[] = [];
  const kinds: string[] = [];
  const phraseCounts: number[] = [];
  const own: number[] = [];
  const signatures: Uint32Array[] = [];
  for (const input of inputs) {
    const page = paths.length;
    const phrases = 'phrases' in input ? input.phrases : shingles(input.text);
    paths.push(input.path);
    kinds.push(input.kind);
    phraseCounts.push(phrases.length);
    own.push(0);
    for (let i = 0; i < phrases.length; i++) {
      const was = table.add(phrases[i] as number, page);
      if (was === NEW) own[page] = (own[page] as number) + 1;
      else if (was !== SHARED && was !== page) own[was] = (own[was] as number) - 1;
    }
    signatures.push(signature(phrases));
  }
  const nearest = nearestSiblings(signatures);
  const pages: PageScore[] = paths.map((path, i) => {
    const count = phraseCounts[i] as number;
    const best = nearest[i] as Nearest;
    return {
      path,
      kind: kinds[i] as string,
      phrases: count,
      ownPhrases: own[i] as number,
      ownShare: count === 0 ? 0 : (own[i] as number) / count,
      nearest:
        best.page < 0 ? null : { path: paths[best.page] as string, similarity: best.similarity },
    };
  });
  return report(pages, nearest);
}

interface Nearest {
  page: number;
  similarity: number;
}

/** Rows of a band: 32 bands of 4 bins find a sibling of similarity 0.5 with odds of 7 in 8. */
const ROWS = 4;
/** How many neighbours in a band's bucket a page is compared with. */
const WINDOW = 8;
/** A sibling this similar cannot be beaten by much: the page stops looking. */
const CLOSE_ENOUGH = 0.97;

/**
 * Each page's most similar other page among its LSH candidates. A band's bucket of a thousand
 * copies would cost a million comparisons, so each page is compared with its next WINDOW pages
 * in a bucket, and stops once it has found a near-copy: linear in the pages, and every page
 * whose signature equals another's in a whole band is still compared with one of them.
 */
function nearestSiblings(signatures: readonly Uint32Array[]): Nearest[] {
  // The best so far in typed arrays, not an object a page: a page's window reads both pages'
  // best, at random among 40,000 pages at 100x, and these stay in the processor's cache.
  const bestPage = new Int32Array(signatures.length).fill(-1);
  const bestSimilarity = new Float64Array(signatures.length);
  const compared = new ComparedPairs(signatures.length);
  for (let band = 0; band + ROWS <= BINS; band += ROWS) {
    // A band's four bins as one number: each bin is 25 bits (see signature), so two of them
    // fold into 50 bits and the band into a number below 2^53 with one more mix. Two bands
    // sharing it by chance only makes two pages compared once more.
    const buckets = new Map<number, number[]>();
    for (const [page, sig] of signatures.entries()) {
      const key = bandKey(sig, band);
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
          const bestA = bestSimilarity[a] as number;
          const bestB = bestSimilarity[b] as number;
          if (bestA >= CLOSE_ENOUGH && bestB >= CLOSE_ENOUGH) continue;
          if (!compared.first(a, b)) continue;
          const s = similarity(signatures[a] as Uint32Array, signatures[b] as Uint32Array);
          if (s > bestA) {
            bestPage[a] = b;
            bestSimilarity[a] = s;
          }
          if (s > bestB) {
            bestPage[b] = a;
            bestSimilarity[b] = s;
          }
        }
      }
    }
  }
  return Array.from(bestPage, (page, i) => ({ page, similarity: bestSimilarity[i] as number }));
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

function bandKey(sig: Uint32Array, band: number): number {
  const a = ((sig[band] as number) * 0x2000000 + (sig[band + 1] as number)) % 0x20000000000000;
  const b =
    Math.imul((sig[band + 2] as number) ^ 0x9e3779b9, 0x85ebca6b) ^ (sig[band + 3] as number);
  return (a + (b >>> 0) * 0x100000) % 0x20000000000000;
}

function report(pages: PageScore[], nearest: readonly Nearest[]): AuditReport {
  const byKind = new Map<string, PageScore[]>();
  for (const page of pages) {
    const list = byKind.get(page.kind);
    if (list) list.push(page);
    else byKind.set(page.kind, [page]);
  }
  const kinds: KindSummary[] = [...byKind].map(([kind, list]) => {
    const shares = list.map((p) => p.ownShare);
    const sims = list.map((p) => p.nearest?.similarity ?? 0);
    const worst = list.reduce((a, b) => (b.ownShare < a.ownShare ? b : a));
    return {
      kind,
      pages: list.length,
      medianOwnShare: median(shares),
      minOwnShare: Math.min(...shares),
      medianSimilarity: median(sims),
      maxSimilarity: Math.max(...sims),
      worst: worst.path,
    };
  });
  const failures: string[] = [];
  for (const k of kinds) {
    if (k.medianOwnShare < THRESHOLDS.medianOwnShare)
      failures.push(
        `${k.kind}: the median page has ${percent(k.medianOwnShare)} of its phrases on no other page (at least ${percent(THRESHOLDS.medianOwnShare)})`,
      );
  }
  for (const p of pages) {
    if (p.ownShare < THRESHOLDS.minOwnShare)
      failures.push(
        `${p.path}: ${percent(p.ownShare)} of its phrases are on no other page (at least ${percent(THRESHOLDS.minOwnShare)})`,
      );
    if (p.nearest && p.nearest.similarity > THRESHOLDS.maxSimilarity)
      failures.push(
        `${p.path}: ${p.nearest.similarity.toFixed(2)} similar to ${p.nearest.path} (at most ${THRESHOLDS.maxSimilarity})`,
      );
  }
  return {
    thresholds: THRESHOLDS,
    kinds,
    clusters: clusters(pages, nearest),
    thin: pages.filter((p) => p.ownPhrases < THRESHOLDS.thinPhrases).map((p) => p.path),
    failures,
    pages,
  };
}

/** Pages linked by a similarity over the threshold, grouped (union-find), largest first. */
function clusters(pages: readonly PageScore[], nearest: readonly Nearest[]): string[][] {
  const parent = pages.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  for (const [i, n] of nearest.entries())
    if (n.page >= 0 && n.similarity > THRESHOLDS.maxSimilarity) parent[root(i)] = root(n.page);
  const groups = new Map<number, string[]>();
  for (const [i, page] of pages.entries()) {
    const r = root(i);
    const group = groups.get(r);
    if (group) group.push(page.path);
    else groups.set(r, [page.path]);
  }
  return [...groups.values()].filter((g) => g.length > 1).sort((a, b) => b.length - a.length);
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
