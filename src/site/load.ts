import { statSync } from 'node:fs';
import path from 'node:path';
import type { Catalogue } from '../i18n/catalogue.js';
import type { Places } from '../i18n/french-schema.js';
import type { Lang } from '../i18n/lang.js';
import { fillCatalogueTexts, fillDeep } from '../i18n/placeholders.js';
import { brandingOf, placeholderValues } from './branding.js';
import { displayPath } from './display-path.js';
import { DataError, type DataIssue } from './errors.js';
import { FORMATS } from './format.js';
import { coveredInFrench, frenchSite, loadFrench } from './french.js';
import { ENGLISH, loadCatalogue, nationwideTexts } from './load-catalogue.js';
import { areaName, checkAreas, checkUnique, loadCities, toAreas } from './load-cities.js';
import { type Content, loadContent } from './load-content.js';
import { type Facts, loadFacts } from './load-facts.js';
import { type Branding, type City, createSite, type Site } from './model.js';
import { PROVINCES, provinceByCode } from './provinces.js';
import { isObject, parseRecord, readJson } from './read.js';
import { type RegionUnit, regionWords } from './region.js';
import {
  type NationalRecord,
  nationalSchema,
  type SiteSettings,
  siteSettingsSchema,
} from './schema.js';
import { NATIONAL } from './segments.js';
import {
  areaProvinceCodes,
  areaProvinces,
  factsOfArea,
  inServiceArea,
  type ServiceArea,
  serviceAreaIssues,
  serviceAreaOf,
} from './service-area.js';
import { typedContacts } from './typed-contacts.js';

export { checkedRecords } from './load-cities.js';

interface LoadOptions {
  /** Overrides the base URL of data/site.json (from --base-url or SITE_URL). */
  baseUrl?: string;
  /** Where the override came from, named when it is not a URL. Default: --base-url. */
  baseUrlFrom?: string;
  /** The public folder the logo of site.json is in; null or absent for none. */
  publicDir?: string | null;
  /**
   * Digests of city records (see RecordDigests) this code found valid before: such a record is
   * made into its city without zod checking it again (see cityRecordOf). A record is valid or not
   * by its tokens and the code alone. The checks of a city against the others and its file run
   * for every record.
   */
  valid?: ReadonlySet<string>;
}

/**
 * Reads and validates the whole data folder, a step at a time. Every problem is collected and
 * thrown together as one DataError, so an operator fixes a file in one pass.
 */
