import { hash } from '../hash.js';
import { NEARBY } from '../routes.js';
import { inLanguage, nearbyInputs, restoreNearby } from '../site/model.js';
import type { Inputs } from './inputs.js';
import { Fingerprints, type Manifest } from './manifest.js';

/**
 * What this build must do, decided from its inputs and the last build's manifest alone: which
 * pages changed, whether the nearby-city lists and the sitemap can be taken as they were. Pure:
 * whether a kept file is still on disk is asked later, where files are staged.
 */
export interface Plan {
  /** The last build's manifest, when its pages may be reused (the same build key). */
  reusable: Manifest | null;
  /** Each page's fingerprint of what it reads, by output file. */
  fingerprints: Record<string, string>;
  /** Pages whose reads did not change: kept as they are, if their file is still there. */
  unchanged: number[];
  /** Pages to render. */
  changed: number[];
  /** What the nearby-city lists are measured from, and the last build's lists when the same. */
  nearby: { key: string; lists: Record<string, string[]> | null };
  /** What sitemap.xml is made from but the pages' dates (see stageSitemap). */
  sitemap: { key: string };
}

/** Whether the last build's pages may be reused: the same build key, and one at all. */
export function reusableManifest(inputs: Inputs, previous: Manifest | null): Manifest | null {
  return inputs.key !== null && previous?.key === inputs.key ? previous : null;
}

/**
 * The nearby lists are kept with the manifest and taken back while no city's slug, place,
 * population or order changed: measuring every city against every other is most of what
 * deciding which pages changed would cost. Decided before the pages, which read the lists.
 */
export function planNearby(inputs: Inputs, reusable: Manifest | null): Plan['nearby'] {
  const key = hash([NEARBY, nearbyInputs(inputs.site)]);
  const lists = reusable?.nearby?.key === key ? reusable.nearby.lists : null;
  return { key, lists };
}

/** Which pages changed since the last build: those whose fingerprint of their reads differs. */
export function planPages(
  inputs: Inputs,
  reusable: Manifest | null,
): Pick<Plan, 'fingerprints' | 'unchanged' | 'changed'> {
  const { site, pages, routes } = inputs;
  const readsOf = new Map(routes.map((r) => [r.id, r.reads]));
  const fingerprints: Record<string, string> = {};
  const unchanged: number[] = [];
  const changed: number[] = [];
  // What pages read is mostly shared (a city by its dozen pages): each object is hashed once.
  const prints = new Fingerprints();
  for (const [index, page] of pages.entries()) {
    // Read in the page's language: a French page lists its neighbours by their French names.
    // The share image's name too: the page links to it, and it names everything the image shows.
    const reads = readsOf.get(page.route)?.(page, inLanguage(site, page.lang));
    const fp = `${prints.of(reads)}:${inputs.share.of(page).key.slice(0, 10)}`;
    fingerprints[page.file] = fp;
    (reusable?.pages[page.file] === fp ? unchanged : changed).push(index);
  }
  return { fingerprints, unchanged, changed };
}

/** sitemap.xml lists the indexable pages' URLs, priorities and the lastmod. */
export function planSitemap(inputs: Inputs): Plan['sitemap'] {
  const { site, pages, lastmod } = inputs;
  const key = hash([
    site.settings.baseUrl,
    lastmod,
    pages.flatMap((p) => (p.sitemap ? [[p.path, p.sitemap, p.alternate]] : [])),
  ]);
  return { key };
}

/** The whole plan: reuse, the nearby lists (restored into the site model), pages, sitemap. */
export function planBuild(inputs: Inputs, previous: Manifest | null): Plan {
  const reusable = reusableManifest(inputs, previous);
  const nearby = planNearby(inputs, reusable);
  // Restored before the pages' reads, which measure nearby cities, are fingerprinted.
  if (nearby.lists) restoreNearby(inputs.site, NEARBY, nearby.lists);
  return {
    reusable,
    nearby,
    ...planPages(inputs, reusable),
    sitemap: planSitemap(inputs),
  };
}
