import { statSync } from 'node:fs';
import path from 'node:path';
import { frenchSite, loadFrench } from '../i18n/french.js';
import type { Lang } from '../i18n/lang.js';
import { loadCatalogue } from '../i18n/load-catalogue.js';
import { displayPath } from './display-path.js';
import { DataError, type DataIssue } from './errors.js';
import { loadContent } from './load-content.js';
import { type Facts, loadFacts } from './load-facts.js';
import { type Area, type City, createSite, type Site } from './model.js';
import { PROVINCES, provinceByName } from './provinces.js';
import { filesIn, isObject, parseRecord, readJson, readJsonRecords } from './read.js';
import {
  type AreaRecord,
  type CityRecord,
  cityRecordOf,
  citySchema,
  type NationalRecord,
  nationalSchema,
  type SiteSettings,
  siteSettingsSchema,
} from './schema.js';
import { CITY_SEGMENTS, NATIONAL, TOP_SEGMENTS } from './segments.js';
import { slugify } from './slug.js';

export interface LoadOptions {
  /** Overrides the base URL of data/site.json (from --base-url or SITE_URL). */
  baseUrl?: string;
  /** Where the override came from, named when it is not a URL. Default: --base-url. */
  baseUrlFrom?: string;
  /**
   * Digests of city records (see RecordDigests) this code found valid before: such a record is
   * made into its city without zod checking it again (see cityRecordOf). A record is valid or not
   * by its tokens and the code alone. The checks of a city against the others and its file run
   * for every record.
   */
  valid?: ReadonlySet<string>;
}

/** City records checked by zod since the process started: tests check which are skipped. */
export const checkedRecords = { count: 0 };

/**
 * Reads and validates the whole data folder. Every problem is collected and thrown together
 * as one DataError, so an operator fixes a file in one pass.
 */
