import type { Page } from '../routes.js';
import { isoFromWritten } from '../site/format.js';
import type { Site } from '../site/model.js';

/**
 * The day each indexable page's content last changed (YYYY-MM-DD), for sitemap.xml's lastmod:
 * the legal pages' own "Last updated" dates and the posts' dates; for every other page, today
 * if the build changes its file, else the day the last build recorded. A search engine that
 * finds every page "changed today" on every build learns to ignore the dates.
 */
export function pageDates(
  site: Site,
  pages: readonly Page[],
  changes: (file: string) => boolean,
  previous: Readonly<Record<string, string>> | undefined,
  today: string,
): Record<string, string> {
  const dates: Record<string, string> = {};
  for (const page of pages) {
    if (page.sitemap === null) continue;
    dates[page.path] =
      own(site, page) ?? (changes(page.file) ? today : (previous?.[page.path] ?? today));
  }
  return dates;
}

function own(site: Site, page: Page): string | null {
  if (page.route === 'privacy') return isoFromWritten(site.content.privacy.updated);
  if (page.route === 'terms') return isoFromWritten(site.content.terms.updated);
  if (page.route === 'blog-post' && page.post) return page.post.date;
  return null;
}
