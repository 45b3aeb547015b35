import { pageKind } from '../audit/site-audit.js';
import { hash } from '../hash.js';
import type { Lang } from '../i18n/lang.js';
import type { PageUnits } from '../pages.js';
import { type ChangeFreq, NEARBY, type Page, type Route } from '../routes.js';
import type { ShareImage } from '../share/share-images.js';
import { isoFromWritten } from '../site/format.js';
import { inLanguage, nearbyInputs, restoreNearby, type Site } from '../site/model.js';
import { pathForFile } from '../urls.js';
import { filesHash, NumberList, PathHashes, PathList, PathsHasher, pathHash } from './compact.js';
import { Fingerprints } from './fingerprints.js';
import type { Inputs } from './inputs.js';
import {
  type IndexedLine,
  type PageLine,
  type PreviousManifest,
  pageLine,
  type UnitLines,
} from './manifest.js';
import { PageState } from './page-state.js';
import { unitDigest } from './unit-digest.js';

/**
 * What this build must do, decided from its inputs and the last build's manifest alone: which
 * pages changed, whether the nearby-city lists can be taken as they were. No disk: whether a
 * kept file is still there is asked later, where files are staged. Its one effect is a note on
 * the last manifest of which of its files the new output has too (PreviousManifest.mark), so
 * that the commit finds what it deletes without a set of every path.
 *
 * Pages are planned a unit (a city) at a time and let go: what the plan keeps of a page is its
 * file, its fingerprint and a few bytes of shared state, and of an indexable page what the
 * sitemap and the audit need. Every step is O(1) in the pages, but for the page's own reads.
 */
export interface Plan {
  /** The last build's manifest, when its pages may be reused (the same build key). */
  reusable: PreviousManifest | null;
  /** Where each unit's pages start in the page order, then the page count. */
  starts: Int32Array;
  /** Each page's output file, in page order. */
  files: PathList;
  /** Each page's fingerprint of what it reads (see printOf). */
  prints: NumberList;
  /** Render flags, ownership and the sizes of kept files; shared with the threads. */
  state: PageState;
  /** For a page of a copied unit, its line's number in the last manifest plus one; else 0. */
  copiedLines: Int32Array;
  /** The pages in sitemap.xml, in page order. */
  indexable: IndexedPage[];
  /** Every page's share image, each once, in page order, of the units whose pages were made. */
  images: ShareImage[];
  /** The share images of the units copied from the last manifest (and of no other unit). */
  copiedImages: string[];
  /** Each unit of a city: its slug, digest, share images and files' hash (null: no digest). */
  units: Array<PlannedUnit | null>;
  /** The output folder's top-level entries the pages are under. */
  tops: Set<string>;
  /** The public files at a page's path, and that page's path (a data error; see checkPublicPaths). */
  publicPages: Map<string, string>;
  /**
   * What the nearby-city lists are measured from, and whether the last build's were restored
   * into the site model (the same key).
   */
  nearby: { key: string; restored: boolean };
}

/** A city's unit as the manifest records it (see UnitLine). */
interface PlannedUnit extends UnitMade {
  slug: string;
  digest: string;
}

/** A unit's share images and the hash of its files' paths (see filesHash). */
interface UnitMade {
  images: string[];
  files: number;
}

/** What sitemap.xml, the pages' dates and the audit need of an indexable page. */
export interface IndexedPage {
  index: number;
  path: string;
  file: string;
  lang: Lang;
  /** The path of its translation, indexable or not. */
  alternate: string | null;
  sitemap: { priority: number; changefreq: ChangeFreq };
  /** Its kind in the audit (see pageKind). */
  kind: string;
  /** The day its content says it last changed (the legal pages, the posts); null for none. */
  own: string | null;
}

/** Whether the last build's pages may be reused: the same build key, and one at all. */
function reusableManifest(
  inputs: Inputs,
  previous: PreviousManifest | null,
): PreviousManifest | null {
  return inputs.key !== null && previous?.header.key === inputs.key ? previous : null;
}

