import { memoize } from './memo.js';
import type { QuebecContent } from './site/content-schema.js';
import type { Post } from './site/load-content.js';
import type { Area, City, Site } from './site/model.js';
import { allCities, HOME_CITIES, nearbyCities, topCities } from './site/model.js';
import { provinceByName } from './site/provinces.js';
import { CLAIM_TYPES, type ClaimType, QUESTIONNAIRE_PAGES } from './site/segments.js';
import { fileForPath, links, type TopPage } from './urls.js';

export type ChangeFreq = 'daily' | 'weekly' | 'monthly';

/** What the site is, after its name: the home page's title and its share image say it. */
export const HOME_HEADLINE = 'Licensed Public Adjusters Across Canada';

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

export type QuestionnaireKind = (typeof QUESTIONNAIRE_PAGES)[number];

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

export interface Route {
  id: RouteId;
  /** null: not in sitemap.xml and marked noindex. */
  sitemap: { priority: number; changefreq: ChangeFreq } | null;
  pages(site: Site): PageInput[];
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

/** Whether the data set knows more of a province than its regulator: rules, complaints, events. */
function provinceHasFacts(site: Site, name: string): boolean {
  const code = provinceByName(name)?.code;
  const facts = code ? site.facts.provinces.get(code) : undefined;
  return (
    !!code &&
    !!facts &&
    (facts.facts.length > 0 ||
      facts.complaints.length > 0 ||
      site.facts.catastrophes.some((c) => c.provinces.includes(code)))
  );
}

/** Into the city's own page: what it says beyond the city's page is the same in every city. */
const intoCityPage = (page: PageInput) => (page.city ? links.city(page.city) : null);

const none = () => null;
const ownCity = (page: PageInput) => page.city;
/**
 * Its city, for the pages that never show the city's description (its About, Services and
 * claim-type pages): a new description renders only the pages that show it.
 */
const ownCityButDescription = (page: PageInput) => page.city && butDescription(page.city);
const butDescription = memoize((city: City): Omit<City, 'description'> => {
  const { description: _, ...rest } = city;
  return rest;
});
/**
 * What lists of cities show: enough to notice a rename, a new slug or a new province. Kept per
 * list, so a list shared by many pages (a city's nearby cities) is fingerprinted once.
 */
const summary = memoize((cities: readonly City[]) =>
  cities.map((c) => [c.slug, c.name, c.province]),
);

/** A list of cities as a page shows them with their distance: names and places. */
const placed = memoize((cities: readonly City[]) =>
  cities.map((c) => [c.slug, c.name, c.province, c.coordinates.lat, c.coordinates.lng]),
);

/** A place as Canadians write it in a snippet: Corner Brook, NL. Keeps descriptions within 160 characters. */
const where = (c: City) => (c.national ? 'Canada' : `${c.name}, ${c.provinceCode}`);

const claimSegment = (type: ClaimType) => CLAIM_TYPES.find((c) => c.type === type)?.segment ?? type;

const QUESTIONNAIRE_TITLES: Record<QuestionnaireKind, (c: City) => string> = {
  'public-adjusters': (c) => `Public Adjusters in ${c.name}`,
  'top-adjusters': (c) => `Top-Rated Public Adjusters in ${c.name}`,
  'claims-offices': (c) => `Claims Offices in ${c.name}`,
  'free-consultation': (c) => `Free Insurance Claim Assessment in ${c.name}`,
};

export const CLAIM_TYPE_NAMES: Record<ClaimType, string> = {
  residential: 'Residential Insurance Claims',
  commercial: 'Commercial Insurance Claims',
  fire: 'Fire Damage Claims',
  flood: 'Flood Damage Claims',
  storm: 'Storm Damage Claims',
  other: 'Other Damage Claims',
};

const site1 = (name: TopPage, title: string, description: string) => () => [
  { path: links.page(name), title, description },
];

const perCity = (fn: (c: City, site: Site) => PageInput | PageInput[]) => (site: Site) =>
  allCities(site).flatMap((c) => fn(c, site));

/**
 * A snippet of a Québec page that elsewhere would promise the rest of Canada's fee: what
 * content/quebec.json says instead (see templates/pages/quebec.ts), `{city}` being `place`.
 */
function quebecSnippet(site: Site, key: keyof QuebecContent['descriptions'], place: string) {
  return site.content.quebec.descriptions[key].replaceAll('{city}', place);
}
const inQuebec = (c: City) => c.provinceCode === 'QC';

/**
 * The route table. Every page of the site comes from here: the writer, sitemap.xml,
 * the HTML sitemap and the link checks all read the page list it produces.
 */
export const ROUTES: Route[] = [
  {
    id: 'home',
    sitemap: { priority: 1.0, changefreq: 'daily' },
    reads: (_, site) => summary(topCities(site, HOME_CITIES)),
    pages: (site) => [
      {
        path: links.home,
        title: `${site.settings.siteName}: ${HOME_HEADLINE}`,
        description:
          'Fire, water, storm or theft damage? Get a free property damage assessment from licensed Canadian public adjusters. No upfront fees.',
      },
    ],
  },
  {
    id: 'about',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1(
      'about',
      'About Our Public Adjusters',
      'Who we are: licensed public adjusters who represent Canadian policyholders, not insurers, on fire, water, storm and theft claims.',
    ),
  },
  {
    id: 'services',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1(
      'services',
      'Insurance Claim Services',
      'Residential, commercial, fire, flood, wind and storm, and other damage claims handled by licensed public adjusters across Canada.',
    ),
  },
  {
    id: 'faq',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'weekly' },
    pages: site1(
      'faq',
      'Public Adjuster FAQ',
      'Answers about public adjusters in Canada: what they do, the 5-15% fee paid only on success, how long claims take and what to prepare.',
    ),
  },
  {
    id: 'contact',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1(
      'contact',
      'Contact Us',
      'Call 1-888-339-9809 any time, day or night, or send us a message. A team member responds within 24 hours.',
    ),
  },
  {
    id: 'privacy',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1(
      'privacy',
      'Privacy Policy',
      'How we collect, use, share and protect the personal information you give us when you ask for help with an insurance claim.',
    ),
  },
  {
    id: 'terms',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'monthly' },
    pages: site1(
      'terms',
      'Terms of Service',
      'The terms for using this website and our public adjusting services: fees only on a successful settlement, liability and disputes.',
    ),
  },
  {
    id: 'blog',
    reads: none,
    sitemap: { priority: 0.9, changefreq: 'weekly' },
    pages: site1(
      'blog',
      'Insurance Claim Guides and Articles',
      'Practical guides for Canadian property owners: what to do after a flood or fire, how claims work and how a public adjuster is paid.',
    ),
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
    // Every city, with its province, population and description.
    reads: (_, site) => site.cities,
    sitemap: null,
    pages: site1(
      'sitemap',
      'Sitemap',
      'Every city and page of the site, grouped by province and territory, with links to find public adjusters near you.',
    ),
  },
  {
    id: 'confirmation',
    reads: none,
    sitemap: null,
    pages: site1(
      'confirmation',
      'Thank You',
      'Thank you for your claim request. A team member will contact you within 24 hours.',
    ),
  },
  {
    id: 'form-error',
    reads: none,
    sitemap: null,
    pages: site1(
      'form-error',
      'We Could Not Send Your Request',
      'Your request could not be sent. Go back to the form to try again, or call us any time.',
    ),
  },
  {
    id: 'not-found',
    reads: none,
    sitemap: null,
    pages: () => [
      {
        path: links.notFound,
        title: 'Page Not Found',
        description: 'The page you asked for does not exist.',
      },
    ],
  },
  {
    id: 'city-home',
    // A city's page also lists its nearest cities, with their distance.
    reads: (page, site) =>
      page.city?.national
        ? page.city
        : page.city && [page.city, placed(nearbyCities(site, page.city, NEARBY))],
    sitemap: { priority: 0.8, changefreq: 'weekly' },
    pages: perCity((c, site) => ({
      path: links.city(c),
      title: `${c.name} Public Adjusters: Insurance Claim Help`,
      description: inQuebec(c)
        ? quebecSnippet(site, 'city', where(c))
        : `Property damage in ${where(c)}? Licensed public adjusters assess your loss and deal with your insurer. Free assessment, no upfront fees.`,
      city: c,
    })),
  },
  {
    id: 'city-about',
    reads: ownCityButDescription,
    sitemap: { priority: 0.8, changefreq: 'weekly' },
    // The same text in every city, and the national one is the site's About page.
    consolidate: (page) => (page.city?.national ? links.page('about') : intoCityPage(page)),
    pages: perCity((c) => ({
      path: links.cityPage(c, 'about'),
      title: `About Our Public Adjusters in ${c.name}`,
      description: `Meet the licensed public adjusters serving ${where(c)}: our services, service areas, results and what our clients say.`,
      city: c,
    })),
  },
  {
    id: 'questionnaire',
    reads: ownCity,
    sitemap: { priority: 0.8, changefreq: 'weekly' },
    // Four more doors to the city's questionnaire: the city's page is the one to index.
    consolidate: intoCityPage,
    pages: perCity((c, site) =>
      QUESTIONNAIRE_PAGES.map((q) => ({
        path: links.cityPage(c, q),
        title: QUESTIONNAIRE_TITLES[q](c),
        description: questionnaireDescription(q, c, site),
        city: c,
        questionnaire: q,
      })),
    ),
  },
  {
    id: 'city-services',
    reads: ownCityButDescription,
    sitemap: { priority: 0.8, changefreq: 'weekly' },
    consolidate: (page) => (page.city?.national ? links.page('services') : intoCityPage(page)),
    pages: perCity((c) => ({
      path: links.cityPage(c, 'services'),
      title: `Insurance Claim Services in ${c.name}`,
      description: `Residential, commercial, fire, flood, storm and other damage claims in ${where(c)}, handled by licensed public adjusters.`,
      city: c,
    })),
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
    pages: perCity((c) =>
      CLAIM_TYPES.map(({ type, segment }) => ({
        path: links.cityPage(c, segment),
        title: `${CLAIM_TYPE_NAMES[type]} in ${c.name}`,
        description: `${CLAIM_TYPE_NAMES[type]} in ${where(c)}: how a public adjuster documents your loss and negotiates a fair settlement. Free assessment.`,
        city: c,
        claimType: type,
      })),
    ),
  },
  {
    id: 'area',
    reads: (page, site) =>
      // A province's page lists its cities, and links the cities its catastrophes struck,
      // wherever they are.
      page.city?.national
        ? summary(site.cities)
        : [page.city, page.city && summary(nearbyCities(site, page.city, NEARBY))],
    sitemap: { priority: 0.6, changefreq: 'monthly' },
    // A neighbourhood with no description of its own would repeat its city's page; a province
    // whose regulator is all the data set can say of it would repeat every other such page.
    consolidate: (page, site) => {
      if (!page.city || !page.area) return null;
      if (page.city.national)
        return provinceHasFacts(site, page.area.name) ? null : links.city(page.city);
      return page.area.description ? null : links.city(page.city);
    },
    pages: perCity((c, site) =>
      c.areas.map((a) => ({
        path: links.cityPage(c, a),
        title: c.national
          ? `Public Adjusters in ${a.name}`
          : `Public Adjusters in ${a.name}, ${c.name}`,
        description: areaDescription(site, c, a),
        city: c,
        area: a,
      })),
    ),
  },
];

