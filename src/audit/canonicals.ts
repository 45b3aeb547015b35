import type { Page } from '../routes.js';

/**
 * Where pages point search engines, as they should: a page consolidated into another names a
 * page that is indexed and names itself, never one that points on (a chain) or one left out of
 * the index (noindex). One line per page that does not, naming it and its canonical.
 */
export function canonicalProblems(pages: readonly Page[]): string[] {
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const out: string[] = [];
  for (const page of pages) {
    const to = page.canonical;
    if (to === null || to === page.path) continue;
    const target = byPath.get(to);
    if (!target) out.push(`${page.path}: its canonical ${to} is no page of the site`);
    else if (target.canonical !== null && target.canonical !== to)
      out.push(`${page.path}: its canonical ${to} points on to ${target.canonical} (a chain)`);
    else if (target.sitemap === null)
      out.push(`${page.path}: its canonical ${to} is not indexed (noindex)`);
  }
  return out;
}

/** Pages whose canonical would tell search engines two things: the build cannot go on. */
export class CanonicalError extends Error {
  constructor(readonly problems: readonly string[]) {
    const shown = problems.slice(0, 10);
    super(
      [
        `${problems.length} page${problems.length === 1 ? '' : 's'} name a canonical page that is not the final, indexed one:`,
        ...shown.map((p) => `  ${p}`),
        ...(problems.length > shown.length ? [`  and ${problems.length - shown.length} more`] : []),
      ].join('\n'),
    );
    this.name = 'CanonicalError';
  }
}
