import type {
  AggregateRating,
  BreadcrumbList,
  FAQPage,
  GeoCircle,
  Place,
  ProfessionalService,
  Service,
  WithContext,
} from 'schema-dts';
import { fill } from '../i18n/catalogue.js';
import { memoize } from '../memo.js';
import type { Page } from '../routes.js';
import type { QA, Testimonial } from '../site/content-schema.js';
import type { City, Site } from '../site/model.js';
import { openingHours } from '../site/opening-hours.js';
import { provinceBySlug } from '../site/provinces.js';
import { absoluteUrl, links } from '../urls.js';
import { sharedJsonLd } from './jsonld.js';

/** A city's service area: a circle of this radius around it, in metres. */
const GEO_RADIUS = 50000;

/** The business's identifier: the same in every language (the English home page's). */
const businessId = (site: Site) => `${absoluteUrl(site.settings.baseUrl, links.home)}#business`;

/**
 * The rating is the mean of the first half of the real testimonials; none while they are
 * samples (a sample rating would mislead, and search engines ignore self-serving ones anyway).
 */
export function aggregateRating(testimonials: readonly Testimonial[]): AggregateRating | undefined {
  const real = testimonials.filter((t) => !t.sample);
  const half = real.slice(0, Math.floor(real.length / 2));
  if (half.length === 0) return undefined;
  const mean = half.reduce((n, t) => n + t.rating, 0) / half.length;
  return {
    '@type': 'AggregateRating',
    ratingValue: Math.round(mean * 10) / 10,
    reviewCount: half.length,
    bestRating: 5,
    worstRating: 1,
  };
}

/** The business, the same on every page: made and serialised once per site. */
export const business = memoize((site: Site) => sharedJsonLd(businessOf(site)));

/**
 * The business as Québec's pages describe it: without the rest of Canada's price range, since
 * there a claims adjuster's fee is whatever the written contract sets (templates/pages/quebec.ts).
 */
const businessInQuebec = memoize((site: Site) => sharedJsonLd(businessOf(site, false)));

/** The business as a page in Québec (`quebec`) or elsewhere shows it. */
export const businessFor = (site: Site, quebec: boolean) =>
  quebec ? businessInQuebec(site) : business(site);

function businessOf(site: Site, priced = true): WithContext<ProfessionalService> {
  const { settings } = site;
  const rating = aggregateRating(site.content.testimonials);
  const { business } = settings;
  // The office hours as the English contact page gives them (the French ones are words to
  // read, not to parse); left out where they cannot be read.
  const hours = openingHours((site.languages.get('en') ?? site).settings.officeHours);
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    '@id': businessId(site),
    name: settings.siteName,
    url: absoluteUrl(settings.baseUrl, site.paths.home),
    telephone: telephone(site),
    email: settings.email,
    areaServed: regionServed(site),
    ...(hours ? { openingHours: hours } : {}),
    ...(priced ? { priceRange: site.t.structuredData.priceRange } : {}),
    ...(rating ? { aggregateRating: rating } : {}),
    ...(site.logo ? { logo: absoluteUrl(settings.baseUrl, site.logo.path) } : {}),
    ...(business?.legalName ? { legalName: business.legalName } : {}),
    ...(business?.address
      ? {
          address: {
            '@type': 'PostalAddress',
            streetAddress: business.address.street,
            addressLocality: business.address.city,
            addressRegion: business.address.province,
            postalCode: business.address.postalCode,
            addressCountry: 'CA',
          },
        }
      : {}),
  };
}

/**
 * The number as search engines read one, E.164, with its extension as RFC 3966 writes it
 * (+14165550123;ext=22): without it, a caller reaches the switchboard, not the firm.
 */
const telephone = (site: Site) =>
  `${site.phone.e164}${site.phone.extension ? `;ext=${site.phone.extension}` : ''}`;

/**
 * Where the business works: the country, or its service area's provinces and cities, each
 * named as the page's language names it (never the country when it works in part of it).
 */
function regionServed(site: Site): Place | Place[] {
  const country: Place = { '@type': 'Country', name: site.t.routes.country };
  const { area } = site;
  if (!area) return country;
  const provinces: Place[] = site.national.areas
    .filter((a) => area.provinces.includes(provinceBySlug(a.slug)?.code ?? ''))
    .map((a) => ({ '@type': 'AdministrativeArea', name: a.name, containedInPlace: country }));
  const cities: Place[] = area.cities.flatMap((slug) => {
    const city = site.bySlug.get(slug);
    if (!city || area.provinces.includes(city.provinceCode ?? '')) return [];
    return [
      {
        '@type': 'City',
        name: city.name,
        containedInPlace: { '@type': 'AdministrativeArea', name: city.province ?? '' },
      },
    ];
  });
  return [...provinces, ...cities];
}

export function breadcrumbs(
  site: Site,
  trail: ReadonlyArray<{ name: string; path: string }>,
): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((t, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: t.name,
      item: absoluteUrl(site.settings.baseUrl, t.path),
    })),
  };
}

/** A list of questions as an FAQ page; a list shared by many pages is made and serialised once. */
export const faqPage = memoize((items: readonly QA[]) => sharedJsonLd(faqPageOf(items)));

function faqPageOf(items: readonly QA[]): WithContext<FAQPage> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((q) => ({
      '@type': 'Question',
      name: q.question,
      acceptedAnswer: { '@type': 'Answer', text: q.answer },
    })),
  };
}

/** Where a service is offered: the city (or province, or country) and a circle around it. */
function areaServed(site: Site, city: City, areaName?: string): Array<Place | GeoCircle> {
  const country = site.t.routes.country;
  const { lat, lng } = city.coordinates;
  const circle: GeoCircle = {
    '@type': 'GeoCircle',
    geoMidpoint: { '@type': 'GeoCoordinates', latitude: lat, longitude: lng },
    geoRadius: GEO_RADIUS,
  };
  if (city.national) {
    if (areaName)
      return [
        {
          '@type': 'AdministrativeArea',
          name: areaName,
          containedInPlace: { '@type': 'Country', name: country },
        },
      ];
    // A service area is its places, not a circle around the middle of Canada.
    const served = regionServed(site);
    return Array.isArray(served) ? served : [served, circle];
  }
  const place: Place = {
    '@type': 'City',
    name: city.name,
    containedInPlace: { '@type': 'AdministrativeArea', name: city.province ?? '' },
  };
  return areaName
    ? [
        {
          '@type': 'Place',
          name: fill(site.t.structuredData.areaPlace, { area: areaName, city: city.name }),
          containedInPlace: place,
        },
        circle,
      ]
    : [place, circle];
}

export function service(
  site: Site,
  page: Page,
  city: City,
  /** As the page's language names it (public adjusting, or a claim type). */
  serviceType: string,
): WithContext<Service> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: page.title,
    serviceType,
    description: page.description,
    url: absoluteUrl(site.settings.baseUrl, page.path),
    provider: { '@id': businessId(site) },
    areaServed: areaServed(site, city, page.area?.name),
  };
}
