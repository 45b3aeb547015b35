/**
 * Path segments the route table owns. City and area slugs may not take them, so that no data
 * record can shadow a page. Kept apart from routes.ts so data validation needs no templates.
 */
/** The nationwide entry's slug: the country as a city, with the provinces as its areas. */
export const NATIONAL = 'canada';

export const SITE_PAGES = [
  'about',
  'services',
  'faq',
  'contact',
  'privacy',
  'terms',
  'sitemap',
] as const;

export const CLAIM_TYPES = [
  { type: 'residential', segment: 'residential-claims' },
  { type: 'commercial', segment: 'commercial-claims' },
  { type: 'fire', segment: 'fire-damage-claims' },
  { type: 'flood', segment: 'flood-damage-claims' },
  { type: 'storm', segment: 'storm-damage-claims' },
  { type: 'other', segment: 'other-damage-claims' },
] as const;

export type ClaimType = (typeof CLAIM_TYPES)[number]['type'];

export const QUESTIONNAIRE_PAGES = [
  'public-adjusters',
  'top-adjusters',
  'claims-offices',
  'free-consultation',
] as const;

/** Second segments under /{city}/ that are pages, not areas. */
export const CITY_SEGMENTS: readonly string[] = [
  'about',
  'services',
  ...QUESTIONNAIRE_PAGES,
  ...CLAIM_TYPES.map((c) => c.segment),
];

/** First segments that are not cities. */
export const TOP_SEGMENTS: readonly string[] = [
  ...SITE_PAGES,
  'confirmation',
  'form-error',
  'blog',
  'api',
  'assets',
  '404',
  'index',
  'sitemap.xml',
  'robots.txt',
];
