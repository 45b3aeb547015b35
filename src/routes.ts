import type { Strings } from './i18n/catalogue.js';
import { fill } from './i18n/catalogue.js';
import type { Lang } from './i18n/lang.js';
import { memoizeRecent } from './memo.js';
import { answersAll, cityAnswers } from './site/city-answers.js';
import type { QuebecContent } from './site/content-schema.js';
import type { Post } from './site/load-content.js';
import type { Area, City, Site } from './site/model.js';
import {
  areaFacts,
  cityNames,
  HOME_CITIES,
  nearbyCities,
  regionName,
  topCities,
} from './site/model.js';
import { provinceByCode, provinceBySlug } from './site/provinces.js';
import { CLAIM_TYPES, type ClaimType, QUESTIONNAIRE_PAGES } from './site/segments.js';
import { slugify } from './site/slug.js';
import { links, type TopPage } from './urls.js';

export type ChangeFreq = 'daily' | 'weekly' | 'monthly';

/** The cities the City Not Found screen offers (SPEC §2), by slug: those the data has. */
const NOT_FOUND_CITIES = ['toronto', 'vancouver', 'montreal', 'calgary'];

/**
 * The cities the City Not Found screen offers, as the page's language names them: the spec's
 * four, or a service area's four most populous (a visitor at a city the firm does not serve is
 * shown those it does).
 */
export function notFoundCities(site: Site): readonly City[] {
  return site.area
    ? topCities(site, NOT_FOUND_CITIES.length)
    : NOT_FOUND_CITIES.flatMap((slug) => site.bySlug.get(slug) ?? []);
}

/** How many nearby cities an area page links to. */
export const NEARBY = 6;

export type RouteId =
  | 'home'
  | 'about'
  | 'services'
  | 'faq'
  | 'contact'
  | 'privacy'
  | 'terms'
  | 'sitemap'
  | 'confirmation'
  | 'form-error'
  | 'not-found'
  | 'city-home'
  | 'city-about'
  | 'city-services'
  | 'questionnaire'
  | 'claim-type'
  | 'area'
  | 'blog'
  | 'blog-post';

type QuestionnaireKind = (typeof QUESTIONNAIRE_PAGES)[number];

/** What a route's enumerator says about one page; the table adds the rest. */
export interface PageInput {
  path: string;
  title: string;
  description: string;
  city?: City;
  area?: Area;
  claimType?: ClaimType;
  questionnaire?: QuestionnaireKind;
  post?: Post;
}

export interface Page extends PageInput {
  route: RouteId;
  /** The language it is in; its texts, links and formats are the site's in that language. */
  lang: Lang;
  /** The path of the same page in the other language, where it has one. */
  alternate: string | null;
  /** Output file relative to the output folder. */
  file: string;
  /** Its place in sitemap.xml; null for a page search engines should not index (noindex). */
  sitemap: { priority: number; changefreq: ChangeFreq } | null;
  /**
   * The path search engines should take for it: its own when it is indexed, the page holding
   * its substance when it is consolidated into that one, null for pages with no such page (the
   * 404 page, the confirmation).
   */
  canonical: string | null;
}

interface RouteBase {
  id: RouteId;
  /** null: not in sitemap.xml and marked noindex. */
  sitemap: { priority: number; changefreq: ChangeFreq } | null;
  /**
   * The data a page shows beyond what every page shares (settings, content, assets, code and
   * the footer's cities: the build key), for incremental builds: a page whose reads did not
   * change is not rendered again. Checked by tests that edit every field of the data and
   * compare what changes with what these say (tests/dependencies.test.ts).
   */
  reads(page: PageInput, site: Site): unknown;
  /**
   * For a page that has too little of its own to stand in search results, the path of the page
   * that holds its substance: the page still works for visitors, but it is not indexed, leaves
   * sitemap.xml and points its canonical URL there. None: every page of the route is indexed.
   */
  consolidate?(page: PageInput, site: Site): string | null;
}