export async function loadSite(dataDir: string, options: LoadOptions = {}): Promise<Site> {
  requireDataFolder(dataDir);
  const issues: DataIssue[] = [];
  const settings = loadSettings(dataDir, options, issues);
  const settingsFile = rel(path.join(dataDir, 'site.json'));
  const branding = settings
    ? brandingOf(settings, settingsFile, options.publicDir, issues)
    : undefined;
  // Content that types in the name, number or an address its placeholder stands for.
  if (settings) issues.push(...typedContacts(dataDir, settings, branding?.phone, rel));
  const national = loadNational(dataDir, issues);
  const cities = loadCities(dataDir, rel, options.valid, issues);
  checkUnique(cities, national, issues);
  const content = loadContent(dataDir, rel, issues);
  const loadedFacts = loadFacts(dataDir, rel, cities.slugsNamed, issues);
  const catalogue = loadCatalogue(dataDir, 'en', rel, issues);
  // What of the data set is published: the service area's cities, or all of them.
  const area = settings ? serviceAreaOf(settings) : null;
  // Against the cities read: not when a city file could not be (its cities are not blamed).
  if (settings && cities.slugsNamed)
    issues.push(...serviceAreaIssues(settings, cities.cities, settingsFile));
  const published = cities.cities.filter((c) => inServiceArea(area, c));
  const facts = loadedFacts && area ? factsOfArea(loadedFacts, published) : loadedFacts;
  // French pages where the area holds cities that have them (the whole data set: as it always was).
  const frenchCatalogue =
    area === null || published.some(coveredInFrench)
      ? loadCatalogue(dataDir, 'fr', rel, issues)
      : null;
  const french = frenchCatalogue ? loadFrench(dataDir, frenchCatalogue, rel, issues) : null;
  if (area) issues.push(...areaWording(dataDir, catalogue, frenchCatalogue));

  // Named by a record whose file did not parse, a city is not blamed on the business again.
  if (settings && cities.slugsNamed)
    issues.push(...checkBusinessCities(settings, cities.slugsNamed, settingsFile));
  if (facts) {
    // Only the facts the site uses: the area's (the rest of the data set's are not published).
    issues.push(...checkLocalFacts(facts, published, rel(path.join(dataDir, 'local-facts.json'))));
    if (frenchCatalogue !== null)
      issues.push(...checkAssistance(facts, rel(path.join(dataDir, 'provinces.json'))));
  }

  if (issues.length > 0 || !settings || !branding || !national || !content || !facts || !catalogue)
    throw new DataError(issues);
  const parts = { settings, branding, area, published, recordDigests: cities.recordDigests };
  const site = englishSite(parts, national.rec, content, facts, catalogue);
  if (french) {
    const words = regionWords(
      regionUnits(area, published, french.places),
      'fr',
      french.catalogue.strings,
    );
    const inFrench = placeholderValues(settings, branding.phone, FORMATS.fr, words, 'fr');
    const filled = {
      ...french,
      content: fillDeep(french.content, inFrench),
      catalogue: fillCatalogueTexts(french.catalogue, ENGLISH, inFrench),
    };
    const view = frenchSite(site, filled, rel, dataDir, issues, area ? words.name : null);
    addLanguage(site, 'fr', view, issues);
  }
  return site;
}

/** The catalogues' texts that would name Canada on a service area's pages (nationwideTexts). */
function areaWording(
  dataDir: string,
  english: Catalogue | null | undefined,
  french: Catalogue | null | undefined,
): DataIssue[] {
  const file = (lang: Lang) => rel(path.join(dataDir, 'i18n', `${lang}.json`));
  return [
    ...(english ? nationwideTexts(english, 'en', file('en')) : []),
    ...(french ? nationwideTexts(french, 'fr', file('fr')) : []),
  ];
}

/** The English site: the data set as loaded, its placeholders filled, narrowed to the area. */
function englishSite(
  parts: {
    settings: SiteSettings;
    branding: Branding;
    area: ServiceArea | null;
    published: City[];
    recordDigests: WeakMap<City, string>;
  },
  nationalRecord: NationalRecord,
  content: Content,
  facts: Facts,
  catalogue: Catalogue,
): Site {
  const { settings, branding, area, published } = parts;
  const words = regionWords(regionUnits(area, published, null), 'en', catalogue.strings);
  const values = placeholderValues(settings, branding.phone, FORMATS.en, words);
  const national = toNational(nationalRecord);
  const codes = areaProvinceCodes(published);
  // An area in one province is spoken of as that province's pages are: Québec's own terms there.
  const only = codes.length === 1 ? provinceByCode(codes[0] ?? '') : undefined;
  return createSite(
    settings,
    area
      ? {
          ...national,
          name: words.name,
          areas: areaProvinces(national.areas, codes),
          ...(only && { province: only.name, provinceCode: only.code }),
        }
      : national,
    published,
    parts.recordDigests,
    fillDeep(content, values),
    facts,
    fillCatalogueTexts(catalogue, ENGLISH, values),
    branding,
    area,
  );
}

/**
 * The area's parts as its pages name them: its provinces named whole, then its cities named one
 * by one (their French names from `places`, where given); null for the whole country.
 */
