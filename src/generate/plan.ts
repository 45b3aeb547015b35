import { pageKind } from '../audit/site-audit.js';
import { hash } from '../hash.js';
import type { Lang } from '../i18n/lang.js';
import type { PageUnits } from '../pages.js';
import { type ChangeFreq, NEARBY, type Page } from '../routes.js';
import type { ShareImage } from '../share/share-images.js';
import { isoFromWritten } from '../site/format.js';
import { inLanguage, nearbyInputs, restoreNearby, type Site } from '../site/model.js';
import { NumberList, PathHashes, PathList, pathHash } from './compact.js';
import { Fingerprints } from './fingerprints.js';
import type { Inputs } from './inputs.js';
import type { PreviousManifest } from './manifest.js';
import { PageState } from './page-state.js';

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
  /** The pages in sitemap.xml, in page order. */
  indexable: IndexedPage[];
  /** Every page's share image, each once, in page order. */
  images: ShareImage[];
  /** The output folder's top-level entries the pages are under. */
  tops: Set<string>;
  /** The public files at a page's path, and that page's path (a data error; see checkPublicPaths). */
  publicPages: Map<string, string>;
  /** What the nearby-city lists are measured from, and the last build's lists when the same. */
  nearby: { key: string; lists: Record<string, string[]> | null };
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
export function reusableManifest(
  inputs: Inputs,
  previous: PreviousManifest | null,
): PreviousManifest | null {
  return inputs.key !== null && previous?.header.key === inputs.key ? previous : null;
}

/**
 * The nearby lists are kept with the manifest and taken back while no city's slug, place,
 * population or order changed. Decided before the pages, which read the lists.
 */
export function planNearby(inputs: Inputs, reusable: PreviousManifest | null): Plan['nearby'] {
  const key = hash([NEARBY, nearbyInputs(inputs.site)]);
  const kept = reusable?.header.nearby;
  return { key, lists: kept?.key === key ? kept.lists : null };
}

/**
 * Every page, a unit at a time: its fingerprint (what it reads, and its share image's name),
 * whether the last build's file can be kept (the same fingerprint under the same key), and
 * whether the file at its path is the last build's. The fingerprints hash each shared value
 * once (a city by its dozen pages, a nearby list by its areas): linear in the pages.
 */
export function planPages(
  inputs: Inputs,
  reusable: PreviousManifest | null,
  previous: PreviousManifest | null,
): Omit<Plan, 'reusable' | 'nearby'> {
  const { site, units, routes } = inputs;
  const readsOf = new Map(routes.map((r) => [r.id, r.reads]));
  const publicRels = new Set(inputs.publicFiles.map((f) => f.rel));
  const prints = new Fingerprints();
  const starts = new Int32Array(units.count + 1);
  const files = new PathList();
  const printList = new NumberList();
  const kept: number[] = [];
  const written = new PathHashes();
  const indexable: IndexedPage[] = [];
  const images = new Map<string, ShareImage>();
  const tops = new Set<string>();
  const publicPages = new Map<string, string>();
  for (let u = 0; u < units.count; u++) {
    starts[u] = files.count;
    for (const page of units.pages(u)) {
      const index = files.count;
      if (!written.add(page.file)) assertOnlyPage(units, page);
      files.push(page.file);
      tops.add(page.file.split('/')[0] ?? '');
      if (publicRels.has(page.file)) publicPages.set(page.file, page.path);
      // Read in the page's language: a French page lists its neighbours by their French names.
      // The share image's name too: the page links to it, and it names everything it shows.
      const reads = readsOf.get(page.route)?.(page, inLanguage(site, page.lang));
      const image = inputs.share.of(page);
      if (!images.has(image.file)) images.set(image.file, image);
      const print = printOf(`${prints.of(reads)}:${image.key.slice(0, 10)}`);
      printList.push(print);
      kept.push(reusable?.sizeIfPrint(page.file, printText(print)) ?? -1);
      previous?.mark(page.file);
      if (page.sitemap) indexable.push(indexed(site, page, page.sitemap, index));
    }
  }
  starts[units.count] = files.count;
  const state = PageState.create(files.count);
  let i = 0;
  for (const file of files) {
    const size = kept[i] ?? -1;
    if (size >= 0) state.sizes[i] = size;
    else state.render[i] = 1;
    if (previous?.has(file)) state.owned[i] = 1;
    i++;
  }
  return {
    starts,
    files,
    prints: printList,
    state,
    indexable,
    images: [...images.values()],
    tops,
    publicPages,
  };
}

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
function assertOnlyPage(units: PageUnits, page: Page): void {
  const same: string[] = [];
  for (let u = 0; u < units.count; u++)
    for (const p of units.pages(u)) if (p.file === page.file) same.push(p.path);
  if (same.length > 1)
    throw new Error(`Two pages would write ${page.file}: ${same[0]} and ${same[1]}`);
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
  const nearby = planNearby(inputs, reusable);
  // Restored before the pages' reads, which measure nearby cities, are fingerprinted.
  if (nearby.lists) restoreNearby(inputs.site, NEARBY, nearby.lists);
  return { reusable, nearby, ...planPages(inputs, reusable, previous) };
}