/** A route of the site's own pages, which belong to no city. */
interface SiteRoute extends RouteBase {
  pages(site: Site): PageInput[];
}

/**
 * A route of each city's pages (the national "canada" entry included), for the cities the
 * site's language has pages for. Enumerated a city at a time (src/pages.ts).
 */
interface CityRoute extends RouteBase {
  cityPages(city: City, site: Site): PageInput | PageInput[];
}

export type Route = SiteRoute | CityRoute;

/** Whether the data set knows more of a province than its regulator: rules, complaints, events. */
function provinceHasFacts(site: Site, area: Area): boolean {
  // By slug: the area's name is in the page's language.
  const code = provinceBySlug(area.slug)?.code;
  const facts = code ? site.facts.provinces.get(code) : undefined;
  return (
    !!code &&
    !!facts &&
    (facts.facts.length > 0 ||
      facts.complaints.length > 0 ||
      site.facts.catastrophes.some((c) => c.provinces.includes(code)))
  );
}

/**
 * Whether a city's page has claims substance of its own, by the English data (a page and its
 * translation are indexed alike): it answers a homeowner's four questions from sourced facts
 * (src/site/city-answers.ts: a line to call, what the city offers, the province's assistance,
 * the permits repairs need). A data set without the relevance lexicon (data/relevance.json)
 * indexes every city's page. A city's page without it is consolidated into its province's page.
 */
const hasSubstance =
  (city: City) =>
  (site: Site): boolean => {
    const known = substance.get(site);
    const cached = known?.get(city.slug);
    if (cached !== undefined) return cached;
    const found = findSubstance(city, site);
    if (known) known.set(city.slug, found);
    else substance.set(site, new Map([[city.slug, found]]));
    return found;
  };
/** By site (a language's view) and city slug: worked out once for a city's many pages. */
const substance = new WeakMap<Site, Map<string, boolean>>();

function findSubstance(city: City, site: Site): boolean {
  const english = site.languages.get('en') ?? site;
  const topics = english.facts.topics;
  if (!topics || city.national) return true;
  return answersAll(cityAnswers(english.facts, english.bySlug.get(city.slug) ?? city));
}

/** The page a city's pages point search engines at: its own, or its province's (see hasSubstance). */
function cityCanonical(city: City, site: Site): string {
  if (hasSubstance(city)(site)) return links.city(city);
  const province = provinceByCode(city.provinceCode ?? '');
  const slug = slugify(province?.name ?? city.province ?? '');
  // A province page that is itself consolidated points at the national page: so must its
  // cities', or search engines would be told of a chain (Iqaluit, Nunavut, Canada).
  const area = site.national.areas.find((a) => slugify(a.name) === slug || a.slug === slug);
  if (area && !provinceHasFacts(site, area)) return links.city(site.national);
  return links.cityPage(site.national, slug);
}

/** Into the city's own page: what it says beyond the city's page is the same in every city. */
const intoCityPage = (page: PageInput, site: Site) =>
  page.city ? cityCanonical(page.city, site) : null;

const none = () => null;
const ownCity = (page: PageInput) => page.city;
/**
 * What `reads` says of a page's city, and where the city points search engines (see
 * cityCanonical): one value a city, so that its many pages' reads are fingerprinted once.
 */
const withCanonical = (reads: (page: PageInput, site: Site) => unknown) => {
  const known = new WeakMap<City, unknown>();
  return (page: PageInput, site: Site): unknown => {
    const city = page.city;
    if (!city || city.national) return reads(page, site);
    let value = known.get(city);
    if (value === undefined) {
      value = [reads(page, site), cityCanonical(city, site)];
      known.set(city, value);
    }
    return value;
  };
};
/**
 * Its city, for the pages that never show the city's description (its About, Services and
 * claim-type pages): a new description renders only the pages that show it.
 */
