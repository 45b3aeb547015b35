import type { Catalogue, Strings } from '../i18n/catalogue.js';
import type { Lang } from '../i18n/lang.js';
import { basePathOf, type Links, links, linksUnder } from '../urls.js';
import type { LocalFact } from './facts-schema.js';
import { FORMATS, type Formats } from './format.js';
import type { Content } from './load-content.js';
import type { Facts } from './load-facts.js';
import type { SiteLogo } from './logo.js';
import { distanceKm, NearbyIndex } from './nearby.js';
import type { Phone } from './phone.js';
import { PROVINCES } from './provinces.js';
import type { SiteSettings, Source } from './schema.js';
import type { ServiceArea } from './service-area.js';
import { slugify } from './slug.js';
import type { Theme } from './theme.js';

export interface Area {
  name: string;
  slug: string;
  /** Its own description, with its source: an area without one is not indexed. */
  description?: string;
  source?: Source;
}

export interface City {
  id: string;
  name: string;
  slug: string;
  /**
   * Full province name; null for the national entry, but for a service area in one province,
   * whose national pages are that province's (src/site/load.ts).
   */
  province: string | null;
  provinceCode: string | null;
  population: number;
  coordinates: { lat: number; lng: number };
  incorporationDate: string | null;
  description: string;
  /** Where the description can be checked; none in a data set made before they were kept. */
  descriptionSources: Source[];
  areas: Area[];
  /** Where its coordinates, incorporation date and areas' names can be checked, where known. */
  sources: { coordinates?: Source; incorporationDate?: Source; areas?: Source };
  national: boolean;
}

/** What site.json makes of the owner's values once they are checked. */
export interface Branding {
  /** The phone number, parsed: every call link and every number shown come from it. */
  phone: Phone;
  theme: Theme;
  logo: SiteLogo | null;
}

export interface Site extends Branding {
  settings: SiteSettings;
  /** The folder the site is served from (`/myrepo`), or `` at a domain's root. */
  basePath: string;
  /** The national default city (`canada`). */
  national: City;
  /** Real cities, most populous first (ties by name). */
  cities: City[];
  /**
   * A digest of each city's record, of its tokens as its data file holds them (see RecordDigests).
   * A city is made from its record alone (see toCity in load.ts), so a page's fingerprint may take
   * the digest for the city rather than hash the city again. Another language's cities, made from
   * more than their record, are not in it.
   */
  recordDigests: WeakMap<City, string>;
  /** Every city slug, `canada` included, to its city. */
  bySlug: ReadonlyMap<string, City>;
  /** Editorial content: testimonials, FAQs, services, process, legal pages, blog posts. */
  content: Content;
  /** Sourced facts: regulators and complaint services per province, insured catastrophes. */
  facts: Facts;
  /**
   * The language this view of the site speaks: its strings, links and formats. The English site
   * is the data as loaded; another language's view holds the same cities with their texts in
   * that language where the data gives them (src/i18n/translate.ts).
   */
  lang: Lang;
  t: Strings;
  /** The links pages write, under basePath. */
  links: Links;
  /** The same without basePath: pages' own paths, breadcrumbs, canonical and JSON-LD URLs. */
  paths: Links;
  format: Formats;
  /** Whether the language has pages for this city (every city in English). */
  covers(city: City): boolean;
  /** An English page's path in this language; null where the language has no such page. */
  localize(path: string): string | null;
  /** The site in each of its languages, this one included. */
  languages: ReadonlyMap<Lang, Site>;
  /**
   * Where the firm works (site.json's serviceArea); null for all of Canada. `cities`, `bySlug`,
   * the national entry's areas (the provinces) and `facts` hold only what is inside it, and the
   * national entry is named after it.
   */
  area: ServiceArea | null;
}

export function createSite(
  settings: SiteSettings,
  national: City,
  cities: City[],
  recordDigests: WeakMap<City, string>,
  content: Content,
  facts: Facts,
  catalogue: Catalogue,
  branding: Branding,
  area: ServiceArea | null = null,
): Site {
  const sorted = [...cities].sort(byPopulation);
  const languages = new Map<Lang, Site>();
  const basePath = basePathOf(settings.baseUrl);
  const site: Site = {
    ...branding,
    settings,
    basePath,
    national,
    cities: sorted,
    recordDigests,
    bySlug: bySlugOf(national, sorted),
    content,
    facts,
    lang: 'en',
    t: catalogue.strings,
    links: linksUnder(basePath, links),
    paths: links,
    format: FORMATS.en,
    covers: () => true,
    localize: (path) => path,
    languages,
    area,
  };
  languages.set('en', site);
  return site;
}

export function bySlugOf(national: City, cities: readonly City[]): Map<string, City> {
  const bySlug = new Map<string, City>([[national.slug, national]]);
  for (const c of cities) bySlug.set(c.slug, c);
  return bySlug;
}

/** The site in `lang` (English when it has no such language). */
export function inLanguage(site: Site, lang: Lang): Site {
  return site.languages.get(lang) ?? site;
}

function byPopulation(a: City, b: City): number {
  return b.population - a.population || a.name.localeCompare(b.name, 'en-CA');
}

/**
 * What the site's pages call the place it serves: the country ("Canada"), or the service area
 * the national entry is named after ("Alberta", "Le Québec"; src/site/region.ts).
 */
export const regionName = (site: Site): string =>
  site.area ? site.national.name : site.t.routes.country;

/** The national entry first, then every city: the order pages are enumerated in. */
export function allCities(site: Site): City[] {
  return [site.national, ...site.cities];
}

/** The footer links to the four most populous cities' public-adjusters pages. */
export const FOOTER_CITIES = 4;
/** The home page lists the six most populous cities, four links each. */
export const HOME_CITIES = 6;