function areaDescription(site: Site, c: City, a: Area): string {
  const quebec = c.national ? provinceByName(a.name)?.code === 'QC' : inQuebec(c);
  const place = c.national ? `property owners across ${a.name}` : `${a.name} in ${where(c)}`;
  return quebec
    ? quebecSnippet(site, 'area', place)
    : `Licensed public adjusters serving ${place}. Free damage assessment, no upfront fees, paid only when you win.`;
}

function questionnaireDescription(q: QuestionnaireKind, c: City, site: Site): string {
  const place = where(c);
  if (inQuebec(c) && q === 'top-adjusters') return quebecSnippet(site, 'topAdjusters', place);
  if (inQuebec(c) && q === 'free-consultation')
    return quebecSnippet(site, 'freeConsultation', place);
  switch (q) {
    case 'public-adjusters':
      return `Find a licensed public adjuster in ${place}. Answer three short questions about your damage and get matched within 24 hours.`;
    case 'top-adjusters':
      return `Compare top-rated public adjusters in ${place} for fire, water and storm claims. Free assessment; fees of 5-15% only on success.`;
    case 'claims-offices':
      return `Public adjuster claims offices serving ${place}. Tell us about your loss and an adjuster responds within 24 hours.`;
    case 'free-consultation':
      return `Book a free insurance claim assessment in ${place}. No upfront fees: a public adjuster is paid only when your claim succeeds.`;
  }
}

export function buildPages(site: Site, routes: readonly Route[] = ROUTES): Page[] {
  return routes.flatMap((route) =>
    route.pages(site).map((input) => {
      const into = route.consolidate?.(input, site) ?? null;
      return {
        ...input,
        route: route.id,
        file: fileForPath(input.path),
        sitemap: into === null ? route.sitemap : null,
        canonical: into ?? (route.sitemap ? input.path : null),
      };
    }),
  );
}
