import type { PreviousManifest } from './manifest.js';
import type { PageState } from './page-state.js';
import type { IndexedPage } from './plan.js';

/**
 * The day each indexable page's content last changed (YYYY-MM-DD), for sitemap.xml's lastmod,
 * in the order of `indexable`: the legal pages' own "Last updated" dates and the posts' dates;
 * for every other page, today if the build changes its file, else the day the last build
 * recorded. A search engine that finds every page "changed today" on every build learns to
 * ignore the dates.
 */
export function pageDates(
  indexable: readonly IndexedPage[],
  state: PageState,
  previous: PreviousManifest | null,
  today: string,
): string[] {
  return indexable.map(
    (page) =>
      page.own ?? (state.changed[page.index] ? today : (previous?.entry(page.file)?.[3] ?? today)),
  );
}