const tops = new WeakMap<Site, Map<number, readonly City[]>>();

/**
 * The n most populous cities the site's language covers: one list per site and n, so the pages
 * that show it share it.
 */
export function topCities(site: Site, n: number): readonly City[] {
  let bySite = tops.get(site);
  if (!bySite) {
    bySite = new Map();
    tops.set(site, bySite);
  }
  let list = bySite.get(n);
  if (!list) {
    list = site.cities.filter((c) => site.covers(c)).slice(0, n);
    bySite.set(n, list);
  }
  return list;
}

/** The names of the cities the site's language covers, once each: what the city search offers. */
export function cityNames(site: Site): string[] {
  return [...new Set(site.cities.filter((c) => site.covers(c)).map((c) => c.name))];
}

export interface ProvinceGroup {
  /** Its name in the site's language. */
  province: string;
  /** Its page's slug under canada/, the same in every language. */
  slug: string;
  code: string;
  cities: City[];
}

/**
 * The HTML sitemap's grouping: provinces alphabetically with their cities most
 * populous first, and the three territories apart, also alphabetically.
 */
export function provinceGroups(site: Site): {
  provinces: ProvinceGroup[];
  territories: ProvinceGroup[];
} {
  // Named as the site's language names them: the national entry's areas are the provinces.
  const names = new Map(site.national.areas.map((a) => [a.slug, a.name]));
  const groups = PROVINCES.map((p) => ({
    province: names.get(slugify(p.name)) ?? p.name,
    slug: slugify(p.name),
    code: p.code,
    territory: p.territory,
    // The cities the site's language has pages for (all in English).
    cities: site.cities.filter((c) => c.provinceCode === p.code && site.covers(c)),
  }))
    // PROVINCES lists the provinces, then the territories, each alphabetically.
    .filter((g) => g.cities.length > 0);
  const strip = ({ territory: _, ...g }: (typeof groups)[number]): ProvinceGroup => g;
  return {
    provinces: groups.filter((g) => !g.territory).map(strip),
    territories: groups.filter((g) => g.territory).map(strip),
  };
}

export { distanceKm } from './nearby.js';

/** Nearby lists by site and `slug:n`: every area page of a city asks for the same list. */
const nearbyMemo = new WeakMap<Site, Map<string, readonly City[]>>();
/** One grid of the cities per site, made when a list is first measured. */
const indexes = new WeakMap<Site, { index: NearbyIndex<City>; at: Map<City, number> }>();

/**
 * The n cities nearest to `city`, nearest first (ties by population, then the site's order);
 * never the city itself. Linear over all cities: each is measured once, against the cities in
 * the grid cells around it (NearbyIndex), not against every city.
 */
export function nearbyCities(site: Site, city: City, n: number): readonly City[] {
  let bySite = nearbyMemo.get(site);
  if (!bySite) {
    bySite = new Map();
    nearbyMemo.set(site, bySite);
  }
  const key = `${city.slug}:${n}`;
  let list = bySite.get(key);
  if (!list) {
    let grid = indexes.get(site);
    if (!grid) {
      grid = {
        index: new NearbyIndex(site.cities, (c) => c.population),
        at: new Map(site.cities.map((c, i) => [c, i])),
      };
      indexes.set(site, grid);
    }
    const at = grid.at.get(city);
    // The national entry, or a city from elsewhere: measured against every city.
    list = at === undefined ? scan(site.cities, city, n) : grid.index.nearest(at, n);
    bySite.set(key, list);
  }
  return list;
}

/** The n cities nearest to a place that is not one of them, measuring every one. */
function scan(cities: readonly City[], city: City, n: number): City[] {
  return cities
    .filter((c) => c.slug !== city.slug)
    .map((c) => ({ c, d: distanceKm(city.coordinates, c.coordinates) }))
    .sort((x, y) => x.d - y.d || y.c.population - x.c.population)
    .slice(0, n)
    .map((x) => x.c);
}

/** Every city's nearby list by slug: a build keeps them so that the next need not measure. */
export function nearbySlugs(site: Site, n: number): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const city of site.cities) lists[city.slug] = nearbyCities(site, city, n).map((c) => c.slug);
  return lists;
}

/**
 * All that `nearbyCities` reads: the cities in order, with their slugs, places and populations.
 * Lists made from equal inputs are equal.
 */
export function nearbyInputs(site: Site): unknown {
  return site.cities.map((c) => [c.slug, c.coordinates.lat, c.coordinates.lng, c.population]);
}

/**
 * Takes the lists `nearbySlugs` gave for a site with the same `nearbyInputs` (the caller checks
 * it). Measuring every city against every other is most of what an incremental build spends
 * on deciding which pages changed. A list naming a city that is not there is left out, and
 * measured again when asked for.
 */
export function restoreNearby(
  site: Site,
  n: number,
  lists: Readonly<Record<string, readonly string[]>>,
): void {
  let bySite = nearbyMemo.get(site);
  if (!bySite) {
    bySite = new Map();
    nearbyMemo.set(site, bySite);
  }
  const bySlug = new Map(site.cities.map((c) => [c.slug, c]));
  for (const [slug, slugs] of Object.entries(lists)) {
    const cities = slugs.map((s) => bySlug.get(s));
    if (bySlug.has(slug) && cities.every((c) => c !== undefined))
      bySite.set(`${slug}:${n}`, cities as City[]);
  }
}

/**
 * The local facts (local-facts.json) about one neighbourhood of a city, matched by slug (the same
 * in every language): what gives its page claims substance of its own.
 */
export function areaFacts(site: Site, city: City, area: Area): readonly LocalFact[] {
  const facts = site.facts.local.get(city.slug);
  return facts?.filter((f) => f.area !== undefined && slugify(f.area) === area.slug) ?? [];
}
