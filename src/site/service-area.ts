import { memoize } from '../memo.js';
import type { DataIssue } from './errors.js';
import type { Facts } from './load-facts.js';
import type { Area, City, Site } from './model.js';
import { PROVINCES, provinceBySlug } from './provinces.js';
import type { Business, SiteSettings } from './schema.js';

/**
 * Where the firm works (site.json's `serviceArea`): the provinces and territories it names whole,
 * and the cities it names one by one outside them. The data set stays whole; the site publishes
 * the area's cities, their pages and their provinces' pages, and speaks of the area, not of
 * Canada. A firm licensed in one province that advertised across Canada would be at risk.
 */
export interface ServiceArea {
  /** Named whole, by code, in PROVINCES' order. */
  provinces: readonly string[];
  /** Named one by one, by slug, in the order given; none inside a province named whole. */
  cities: readonly string[];
}

/** The settings' service area; null for the whole country (no `serviceArea`). */
export function serviceAreaOf(settings: SiteSettings): ServiceArea | null {
  const given = settings.serviceArea;
  if (!given) return null;
  const named = new Set(given.provinces ?? []);
  return {
    provinces: PROVINCES.map((p) => p.code).filter((code) => named.has(code)),
    cities: [...new Set(given.cities ?? [])],
  };
}

/** Whether a city is inside the area (every city when there is none). */
export function inServiceArea(area: ServiceArea | null, city: City): boolean {
  return (
    area === null ||
    area.provinces.includes(city.provinceCode ?? '') ||
    area.cities.includes(city.slug)
  );
}

/**
 * What the area names that the data set does not hold: a city slug that is no city of it, a
 * province none of whose cities it has. Each names site.json's field.
 */
export function serviceAreaIssues(
  settings: SiteSettings,
  cities: readonly City[],
  file: string,
): DataIssue[] {
  const given = settings.serviceArea;
  if (!given) return [];
  const out: DataIssue[] = [];
  const slugs = new Set(cities.map((c) => c.slug));
  const codes = new Set(cities.map((c) => c.provinceCode));
  given.cities?.forEach((slug, i) => {
    if (!slugs.has(slug))
      out.push({
        file,
        record: null,
        field: `serviceArea.cities.${i}`,
        message: `"${slug}" is not a city of the data set (a city's slug, as in data/cities/*.json)`,
      });
  });
  given.provinces?.forEach((code, i) => {
    if (!codes.has(code))
      out.push({
        file,
        record: null,
        field: `serviceArea.provinces.${i}`,
        message: `"${code}": the data set has no city there (data/cities/${code.toLowerCase()}.json)`,
      });
  });
  return out;
}

/** The provinces and territories that hold a city of the area, by code, in PROVINCES' order. */
export function areaProvinceCodes(cities: readonly City[]): string[] {
  const held = new Set(cities.map((c) => c.provinceCode));
  return PROVINCES.map((p) => p.code).filter((code) => held.has(code));
}

/** The national entry's areas (the provinces, each with a page) that hold a city of the area. */
export function areaProvinces(areas: readonly Area[], codes: readonly string[]): Area[] {
  return areas.filter((a) => codes.includes(provinceBySlug(a.slug)?.code ?? ''));
}

/**
 * The facts the area's pages use: its cities' local facts, its provinces' rules, and the
 * catastrophes that struck it, naming only its cities. Those of the rest of the data set are
 * kept in their files but not used, so they are neither published nor checked against it.
 */
export function factsOfArea(facts: Facts, cities: readonly City[]): Facts {
  const slugs = new Set(cities.map((c) => c.slug));
  const codes = new Set(areaProvinceCodes(cities));
  return {
    ...facts,
    provinces: new Map([...facts.provinces].filter(([code]) => codes.has(code))),
    local: new Map([...facts.local].filter(([slug]) => slugs.has(slug))),
    catastrophes: facts.catastrophes
      .filter((c) => c.provinces.some((p) => codes.has(p)))
      .map((c) => ({ ...c, cities: c.cities.filter((s) => slugs.has(s)) })),
  };
}

/**
 * The business as the pages show it (the footer, the contact and about pages, the panel beside
 * the form): with a service area, only the licences of its provinces, which are what a visitor
 * there can check. One object per site, so the fragments that show it are rendered once.
 */
export const businessShown = memoize((site: Site): Business | undefined => {
  const business = site.settings.business;
  if (!site.area || !business?.licences) return business;
  const codes = new Set(areaProvinceCodes(site.cities));
  return { ...business, licences: business.licences.filter((l) => codes.has(l.province)) };
});
