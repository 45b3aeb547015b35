import { type Page, type PageInput, ROUTES, type Route } from './routes.js';
import { allCities, type City, type Site } from './site/model.js';
import { fileForPath } from './urls.js';

/**
 * The site's pages, a unit at a time: unit 0 holds the pages of no city (the site pages, the
 * blog and its posts), unit k the pages of the k-th city (the national "canada" entry first),
 * each in every language that has them, English first, a translation pointing at its English
 * page. A build holds one unit's pages at a time, so what it keeps does not grow with the
 * pages' texts; a unit is always enumerated the same way from the same site, on any thread.
 */
export class PageUnits {
  readonly count: number;
  /** The site in each language, English first, with its cities in unit order. */
  private readonly langs: Array<{ site: Site; cities: readonly City[] }>;

  constructor(
    site: Site,
    private readonly routes: readonly Route[] = ROUTES,
  ) {
    const others = [...site.languages.values()].filter((s) => s !== site);
    // Listed once: allCities makes a new list on every call.
    this.langs = [site, ...others].map((s) => ({ site: s, cities: allCities(s) }));
    this.count = 1 + allCities(site).length;
  }

  /**
   * The city of unit `u` in each language that has pages for it, English first; empty for unit
   * 0, the pages of no city. What a unit's pages are made of, known without making them.
   */
  cities(u: number): Array<{ site: Site; city: City }> {
    if (u === 0) return [];
    const out: Array<{ site: Site; city: City }> = [];
    for (const { site, cities } of this.langs) {
      const city = cities[u - 1];
      if (city && site.covers(city)) out.push({ site, city });
    }
    return out;
  }

  /** The pages of unit `u`: O(the unit's pages). */
  pages(u: number): Page[] {
    const [english, ...others] = this.langs.map(({ site, cities }) =>
      pagesIn(site, this.routes, u === 0 ? null : (cities[u - 1] ?? null)),
    );
    const out = english ?? [];
    const translated = others.flat();
    if (translated.length === 0) return out;
    const byEnglish = new Map(translated.map((p) => [p.alternate, p.path]));
    for (const page of out) page.alternate = byEnglish.get(page.path) ?? null;
    out.push(...translated);
    // A not-found page is served for an unknown address, never at its own: no page links to it.
    for (const page of out) if (page.route === 'not-found') page.alternate = null;
    return out;
  }
}

/**
 * Every page of the site, unit by unit. For tests and tools that look at the whole site; a
 * build goes a unit at a time (PageUnits).
 */
export function buildPages(site: Site, routes: readonly Route[] = ROUTES): Page[] {
  const units = new PageUnits(site, routes);
  const out: Page[] = [];
  for (let u = 0; u < units.count; u++) out.push(...units.pages(u));
  return out;
}

/**
 * One unit's pages in the site's language (`city` null: the pages of no city), at their
 * translated paths (src/urls.ts localizePath); for a translation, `alternate` is the English
 * path. Pages the language has none for are not made.
 */
function pagesIn(site: Site, routes: readonly Route[], city: City | null): Page[] {
  const out: Page[] = [];
  for (const route of routes)
    for (const input of inputsOf(route, site, city)) {
      const path = site.localize(input.path);
      if (path === null) continue;
      const into = route.consolidate?.(input, site) ?? null;
      const canonical = into ?? (route.sitemap ? input.path : null);
      out.push({
        ...input,
        path,
        route: route.id,
        lang: site.lang,
        alternate: site.lang === 'en' ? null : input.path,
        file: fileForPath(path),
        sitemap: into === null ? route.sitemap : null,
        canonical: canonical && site.localize(canonical),
      });
    }
  return out;
}

function inputsOf(route: Route, site: Site, city: City | null): PageInput[] {
  if (!('cityPages' in route)) return city ? [] : route.pages(site);
  if (!city || !site.covers(city)) return [];
  const made = route.cityPages(city, site);
  return Array.isArray(made) ? made : [made];
}
