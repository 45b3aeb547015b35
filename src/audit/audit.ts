import { BINS, signature } from './minhash.js';
import { type Nearest, nearestSiblings, renewNearest } from './nearest.js';
import { GONE, NEW, type PhraseCounts, PhraseTable, SHARED } from './phrase-table.js';
import { inSentence, onTopic, shingles } from './shingles.js';
import type { Topics } from './topics.js';

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
  /**
   * The median share, per kind of page, of a page's own text (its phrases on no other page)
   * that lies in sentences about damage, claims, insurance, risk or recovery (data/relevance.json).
   */
  medianRelevance: 0.6,
  /** The least share of its own text on topic any one page may have. */
  minRelevance: 0.35,
  /**
   * Kinds of page whose subject is not damage but the visitor's data and the contract (the
   * privacy policy, the terms of service): their relevance is reported, not held to the above.
   */
  relevanceExempt: ['privacy', 'terms'],
} as const;

/**
 * An indexable page's main text, or its phrases when known already (see shingles), and the
 * kind of page it is (its route, or finer).
 */
type AuditInput = { path: string; kind: string } & ({ text: string } | { phrases: Uint32Array });

interface PageScore {
  path: string;
  kind: string;
  /** Distinct five-word phrases in its main text. */
  phrases: number;
  /** Of them, those found on no other indexable page. */
  ownPhrases: number;
  ownShare: number;
  /**
   * Of its own phrases that begin in a sentence (not a heading or a name in a list), the share
   * whose sentence is about damage, claims, insurance, risk or recovery; null when the audit had
   * no lexicon.
   */
  relevance: number | null;
  /** The most similar other indexable page, and how similar (estimated). */
  nearest: { path: string; similarity: number } | null;
}