/**
 * The nearby lists are kept with the manifest and taken back while no city's slug, place,
 * population or order changed. Decided before the pages, which read the lists.
 */
function planNearby(
  inputs: Inputs,
  reusable: PreviousManifest | null,
): { key: string; lists: Record<string, string[]> | null } {
  const key = hash([NEARBY, nearbyInputs(inputs.site)]);
  const kept = reusable?.header.nearby;
  return { key, lists: kept?.key === key ? kept.lists : null };
}

/**
 * Every page, a unit at a time: its fingerprint (what it reads, and its share image's name),
 * whether the last build's file can be kept (the same fingerprint under the same key), and
 * whether the file at its path is the last build's. The fingerprints hash each shared value
 * once (a city by its dozen pages, a nearby list by its areas): linear in the pages. A city
 * whose digest is the last build's (see unitDigest) is taken from the manifest, its pages not
 * made at all: an edit to one city plans its pages and its neighbours' (whose lists show it).
 */
function planPages(
  inputs: Inputs,
  reusable: PreviousManifest | null,
  previous: PreviousManifest | null,
): Omit<Plan, 'reusable' | 'nearby'> {
  const { units } = inputs;
  const planner = new Planner(inputs, reusable, previous);
  const starts = new Int32Array(units.count + 1);
  const unitLines: Array<PlannedUnit | null> = [];
  for (let u = 0; u < units.count; u++) {
    starts[u] = planner.files.count;
    const digest = unitDigest(units, u, planner.prints);
    const slug = units.cities(u)[0]?.city.slug ?? '';
    const last = digest === null ? null : (reusable?.unit(slug, digest) ?? null);
    const copied = last && planner.copy(last);
    plannedUnits[copied ? 'copied' : 'made']++;
    const made = copied ?? planner.enumerate(u);
    unitLines.push(digest === null ? null : { slug, digest, ...made });
  }
  starts[units.count] = planner.files.count;
  return { ...planner.finish(), starts, units: unitLines };
}

/** Units planned since the process started, made or copied: tests check which. */
export const plannedUnits = { made: 0, copied: 0 };

/** What planPages gathers of each page, whether it makes the page or copies its manifest line. */
class Planner {
  readonly files = new PathList();
  readonly prints: Fingerprints;
  private readonly printList: NumberList;
  /**
   * Each page's size if its last file can be kept (then it is the last build's file), else
   * RENDER or RENDER_OWNED: to render, over a file the last build did not or did write.
   */
  private readonly kept: number[] = [];
  /** The top-level entry of the last page added (a unit's pages mostly share it). */
  private lastTop = '';
  /** See Plan.copiedLines. */
  private readonly copiedLines: number[] = [];
  /** The pages' files the last manifest does not list (see add). */
  private readonly written = new PathHashes();
  private readonly indexable: IndexedPage[] = [];
  private readonly images = new Map<string, ShareImage>();
  private readonly copiedImages = new Set<string>();
  private readonly tops = new Set<string>();
  private readonly publicPages = new Map<string, string>();
  private readonly publicRels: Set<string>;
  private readonly readsOf: Map<string, Route['reads']>;
  /** A unit's lines as copy reads them: reused from unit to unit. */
  private readonly lines: PageLine[] = [];
  private readonly hasher = new PathsHasher();

  constructor(
    private readonly inputs: Inputs,
    private readonly reusable: PreviousManifest | null,
    private readonly previous: PreviousManifest | null,
  ) {
    this.readsOf = new Map(inputs.routes.map((r) => [r.id, r.reads]));
    // A city is its record's digest: an edit's plan need not hash every city to find the one
    // that changed (at 100x, 44 MB of JSON).
    this.prints = new Fingerprints(inputs.site.recordDigests);
    // Sized for about as many pages as the last build wrote files: most builds make as many.
    this.printList = new NumberList(previous?.entries ?? 0);
    this.publicRels = new Set(inputs.publicFiles.map((f) => f.rel));
  }