function regionUnits(
  area: ServiceArea | null,
  published: readonly City[],
  places: Places | null,
): RegionUnit[] | null {
  if (!area) return null;
  const bySlug = new Map(published.map((c) => [c.slug, c]));
  return [
    ...area.provinces.map((province) => ({ province })),
    ...area.cities.flatMap((slug) => {
      const city = bySlug.get(slug);
      if (!city || area.provinces.includes(city.provinceCode ?? '')) return [];
      return [{ city: places?.cities[slug]?.name ?? city.name }];
    }),
  ];
}

const rel = displayPath;

/** One line for a folder that is not there, rather than one per file it should hold. */
function requireDataFolder(dataDir: string): void {
  if (statSync(dataDir, { throwIfNoEntry: false })?.isDirectory()) return;
  throw new DataError([
    { file: rel(dataDir), record: null, field: null, message: 'is not a data folder (not found)' },
  ]);
}

/** site.json, with the site URL given on the command line (or SITE_URL) in place of its own. */
function loadSettings(dataDir: string, options: LoadOptions, issues: DataIssue[]) {
  const file = path.join(dataDir, 'site.json');
  const raw = readJson(file, rel, issues);
  if (raw !== undefined && options.baseUrl && isObject(raw)) {
    // The override is checked as itself: its mistake is not site.json's.
    const given = siteSettingsSchema.shape.baseUrl.safeParse(options.baseUrl);
    if (given.success) raw.baseUrl = given.data;
    else
      issues.push({
        file: options.baseUrlFrom ?? '--base-url',
        record: null,
        field: null,
        message: withValue(options.baseUrl, given.error.issues[0]?.message ?? 'is not a URL'),
      });
  }
  // Turnstile's site key is the deployment's, set where the build runs (TURNSTILE_SITE_KEY).
  const turnstile = process.env.TURNSTILE_SITE_KEY?.trim();
  if (raw !== undefined && turnstile && isObject(raw)) {
    const given = siteSettingsSchema.shape.turnstileSiteKey.safeParse(turnstile);
    if (given.success) raw.turnstileSiteKey = given.data;
    else
      issues.push({
        file: 'TURNSTILE_SITE_KEY',
        record: null,
        field: null,
        message: `"${turnstile}" ${given.error.issues[0]?.message ?? 'is not a site key'}`,
      });
  }
  const settings = parseRecord(siteSettingsSchema, raw, rel(file), null, issues);
  if (settings) settings.baseUrl = settings.baseUrl.replace(/\/+$/, '');
  return settings;
}

/** national.json: the `canada` entry, whose areas are the 13 provinces and territories. */
function loadNational(dataDir: string, issues: DataIssue[]) {
  const file = rel(path.join(dataDir, 'national.json'));
  const raw = readJson(path.join(dataDir, 'national.json'), rel, issues);
  const rec = parseRecord(nationalSchema, raw, file, NATIONAL, issues);
  if (!rec) return undefined;
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
  return { rec, file };
}

/** Another language's view of the site, checked like the rest. */
function addLanguage(site: Site, lang: Lang, view: Site, issues: DataIssue[]): void {
  if (issues.length > 0) throw new DataError(issues);
  (site.languages as Map<Lang, Site>).set(lang, view);
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

/** A province with French pages needs the French of its disaster assistance and permits. */
function checkAssistance(facts: Facts, file: string): DataIssue[] {
  const out: DataIssue[] = [];
  [...facts.provinces.values()].forEach((p, i) => {
    if (!FRENCH_PROVINCES.has(p.code)) return;
    const french = (list: string, facts: readonly { fr?: string }[] | undefined) =>
      facts?.forEach((a, k) => {
        if (a.fr === undefined)
          out.push({
            file,
            record: p.code,
            field: `provinces.${i}.${list}.${k}.fr`,
            message: `is required: ${p.code} has French pages`,
          });
      });
    french('assistance', p.assistance);
    french('permits', p.permits);
  });
  return out;
}

/** A message about a value, naming the value once. */
const withValue = (value: string, message: string) =>
  message.startsWith(`"${value}"`) ? message : `"${value}" ${message}`;