const ownCityButDescription = (page: PageInput) => page.city && butDescription(page.city);
const butDescription = memoizeRecent((city: City): Omit<City, 'description'> => {
  const { description: _, ...rest } = city;
  return rest;
});
/** The questionnaire pages that show the city's description, and those that do not. */
const questionnaireWithDescription = withCanonical(ownCity);
const questionnaireButDescription = withCanonical(ownCityButDescription);
/**
 * What lists of cities show: enough to notice a rename, a new slug or a new province. Kept per
 * list, so a list shared by many pages (a city's nearby cities) is fingerprinted once.
 */
const summary = memoizeRecent((cities: readonly City[]) =>
  cities.map((c) => [c.slug, c.name, c.province]),
);

/** A list of cities as a page shows them with their distance: names and places. */
const placed = memoizeRecent((cities: readonly City[]) =>
  cities.map((c) => [c.slug, c.name, c.province, c.coordinates.lat, c.coordinates.lng]),
);

/** A place as Canadians write it in a snippet: Corner Brook, NL. Keeps descriptions within 160 characters. */
const where = (site: Site, c: City) =>
  c.national
    ? regionName(site)
    : fill(site.t.routes.cityPlace, { city: c.name, province: c.provinceCode ?? '' });

const claimSegment = (type: ClaimType) => CLAIM_TYPES.find((c) => c.type === type)?.segment ?? type;

/** Each questionnaire page's title and snippet in the catalogue. */
const QUESTIONNAIRE_TEXTS = {
  'public-adjusters': ['publicAdjustersTitle', 'publicAdjustersDescription'],
  'top-adjusters': ['topAdjustersTitle', 'topAdjustersDescription'],
  'claims-offices': ['claimsOfficesTitle', 'claimsOfficesDescription'],
  'free-consultation': ['freeConsultationTitle', 'freeConsultationDescription'],
} as const satisfies Record<QuestionnaireKind, readonly [RouteText, RouteText]>;

type RouteText = keyof Strings['routes'];

/** A site page: its path, and its title and snippet from the catalogue. */
const site1 = (name: TopPage, title: RouteText, description: RouteText) => (site: Site) => [
  { path: links.page(name), title: site.t.routes[title], description: site.t.routes[description] },
];

/**
 * A snippet of a Québec page that elsewhere would promise the rest of Canada's fee: what
 * content/quebec.json says instead (see templates/pages/quebec.ts), `{city}` being `place`.
 */
function quebecSnippet(site: Site, key: keyof QuebecContent['descriptions'], place: string) {
  return fill(site.content.quebec.descriptions[key], { city: place });
}
const inQuebec = (c: City) => c.provinceCode === 'QC';

/**
 * The route table. Every page of the site comes from here: the writer, sitemap.xml,
 * the HTML sitemap and the link checks all read the page list it produces.
 */