  /** Makes unit `u`'s pages and plans each. */
  enumerate(u: number): UnitMade {
    const { site, share, units } = this.inputs;
    const unitImages = new Set<string>();
    const pages = units.pages(u);
    for (const page of pages) {
      // Undefined: the last build did not write this file (see mark).
      const marked = this.previous?.mark(page.file);
      const index = this.add(page.file, page.path, marked);
      // Read in the page's language: a French page lists its neighbours by their French names.
      // The share image's name too: the page links to it, and it names everything it shows.
      const reads = this.readsOf.get(page.route)?.(page, inLanguage(site, page.lang));
      const image = share.of(page);
      if (!this.images.has(image.file)) this.images.set(image.file, image);
      unitImages.add(image.file);
      const print = printOf(`${this.prints.of(reads)}:${image.key.slice(0, 10)}`);
      this.printList.push(print);
      const size = this.reusable?.sizeIfPrint(page.file, printText(print)) ?? -1;
      this.kept.push(size >= 0 ? size : marked !== undefined ? RENDER_OWNED : RENDER);
      this.copiedLines.push(0);
      if (page.sitemap) this.indexable.push(indexed(site, page, page.sitemap, index));
    }
    return { images: [...unitImages], files: filesHash(pages.map((p) => p.file)) };
  }

  /**
   * Takes a unit's pages from the last manifest's lines as they are: the same files, sizes and
   * fingerprints, and what the sitemap and the audit need of the indexable ones. Each line is
   * read where it is, its path hashed there (see readPage, PathsHasher): an edit to one city
   * copies every other city's lines, 350,000 at 100x.
   */
  copy(last: UnitLines): UnitMade | null {
    const reusable = this.reusable as PreviousManifest;
    const { lines, hasher } = this;
    hasher.start();
    for (let k = 0; k < last.count; k++) {
      if (lines.length === k) lines.push(pageLine());
      const line = lines[k] as PageLine;
      // A manifest edited by hand is not trusted further than it can be checked: the unit is made.
      if (!reusable.readPage(last.first + k, line)) return null;
      hasher.add(line.text, line.start, line.end);
    }
    if (hasher.files !== last.files) return null;
    for (let k = 0; k < last.count; k++) {
      const { text, start, end, size, print, indexed } = lines[k] as PageLine;
      const file = text.slice(start, end);
      const index = this.add(file, null, reusable.markAt(last.first + k));
      this.printList.push(print);
      this.kept.push(size);
      this.copiedLines.push(last.first + k + 1);
      if (indexed) this.indexable.push(indexedFromLine(file, indexed, index));
    }
    for (const image of last.images) this.copiedImages.add(image);
    return { images: last.images, files: last.files };
  }

  /**
   * Adds a page's file; `marked` is what marking it in the last manifest answered (see mark).
   * Two pages of one file are found by the manifest's marks when it lists the file, else by
   * `written`: at 100x an edit's 350,000 copied pages cost no look-up in a table of paths.
   */
  private add(file: string, path: string | null, marked: boolean | undefined): number {
    const index = this.files.count;
    if (marked === false || (marked === undefined && !this.written.add(file)))
      assertOnlyPage(this.inputs.units, file);
    this.files.push(file);
    const { lastTop } = this;
    if (!(file.startsWith(lastTop) && file.charCodeAt(lastTop.length) === SLASH)) {
      const slash = file.indexOf('/');
      this.lastTop = slash < 0 ? file : file.slice(0, slash);
      this.tops.add(this.lastTop);
    }
    if (this.publicRels.size > 0 && this.publicRels.has(file))
      this.publicPages.set(file, path ?? pathForFile(file));
    return index;
  }