interface KindSummary {
  kind: string;
  pages: number;
  medianOwnShare: number;
  minOwnShare: number;
  medianSimilarity: number;
  maxSimilarity: number;
  /** The page of this kind with the least of its own. */
  worst: string;
  /** Of its pages' relevance (see PageScore), the median and the least; null without a lexicon. */
  medianRelevance: number | null;
  minRelevance: number | null;
  /** The page of this kind with the least of its own text on topic; null without a lexicon. */
  leastRelevant: string | null;
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
 * What the audit knows of a site's indexable pages, by page index: enough to report on them,
 * and to be brought up to date when some pages change (see updateTables) without reading the
 * others again.
 */
export interface AuditTables {
  /** Distinct phrases a page. */
  phrases: Uint32Array;
  /** Of them, those found on no other page. */
  own: Int32Array;
  /** Of them, those that begin in a sentence, and in a sentence on topic (see shingles). */
  ownSentences: Int32Array;
  ownTopic: Int32Array;
  /** MinHash signatures, BINS values a page. */
  signatures: Uint16Array;
  nearest: Nearest;
  table: PhraseCounts;
}

/**
 * The content audit: how much of each indexable page is its own, and which page it most
 * resembles. Linear in the site's phrases: each page's phrases go through one table once (so
 * "found on no other page" is exact), and its nearest sibling is searched among the pages that
 * share a band of its MinHash signature (locality-sensitive hashing), not among all pages.
 */
export function audit(inputs: Iterable<AuditInput>, topics?: Topics): AuditReport {
  const pages: Array<{ path: string; kind: string }> = [];
  const tables = auditTables(
    (function* () {
      for (const input of inputs) {
        pages.push({ path: input.path, kind: input.kind });
        yield 'phrases' in input ? input.phrases : shingles(input.text, topics);
      }
    })(),
  );
  return reportOf(tables, pages, topics !== undefined);
}

/** The tables of pages given by their phrases, in page order (each taken in before the next). */
export function auditTables(pagesPhrases: Iterable<Uint32Array>): AuditTables {
  const table = PhraseTable.empty();
  const phrases = new GrowingArray(Uint32Array);
  const own = new GrowingArray(Int32Array);
  const ownSentences = new GrowingArray(Int32Array);
  const ownTopic = new GrowingArray(Int32Array);
  const signatures = new GrowingArray(Uint16Array);
  let page = 0;
  for (const list of pagesPhrases) {
    phrases.push(list.length);
    own.push(0);
    ownSentences.push(0);
    ownTopic.push(0);
    const owned = { own: own.array, ownSentences: ownSentences.array, ownTopic: ownTopic.array };
    addPhrases(table, owned, page, list);
    signatures.pushAll(signature(list));
    page++;
  }
  const sigs = signatures.done();
  return {
    phrases: phrases.done(),
    own: own.done(),
    ownSentences: ownSentences.done(),
    ownTopic: ownTopic.done(),
    signatures: sigs,
    nearest: nearestSiblings(sigs),
    table,
  };
}

/** A page's own phrases, and of them those on topic, by page index. */
type Owned = Pick<AuditTables, 'own' | 'ownSentences' | 'ownTopic'>;

/** Counts a phrase in, or out of, a page's own (and its own in sentences, and on topic). */
function own(owned: Owned, page: number, phrase: number, by: 1 | -1): void {
  // The phrase table keeps phrase 0 as 1 (see PhraseTable.add): one phrase, one set of bits.
  if (phrase === 0) phrase = 1;
  owned.own[page] = (owned.own[page] as number) + by;
  if (inSentence(phrase)) owned.ownSentences[page] = (owned.ownSentences[page] as number) + by;
  if (onTopic(phrase)) owned.ownTopic[page] = (owned.ownTopic[page] as number) + by;
}

/**
 * Adds a page's phrases to the table, counting them in its own phrases while no other page has
 * them, and out of the one page that had a phrase alone until now.
 */
function addPhrases(table: PhraseCounts, owned: Owned, page: number, list: Uint32Array): void {
  for (let i = 0; i < list.length; i++) {
    const phrase = list[i] as number;
    const was = table.add(phrase, page);
    if (was === NEW) own(owned, page, phrase, 1);
    else if (was !== SHARED) own(owned, was, phrase, -1);
  }
}

/** A page whose phrases changed: the phrases it had, and has. */
export interface PageChange {
  page: number;
  before: Uint32Array;
  after: Uint32Array;
}

/**
 * Brings the tables up to date with pages that changed (each change taken in before the next),
 * as auditTables would make them of the site as it is now: O(the changed pages' phrases) for
 * the phrases, and see renewNearest for the nearest pages. Returns how many pages' nearest page
 * was found again.
 */
export function updateTables(tables: AuditTables, changes: Iterable<PageChange>): number {
  const { table, phrases, signatures } = tables;
  const signaturesBefore = new Map<number, Uint16Array>();
  for (const { page, before, after } of changes) {
    for (let i = 0; i < before.length; i++) {
      const phrase = before[i] as number;
      const left = table.remove(phrase, page);
      if (left === GONE) own(tables, page, phrase, -1);
      else if (left !== SHARED) own(tables, left, phrase, 1);
    }
    addPhrases(table, tables, page, after);
    phrases[page] = after.length;
    const at = page * BINS;
    if (!signaturesBefore.has(page)) signaturesBefore.set(page, signatures.slice(at, at + BINS));
    signatures.set(signature(after), at);
  }
  return signaturesBefore.size === 0
    ? 0
    : renewNearest(signatures, tables.nearest, signaturesBefore);
}

/** The report on the pages the tables describe (path and kind by page index). */
export function reportOf(
  tables: AuditTables,
  pages: ReadonlyArray<{ path: string; kind: string }>,
  /** Whether the phrases carry the topic bit (see shingles): relevance is measured only then. */
  relevant = false,
): AuditReport {
  const { phrases, own, ownSentences, ownTopic, nearest } = tables;
  const scores: PageScore[] = pages.map(({ path, kind }, i) => {
    const count = phrases[i] as number;
    const near = nearest.page[i] as number;
    return {
      path,
      kind,
      phrases: count,
      ownPhrases: own[i] as number,
      ownShare: count === 0 ? 0 : (own[i] as number) / count,
      relevance: !relevant
        ? null
        : (ownSentences[i] as number) === 0
          ? 0
          : (ownTopic[i] as number) / (ownSentences[i] as number),
      nearest:
        near < 0
          ? null
          : { path: pages[near]?.path as string, similarity: (nearest.equal[i] as number) / BINS },
    };
  });
  return report(scores, nearest, relevant);
}

/** A typed array pushed onto, twice its size when full. */
class GrowingArray<T extends Uint32Array | Int32Array | Uint16Array> {
  array: T;
  length = 0;