export const ROUTES: readonly Route[] = [
  {
    id: 'home',
    sitemap: { priority: 1.0, changefreq: 'daily' },
    // The largest cities, the names the city search offers and the province pages.
    reads: (_, site) => [
      summary(topCities(site, HOME_CITIES)),
      cityNames(site),
      site.national.areas.map((a) => [a.slug, a.name]),
    ],
    pages: (site) => [
      {
        path: links.home,
        title: fill(site.t.routes.homeTitle, {
          siteName: site.settings.siteName,
          headline: site.t.routes.homeHeadline,
        }),
        description: site.t.routes.homeDescription,
      },
    ],
  },
  {
    id: 'about',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1('about', 'aboutTitle', 'aboutDescription'),
  },
  {
    id: 'services',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1('services', 'servicesTitle', 'servicesDescription'),
  },
  {
    id: 'faq',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'weekly' },
    pages: site1('faq', 'faqTitle', 'faqDescription'),
  },
  {
    id: 'contact',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: (site) => [
      {
        path: links.page('contact'),
        title: site.t.routes.contactTitle,
        description: fill(site.t.routes.contactDescription, {
          phone: site.format.phone(site.phone),
        }),
      },
    ],
  },
  {
    id: 'privacy',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1('privacy', 'privacyTitle', 'privacyDescription'),
  },
  {
    id: 'terms',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1('terms', 'termsTitle', 'termsDescription'),
  },
  {
    id: 'blog',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'weekly' },
    pages: site1('blog', 'blogTitle', 'blogDescription'),
  },
  {
    id: 'blog-post',
    reads: none,
    sitemap: { priority: 0.7, changefreq: 'monthly' },
    pages: (site) =>
      site.content.posts.map((post) => ({
        path: links.post(post),
        title: post.title,
        description: post.description,
        post,
      })),
  },
  {
    id: 'sitemap',
    // Every city the page's language has pages for, with its province, population and
    // description (see provinceGroups).
    reads: (_, site) => site.cities.filter((c) => site.covers(c)),
    sitemap: null,
    pages: site1('sitemap', 'sitemapTitle', 'sitemapDescription'),
  },
  {
    id: 'confirmation',
    reads: none,
    sitemap: null,
    pages: site1('confirmation', 'confirmationTitle', 'confirmationDescription'),
  },
  {
    id: 'form-error',
    reads: none,
    sitemap: null,
    pages: site1('form-error', 'formErrorTitle', 'formErrorDescription'),
  },
  {
    id: 'not-found',
    reads: (_, site) => notFoundCities(site).map((c) => [c.slug, c.name]),
    sitemap: null,
    pages: (site) => [
      {
        path: links.notFound,
        title: site.t.routes.notFoundTitle,
        description: site.t.routes.notFoundDescription,
      },
    ],
  },
  {
    id: 'city-home',
    // A city's page also lists its nearest cities, with their distance.
    reads: (page, site) =>
      page.city?.national
        ? page.city
        : page.city && [
            page.city,
            placed(nearbyCities(site, page.city, NEARBY)),
            site.facts.local.get(page.city.slug) ?? null,
            cityCanonical(page.city, site),
          ],
    sitemap: { priority: 0.8, changefreq: 'weekly' },
    // A city whose data has no claims substance says less, and its province's page holds it.
    consolidate: (page, site) =>
      page.city && !hasSubstance(page.city)(site) ? cityCanonical(page.city, site) : null,
    cityPages: (c, site) => ({
      path: links.city(c),
      title: fill(site.t.routes.cityTitle, { city: c.name }),
      description: fill(
        inQuebec(c) ? site.content.quebec.descriptions.city : site.t.routes.cityDescription,
        { place: where(site, c), city: where(site, c) },
      ),
      city: c,
    }),
  },
  {
    id: 'city-about',
    reads: withCanonical(ownCityButDescription),
    sitemap: { priority: 0.8, changefreq: 'weekly' },
    // The same text in every city, and the national one is the site's About page.
    consolidate: (page, site) =>
      page.city?.national ? links.page('about') : intoCityPage(page, site),
    cityPages: (c, site) => ({
      path: links.cityPage(c, 'about'),
      title: fill(site.t.routes.cityAboutTitle, { city: c.name }),
      description: fill(site.t.routes.cityAboutDescription, { place: where(site, c) }),
      city: c,
    }),
  },
  {
    id: 'questionnaire',
    // Choosing an adjuster and reporting a claim give what their titles promise instead of the
    // city's description: a new description renders only the pages that show it.
    reads: (page, site) =>
      page.questionnaire === 'top-adjusters' || page.questionnaire === 'claims-offices'
        ? questionnaireButDescription(page, site)
        : questionnaireWithDescription(page, site),
    sitemap: { priority: 0.8, changefreq: 'weekly' },
    // Four more doors to the city's questionnaire: the city's page is the one to index.
    consolidate: intoCityPage,
    cityPages: (c, site) =>
      QUESTIONNAIRE_PAGES.map((q) => ({
        path: links.cityPage(c, q),
        title: fill(site.t.routes[QUESTIONNAIRE_TEXTS[q][0]], { city: c.name }),
        description: questionnaireDescription(q, c, site),
        city: c,
        questionnaire: q,
      })),
  },
  {
    id: 'city-services',
    reads: withCanonical(ownCityButDescription),
    sitemap: { priority: 0.8, changefreq: 'weekly' },
    consolidate: (page, site) =>
      page.city?.national ? links.page('services') : intoCityPage(page, site),
    cityPages: (c, site) => ({
      path: links.cityPage(c, 'services'),
      title: fill(site.t.routes.cityServicesTitle, { city: c.name }),
      description: fill(site.t.routes.cityServicesDescription, { place: where(site, c) }),
      city: c,
    }),
  },
  {
    id: 'claim-type',
    reads: ownCityButDescription,
    sitemap: { priority: 0.7, changefreq: 'monthly' },
    // A claim type's sections are the same in every city: the national page holds them.
    consolidate: (page, site) =>
      page.city?.national || !page.claimType
        ? null
        : links.cityPage(site.national, claimSegment(page.claimType)),
    cityPages: (c, site) =>
      CLAIM_TYPES.map(({ type, segment }) => ({
        path: links.cityPage(c, segment),
        title: fill(site.t.routes.claimTypeTitle, {
          claimType: site.t.claimTypes[type],
          city: c.name,
        }),
        description: fill(site.t.routes.claimTypeDescription, {
          claimType: site.t.claimTypes[type],
          place: where(site, c),
        }),
        city: c,
        claimType: type,
      })),
  },
  {
    id: 'area',
    reads: (page, site) =>
      // A province's page lists its cities, and links the cities its catastrophes struck,
      // wherever they are.
      page.city?.national
        ? summary(site.cities)
        : [
            page.city,
            page.city && summary(nearbyCities(site, page.city, NEARBY)),
            page.city && page.area ? areaFacts(site, page.city, page.area) : null,
            page.city && cityCanonical(page.city, site),
          ],
    sitemap: { priority: 0.6, changefreq: 'monthly' },
    // A neighbourhood earns a place in search results by claims substance of its own (local
    // facts about it: flood risk, sewer backups, its housing, a catastrophe): its history alone
    // is for visitors, and points search engines at its city. A province whose regulator is all
    // the data set can say of it would repeat every other such page.
    consolidate: (page, site) => {
      if (!page.city || !page.area) return null;
      if (page.city.national)
        return provinceHasFacts(site, page.area) ? null : links.city(page.city);
      return areaFacts(site, page.city, page.area).length > 0
        ? null
        : cityCanonical(page.city, site);
    },
    cityPages: (c, site) =>
      c.areas.map((a) => ({
        path: links.cityPage(c, a),
        title: fill(c.national ? site.t.routes.provinceTitle : site.t.routes.areaTitle, {
          area: a.name,
          city: c.name,
        }),
        description: areaDescription(site, c, a),
        city: c,
        area: a,
      })),
  },
];

function areaDescription(site: Site, c: City, a: Area): string {
  // The province's page under canada/ is in Québec when its area is: by slug, in any language.
  const quebec = c.national ? a.slug === 'quebec' : inQuebec(c);
  const place = c.national
    ? fill(site.t.routes.provincePlace, { area: a.name })
    : fill(site.t.routes.areaPlace, { area: a.name, place: where(site, c) });
  return quebec
    ? quebecSnippet(site, 'area', place)
    : fill(site.t.routes.areaDescription, { place });
}

function questionnaireDescription(q: QuestionnaireKind, c: City, site: Site): string {
  const place = where(site, c);
  if (inQuebec(c) && q === 'top-adjusters') return quebecSnippet(site, 'topAdjusters', place);
  if (inQuebec(c) && q === 'free-consultation')
    return quebecSnippet(site, 'freeConsultation', place);
  return fill(site.t.routes[QUESTIONNAIRE_TEXTS[q][1]], { place });
}
