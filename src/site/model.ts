import type { SiteSettings } from './schema.js';

export interface Area {
  name: string;
  slug: string;
}

export interface City {
  id: string;
  name: string;
  slug: string;
  /** Full province name; null for the national entry. */
  province: string | null;
  provinceCode: string | null;
  population: number;
  coordinates: { lat: number; lng: number };
  incorporationDate: string | null;
  description: string;
  areas: Area[];
  national: boolean;
}

export interface Site {
  settings: SiteSettings;
  /** The national default city (`canada`). */
  national: City;
  /** Real cities, most populous first (ties by name). */
  cities: City[];
  /** Every city slug, `canada` included, to its city. */
  bySlug: ReadonlyMap<string, City>;
}

export function createSite(settings: SiteSettings, national: City, cities: City[]): Site {
  const sorted = [...cities].sort(byPopulation);
  const bySlug = new Map<string, City>([[national.slug, national]]);
  for (const c of sorted) bySlug.set(c.slug, c);
  return { settings, national, cities: sorted, bySlug };
}

export function byPopulation(a: City, b: City): number {
  return b.population - a.population || a.name.localeCompare(b.name, 'en-CA');
}

/** The national entry first, then every city: the order pages are enumerated in. */
export function allCities(site: Site): City[] {
  return [site.national, ...site.cities];
}

export function topCities(site: Site, n: number): City[] {
  return site.cities.slice(0, n);
}