export async function loadSite(dataDir: string, options: LoadOptions = {}): Promise<Site> {
  const issues: DataIssue[] = [];
  const rel = displayPath;
  // One line for a folder that is not there, rather than one per file it should hold.
  if (!statSync(dataDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new DataError([
      {
        file: rel(dataDir),
        record: null,
        field: null,
        message: 'is not a data folder (not found)',
      },
    ]);
  }

  const settingsFile = path.join(dataDir, 'site.json');
  const settingsRaw = readJson(settingsFile, rel, issues);
  if (settingsRaw !== undefined && options.baseUrl && isObject(settingsRaw)) {
    // The override is checked as itself: its mistake is not site.json's.
    const given = siteSettingsSchema.shape.baseUrl.safeParse(options.baseUrl);
    if (given.success) settingsRaw.baseUrl = given.data;
    else
      issues.push({
        file: options.baseUrlFrom ?? '--base-url',
        record: null,
        field: null,
        message: `"${options.baseUrl}" ${given.error.issues[0]?.message ?? 'is not a URL'}`,
      });
  }
  const settings = parseRecord(siteSettingsSchema, settingsRaw, rel(settingsFile), null, issues);
  if (settings) settings.baseUrl = settings.baseUrl.replace(/\/+$/, '');

  const nationalFile = path.join(dataDir, 'national.json');
  const nationalRaw = readJson(nationalFile, rel, issues);
  const national = parseRecord(nationalSchema, nationalRaw, rel(nationalFile), NATIONAL, issues);
  if (national) checkNational(national, rel(nationalFile), issues);

  const cityFiles = filesIn(path.join(dataDir, 'cities'), '.json');
  if (cityFiles.length === 0) {
    issues.push({
      file: rel(path.join(dataDir, 'cities')),
      record: null,
      field: null,
      message: 'no city files (cities/*.json) found',
    });
  }
  const cities: City[] = [];
  const citySlugsIn = new Set<string>();
  const fileOf = new Map<City, string>();
  const recordDigests = new WeakMap<City, string>();
  for (const file of cityFiles) {
    const shown = rel(file);
    const read = readJsonRecords(file, rel, issues);
    if (read === undefined) continue;
    const { value: raw, digests } = read;
    if (!Array.isArray(raw)) {
      issues.push({
        file: shown,
        record: null,
        field: null,
        message: 'must be a JSON array of cities',
      });
      continue;
    }
    raw.forEach((item, index) => {
      // Without a slug, a record is named by its place in the file, counted from 1.
      const label =
        isObject(item) && typeof item.slug === 'string' && item.slug ? item.slug : `#${index + 1}`;
      if (isObject(item) && typeof item.slug === 'string') citySlugsIn.add(item.slug);
      const digest = digests?.[index];
      const known = digest !== undefined && options.valid?.has(digest) === true;
      if (!known) checkedRecords.count++;
      // Made by one function whether zod checked it now or before, so that it makes one city.
      const valid = known || parseRecord(citySchema, item, shown, label, issues) !== undefined;
      if (valid) {
        const rec = cityRecordOf(item as CityRecord);
        const fileIssues = checkCity(rec, file, shown);
        issues.push(...fileIssues);
        if (fileIssues.length === 0) {
          const city = toCity(rec);
          cities.push(city);
          fileOf.set(city, shown);
          if (digest !== undefined) recordDigests.set(city, digest);
        }
      }
    });
  }

  checkUnique(cities, national, issues, (c) => fileOf.get(c) ?? '');

  const content = loadContent(dataDir, rel, issues);
  // Slugs of every city record, valid or not: a city with a mistake of its own is reported once,
  // not again through each catastrophe that names it.
  const facts = loadFacts(dataDir, rel, citySlugsIn, issues);

  const catalogue = loadCatalogue(dataDir, 'en', rel, issues);
  const frenchCatalogue = loadCatalogue(dataDir, 'fr', rel, issues);
  const french = frenchCatalogue ? loadFrench(dataDir, frenchCatalogue, rel, issues) : null;

  if (settings) issues.push(...checkBusinessCities(settings, citySlugsIn, rel(settingsFile)));
  if (facts) {
    issues.push(...checkLocalFacts(facts, cities, rel(path.join(dataDir, 'local-facts.json'))));
    issues.push(...checkAssistance(facts, rel(path.join(dataDir, 'provinces.json'))));
  }

  if (issues.length > 0 || !settings || !national || !content || !facts || !catalogue)
    throw new DataError(issues);
  const site = createSite(
    settings,
    toNational(national),
    cities,
    recordDigests,
    content,
    facts,
    catalogue,
  );
  if (french) {
    const languages = site.languages as Map<Lang, Site>;
    languages.set('fr', frenchSite(site, french, rel, dataDir, issues));
    if (issues.length > 0) throw new DataError(issues);
  }
  return site;
}

/** The firm's adjusters and offices name cities by slug: each must be a city of the data set. */
function checkBusinessCities(
  settings: SiteSettings,
  citySlugs: ReadonlySet<string>,
  file: string,
): DataIssue[] {
  const out: DataIssue[] = [];
  const unknown = (slug: string, field: string): void => {
    if (!citySlugs.has(slug))
      out.push({ file, record: null, field, message: `"${slug}" is not a city of the data set` });
  };
  settings.business?.adjusters?.forEach((a, i) => {
    a.cities.forEach((slug, k) => {
      unknown(slug, `business.adjusters.${i}.cities.${k}`);
    });
  });
  settings.business?.offices?.forEach((o, i) => {
    unknown(o.city, `business.offices.${i}.city`);
  });
  return out;
}

/** Provinces whose cities have French pages: their local facts need their French. */
const FRENCH_PROVINCES = new Set(['QC', 'NB']);

/** A local fact's area must be one of its city's, and a city with French pages needs its French. */
function checkLocalFacts(facts: Facts, cities: readonly City[], file: string): DataIssue[] {
  const out: DataIssue[] = [];
  const bySlug = new Map(cities.map((c) => [c.slug, c]));
  for (const [slug, list] of facts.local) {
    const city = bySlug.get(slug);
    if (!city) continue; // reported by loadFacts
    list.forEach((fact, i) => {
      if (fact.area !== undefined && !city.areas.some((a) => a.name === fact.area))
        out.push({
          file,
          record: slug,
          field: `${i}.area`,
          message: `"${fact.area}" is not an area of ${city.name}`,
        });
      if (fact.fr === undefined && FRENCH_PROVINCES.has(city.provinceCode ?? ''))
        out.push({
          file,
          record: slug,
          field: `${i}.fr`,
          message: `is required: ${city.name} has French pages`,
        });
    });
  }
  return out;
}

/** A province with French pages needs the French of its disaster assistance. */
function checkAssistance(facts: Facts, file: string): DataIssue[] {
  const out: DataIssue[] = [];
  [...facts.provinces.values()].forEach((p, i) => {
    if (!FRENCH_PROVINCES.has(p.code)) return;
    p.assistance?.forEach((a, k) => {
      if (a.fr === undefined)
        out.push({
          file,
          record: p.code,
          field: `provinces.${i}.assistance.${k}.fr`,
          message: `is required: ${p.code} has French pages`,
        });
    });
  });
  return out;
}

/** A city may not take a province's slug: worked out once, not for every city. */
const PROVINCE_SLUGS = new Set(PROVINCES.map((p) => slugify(p.name)));

function checkCity(rec: CityRecord, absFile: string, file: string): DataIssue[] {
  const out: DataIssue[] = [];
  const at = (field: string, message: string) =>
    out.push({ file, record: rec.slug, field, message });

  const expectedSlug = slugify(rec.name);
  if (rec.slug !== expectedSlug) at('slug', `must be "${expectedSlug}", the slug of its name`);
  if (TOP_SEGMENTS.includes(rec.slug)) at('slug', `"${rec.slug}" is reserved for a site page`);
  if (PROVINCE_SLUGS.has(rec.slug) || rec.slug === NATIONAL) {
    at('slug', `"${rec.slug}" is the name of a province or of the country`);
  }
  const province = provinceByName(rec.province);
  if (province && province.code !== rec.provinceCode) {
    at('provinceCode', `must be ${province.code} for ${rec.province}`);
  }
  const fileCode = path.basename(absFile, '.json').toUpperCase();
  if (rec.provinceCode !== fileCode) {
    at('provinceCode', `is ${rec.provinceCode} but the file holds ${fileCode} cities`);
  }
  // From the slug it should have: a wrong slug is reported once, not again through the id.
  const expectedId = `${rec.provinceCode.toLowerCase()}-${expectedSlug}`;
  if (rec.id !== expectedId) at('id', `must be "${expectedId}" (province code and slug)`);
  out.push(...checkAreas(rec.areas, file, rec.slug));
  return out;
}

function checkAreas(areas: AreaRecord[], file: string, record: string): DataIssue[] {
  const out: DataIssue[] = [];
  const seen = new Map<string, number>();
  areas.map(areaName).forEach((name, i) => {
    const slug = slugify(name);
    const field = `areas.${i}`;
    if (!slug)
      out.push({ file, record, field, message: `"${name}" has no letters or digits for a URL` });
    else if (CITY_SEGMENTS.includes(slug)) {
      out.push({
        file,
        record,
        field,
        message: `"${name}" would take the page /${record}/${slug}`,
      });
    } else if (seen.has(slug)) {
      out.push({
        file,
        record,
        field,
        message: `"${name}" has the same URL as areas.${seen.get(slug)}`,
      });
    } else seen.set(slug, i);
  });
  return out;
}

function checkNational(rec: NationalRecord, file: string, issues: DataIssue[]) {
  const expected = PROVINCES.map((p) => p.name).sort();
  const got = rec.areas.map(areaName).sort();
  if (expected.join('|') !== got.join('|')) {
    issues.push({
      file,
      record: rec.slug,
      field: 'areas',
      message: `must list exactly the 13 provinces and territories: ${expected.join(', ')}`,
    });
  }
  issues.push(...checkAreas(rec.areas, file, rec.slug));
}

/** Ids, slugs and descriptions are unique across all files; the later record is reported. */
function checkUnique(
  cities: City[],
  national: NationalRecord | undefined,
  issues: DataIssue[],
  fileOf: (c: City) => string,
) {
  const ids = new Map<string, string>();
  const slugs = new Map<string, string>();
  if (national) {
    ids.set(national.id, national.slug);
    slugs.set(national.slug, national.slug);
  }
  const descriptions = new Map<string, string>();
  for (const c of cities) {
    const file = fileOf(c);
    const twin = descriptions.get(c.description);
    if (twin) {
      issues.push({
        file,
        record: c.slug,
        field: 'description',
        message: `is the same as ${twin}'s`,
      });
    } else descriptions.set(c.description, c.slug);
    if (ids.has(c.id))
      issues.push({ file, record: c.slug, field: 'id', message: `"${c.id}" is used twice` });
    else ids.set(c.id, c.slug);
    if (slugs.has(c.slug)) {
      issues.push({
        file,
        record: c.slug,
        field: 'slug',
        message: `"${c.slug}" is used by another city`,
      });
    } else slugs.set(c.slug, c.slug);
  }
}

const areaName = (area: AreaRecord) => (typeof area === 'string' ? area : area.name);

function toAreas(areas: AreaRecord[]): Area[] {
  return areas.map((area) =>
    typeof area === 'string'
      ? { name: area, slug: slugify(area) }
      : { ...area, slug: slugify(area.name) },
  );
}

/**
 * Of the record alone, and nothing else the data holds: the digest of the record's tokens stands
 * for the city in page fingerprints (see Site.recordDigests).
 */
function toCity(rec: CityRecord): City {
  return {
    id: rec.id,
    name: rec.name,
    slug: rec.slug,
    province: rec.province,
    provinceCode: rec.provinceCode,
    population: rec.population,
    coordinates: rec.coordinates,
    incorporationDate: rec.incorporationDate,
    description: rec.description,
    descriptionSources: rec.descriptionSources ?? [],
    areas: toAreas(rec.areas),
    sources: rec.sources ?? {},
    national: false,
  };
}

function toNational(rec: NationalRecord): City {
  // Provinces in the data set's order of the 13, so /canada/{province} pages are stable.
  return {
    id: rec.id,
    name: rec.name,
    slug: rec.slug,
    province: null,
    provinceCode: null,
    population: rec.population,
    coordinates: rec.coordinates,
    incorporationDate: null,
    description: rec.description,
    descriptionSources: rec.descriptionSources ?? [],
    areas: toAreas(rec.areas),
    sources: {},
    national: true,
  };
}