  constructor(private readonly Type: { new (length: number): T }) {
    this.array = new Type(1024);
  }

  push(value: number): void {
    this.room(1);
    this.array[this.length++] = value;
  }

  pushAll(values: ArrayLike<number>): void {
    this.room(values.length);
    this.array.set(values, this.length);
    this.length += values.length;
  }

  /** The values pushed, in an array of their length. */
  done(): T {
    return this.array.slice(0, this.length) as T;
  }

  private room(n: number): void {
    if (this.length + n <= this.array.length) return;
    const next = new this.Type(Math.max(this.length + n, this.array.length * 2));
    next.set(this.array);
    this.array = next;
  }
}

function report(pages: PageScore[], nearest: Nearest, relevant: boolean): AuditReport {
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
    const relevance = list.map((p) => p.relevance ?? 0);
    const leastRelevant = list.reduce((a, b) => ((b.relevance ?? 0) < (a.relevance ?? 0) ? b : a));
    return {
      kind,
      pages: list.length,
      medianOwnShare: median(shares),
      minOwnShare: Math.min(...shares),
      medianSimilarity: median(sims),
      maxSimilarity: Math.max(...sims),
      worst: worst.path,
      medianRelevance: relevant ? median(relevance) : null,
      minRelevance: relevant ? Math.min(...relevance) : null,
      leastRelevant: relevant ? leastRelevant.path : null,
    };
  });
  const failures: string[] = [];
  for (const k of kinds) {
    if (k.medianOwnShare < THRESHOLDS.medianOwnShare)
      failures.push(
        `${k.kind}: the median page has ${percent(k.medianOwnShare)} of its phrases on no other page (at least ${percent(THRESHOLDS.medianOwnShare)})`,
      );
    if (
      k.medianRelevance !== null &&
      k.medianRelevance < THRESHOLDS.medianRelevance &&
      !exempt(k.kind)
    )
      failures.push(
        `${k.kind}: the median page has ${percent(k.medianRelevance)} of its own text about damage, claims, insurance, risk or recovery (at least ${percent(THRESHOLDS.medianRelevance)})`,
      );
  }
  for (const p of pages) {
    if (p.ownShare < THRESHOLDS.minOwnShare)
      failures.push(
        `${p.path}: ${percent(p.ownShare)} of its phrases are on no other page (at least ${percent(THRESHOLDS.minOwnShare)})`,
      );
    if (p.relevance !== null && p.relevance < THRESHOLDS.minRelevance && !exempt(p.kind))
      failures.push(
        `${p.path}: ${percent(p.relevance)} of its own text is about damage, claims, insurance, risk or recovery (at least ${percent(THRESHOLDS.minRelevance)})`,
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
function clusters(pages: readonly PageScore[], nearest: Nearest): string[][] {
  const parent = pages.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  for (const [i, page] of nearest.page.entries())
    if (page >= 0 && (nearest.equal[i] as number) / BINS > THRESHOLDS.maxSimilarity)
      parent[root(i)] = root(page);
  const groups = new Map<number, string[]>();
  for (const [i, page] of pages.entries()) {
    const r = root(i);
    const group = groups.get(r);
    if (group) group.push(page.path);
    else groups.set(r, [page.path]);
  }
  return [...groups.values()].filter((g) => g.length > 1).sort((a, b) => b.length - a.length);
}

/** Whether a kind of page is not held to the relevance thresholds (see THRESHOLDS). */
const exempt = (kind: string) => (THRESHOLDS.relevanceExempt as readonly string[]).includes(kind);

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
