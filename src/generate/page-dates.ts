import type { PreviousManifest } from './manifest.js';
import type { PageState } from './page-state.js';
import type { IndexedPage } from './plan.js';

/**
 * The day the last build recorded for each indexable page (see pageDates), in the order of
 * `indexable`: asked before the render, so that the last manifest's lines of pages can be let go
 * (see PreviousManifest.keepUnmarked). A few days in a small table and two bytes a page, not a
 * string a page.
 */
export class LastDates {
  private constructor(
    private readonly days: string[],
    private readonly codes: Uint16Array,
  ) {}

  static of(indexable: readonly IndexedPage[], previous: PreviousManifest | null): LastDates {
    const days: string[] = [''];
    const codeOf = new Map<string, number>([['', 0]]);
    const codes = new Uint16Array(previous ? indexable.length : 0);
    if (previous)
      for (const [k, page] of indexable.entries()) {
        if (page.own) continue;
        const day = previous.entry(page.file)?.[3];
        if (typeof day !== 'string' || day === '') continue;
        let code = codeOf.get(day);
        if (code === undefined) {
          // More distinct days than two bytes count: a manifest no build wrote. Left unknown.
          if (days.length > 0xffff) continue;
          code = days.push(day) - 1;
          codeOf.set(day, code);
        }
        codes[k] = code;
      }
    return new LastDates(days, codes);
  }

  /** The day recorded for the `k`th indexable page; undefined for none. */
  at(k: number): string | undefined {
    return this.days[this.codes[k] ?? 0] || undefined;
  }
}

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
  last: LastDates,
  today: string,
): string[] {
  return indexable.map(
    (page, k) => page.own ?? (state.changed[page.index] ? today : (last.at(k) ?? today)),
  );
}