  finish(): Omit<Plan, 'reusable' | 'nearby' | 'starts' | 'units'> {
    const { files, kept } = this;
    const state = PageState.create(files.count);
    for (let i = 0; i < kept.length; i++) {
      const size = kept[i] as number;
      if (size >= 0) state.sizes[i] = size;
      else state.render[i] = 1;
      if (size !== RENDER) state.owned[i] = 1;
    }
    for (const file of this.images.keys()) this.copiedImages.delete(file);
    return {
      files,
      prints: this.printList,
      state,
      copiedLines: Int32Array.from(this.copiedLines),
      indexable: this.indexable,
      images: [...this.images.values()],
      copiedImages: [...this.copiedImages],
      tops: this.tops,
      publicPages: this.publicPages,
    };
  }
}

/** See Planner.kept. */
const RENDER = -1;
const RENDER_OWNED = -2;
const SLASH = 47;

/**
 * A page's fingerprint: a 53-bit hash of the hashes of what it reads (each a SHA-256, see
 * Fingerprints) and of its image's name. Two different pages' reads share one with odds of
 * one in 2^53: only what changes a page is weighed here, never which page it is.
 */
const printOf = (reads: string) => pathHash(reads);

/** A fingerprint as the manifest writes it. */
export const printText = (print: number) => String(print);

/**
 * Two pages of the same file's path hash: most likely two pages of one file, which is a bug in
 * the routes or the data. Checked exactly, over every page, only then.
 */
function assertOnlyPage(units: PageUnits, file: string): void {
  const same: string[] = [];
  for (let u = 0; u < units.count; u++)
    for (const p of units.pages(u)) if (p.file === file) same.push(p.path);
  if (same.length > 1) throw new Error(`Two pages would write ${file}: ${same[0]} and ${same[1]}`);
}

function indexed(
  site: Site,
  page: Page,
  sitemap: IndexedPage['sitemap'],
  index: number,
): IndexedPage {
  return {
    index,
    path: page.path,
    file: page.file,
    lang: page.lang,
    alternate: page.alternate,
    sitemap,
    kind: pageKind(page),
    own: ownDate(site, page),
  };
}

/** An indexable page of a copied unit, from its manifest line (a city's page has no own date). */
function indexedFromLine(file: string, line: IndexedLine, index: number): IndexedPage {
  const [lang, alternate, priority, changefreq, kind] = line;
  return {
    index,
    path: pathForFile(file),
    file,
    lang: lang as Lang,
    alternate,
    sitemap: { priority, changefreq: changefreq as ChangeFreq },
    kind,
    own: null,
  };
}

/** What the manifest keeps of an indexable page (see indexedFromLine). */
export const indexedLine = (page: IndexedPage): IndexedLine => [
  page.lang,
  page.alternate,
  page.sitemap.priority,
  page.sitemap.changefreq,
  page.kind,
];

/** The legal pages' own "Last updated" dates (as the English pages write them) and the posts'. */
function ownDate(site: Site, page: Page): string | null {
  if (page.route === 'privacy') return isoFromWritten(site.content.privacy.updated);
  if (page.route === 'terms') return isoFromWritten(site.content.terms.updated);
  if (page.route === 'blog-post' && page.post) return page.post.date;
  return null;
}

/** The whole plan: reuse, the nearby lists (restored into the site model), then the pages. */
export function planBuild(inputs: Inputs, previous: PreviousManifest | null): Plan {
  const reusable = reusableManifest(inputs, previous);
  const { key, lists } = planNearby(inputs, reusable);
  // Restored before the pages' reads, which measure nearby cities, are fingerprinted; in every
  // language, whose cities have the same slugs, places and populations.
  if (lists) for (const site of inputs.site.languages.values()) restoreNearby(site, NEARBY, lists);
  const pages = planPages(inputs, reusable, previous);
  previous?.forgetPlanning();
  return { reusable, nearby: { key, restored: lists !== null }, ...pages };
}
