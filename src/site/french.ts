import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Catalogue } from '../i18n/catalogue.js';
import {
  type FrenchFacts,
  frenchFactsSchema,
  type Places,
  placesSchema,
} from '../i18n/french-schema.js';
import { FRENCH_PROVINCES, LANG_PREFIX } from '../i18n/lang.js';
import {
  fileForPath,
  type LanguagePaths,
  links,
  linksIn,
  linksUnder,
  localizePath,
} from '../urls.js';
import type { DataIssue } from './errors.js';
import { FORMATS } from './format.js';
import { loadContent } from './load-content.js';
import type { Facts } from './load-facts.js';
import { type Area, bySlugOf, type City, type Site } from './model.js';
import { provinceByCode } from './provinces.js';
import { parseRecord, readJson } from './read.js';
import type { SiteSettings } from './schema.js';
import { SITE_PAGES } from './segments.js';
import { slugify } from './slug.js';

/**
 * The French site (issue 20): Québec's and New Brunswick's cities and their pages, those
 * provinces' pages under canada/, the national pages and the site pages, in French. Its texts are data under data/fr/:
 * the content files (content/*.json, pages/*.md), places.json (the places' descriptions and
 * names) and facts.json (the regulator's and the catastrophes' texts; their sources are the
 * English data's). Loaded only when data/i18n/fr.json exists.
 */
interface FrenchData {
  catalogue: Catalogue;
  places: Places;
  facts: FrenchFacts;
  content: NonNullable<ReturnType<typeof loadContent>>;
}

/** data/fr/*, checked on its own; undefined when something is wrong (see `issues`). */
export function loadFrench(
  dataDir: string,
  catalogue: Catalogue,
  rel: (f: string) => string,
  issues: DataIssue[],
): FrenchData | undefined {
  const dir = path.join(dataDir, 'fr');
  const json = <T>(name: string, schema: Parameters<typeof parseRecord>[0]) => {
    const file = path.join(dir, name);
    if (!existsSync(file)) {
      issues.push({ file: rel(file), record: null, field: null, message: 'file not found' });
      return undefined;
    }
    return parseRecord(schema, readJson(file, rel, issues), rel(file), null, issues) as
      | T
      | undefined;
  };
  const places = json<Places>('places.json', placesSchema);
  const facts = json<FrenchFacts>('facts.json', frenchFactsSchema);
  const content = loadContent(dir, rel, issues, true);
  if (!places || !facts || !content) return undefined;
  return { catalogue, places, facts, content };
}

/** Whether French pages are made for this city: Québec's, New Brunswick's, the national entry. */
export const coveredInFrench = (city: City) =>
  city.national || FRENCH_PROVINCES.includes(city.provinceCode ?? '');

/**
 * The site in French: the same cities, in the same order, with their French names and
 * descriptions; French content and facts. Problems (a covered city, area or fact without its
 * French) go to `issues`, named by file, record and field.
 */
export function frenchSite(
  site: Site,
  french: FrenchData,
  rel: (f: string) => string,
  dataDir: string,
  issues: DataIssue[],
  /** The national entry's name in French when the site has a service area (src/site/region.ts). */
  regionName: string | null = null,
): Site {
  const placesFile = rel(path.join(dataDir, 'fr', 'places.json'));
  const factsFile = rel(path.join(dataDir, 'fr', 'facts.json'));
  const { places } = french;
  const translate = cityTranslator(places, placesFile, issues);
  issues.push(...unnamedProvinces(site.national.areas, places, placesFile));
  const translated = translate(site.national);
  const national = regionName ? { ...translated, name: regionName } : translated;
  const cities = site.cities.map(translate);
  // Asked for every link a French page writes: by slug, not by a scan of every city.
  const bySlug = bySlugOf(national, cities);
  const paths = frenchPaths(site, french.catalogue, bySlug);
  const fr: Site = {
    ...site,
    settings: frenchSettings(site.settings),
    national,
    cities,
    bySlug,
    content: french.content,
    facts: frenchFacts(site.facts, french.facts, factsFile, issues),
    lang: 'fr',
    t: french.catalogue.strings,
    links: linksUnder(site.basePath, linksIn(paths)),
    paths: linksIn(paths),
    format: FORMATS.fr,
    covers: coveredInFrench,
    localize: (p) => localizePath(p, paths),
    languages: site.languages,
  };
  return fr;
}

/**
 * A city in French: its own name and description from places.json, its province's and areas'
 * names; a covered city or described area without its French goes to `issues`.
 */
function cityTranslator(
  places: Places,
  placesFile: string,
  issues: DataIssue[],
): (city: City) => City {
  const province = (name: string | null) => (name ? (places.provinces[name] ?? name) : name);
  const area = (a: Area, described: Record<string, string> | undefined, city: City): Area => {
    // The national entry's areas are the provinces and territories.
    const name = (city.national ? places.provinces[a.name] : places.areaNames?.[a.name]) ?? a.name;
    if (!a.description) return { ...a, name };
    const description = described?.[a.name];
    // A city with no French at all is reported once, by its description.
    if (!description && described && coveredInFrench(city))
      issues.push({
        file: placesFile,
        record: city.slug,
        field: `areas.${a.name}`,
        message: 'a described area needs its French description',
      });
    return { ...a, name, description: description ?? a.description };
  };
  const translate = (city: City): City => {
    const own = places.cities[city.slug];
    if (!own && coveredInFrench(city) && !city.national)
      issues.push({
        file: placesFile,
        record: city.slug,
        field: 'description',
        message: 'a city with French pages needs its French description',
      });
    return {
      ...city,
      name: own?.name ?? city.name,
      province: province(city.province),
      description: city.national
        ? places.national.description
        : (own?.description ?? city.description),
      areas: city.areas.map((a) => area(a, own?.areas, city)),
    };
  };
  return translate;
}

/** Where French pages are, and which exist: a covered city's, and under canada/ French provinces'. */
function frenchPaths(
  site: Site,
  catalogue: Catalogue,
  bySlug: ReturnType<typeof bySlugOf>,
): LanguagePaths {
  return {
    prefix: LANG_PREFIX.fr,
    segments: catalogue.segments,
    topPages: FRENCH_TOP_PAGES,
    has: (slug, segment) => {
      const city = bySlug.get(slug);
      if (!city || !coveredInFrench(city)) return false;
      // Under canada/, only the pages of provinces French covers.
      if (!city.national || segment === undefined) return true;
      const province = site.national.areas.find((a) => a.slug === segment);
      return !province || FRENCH_PROVINCE_AREAS.includes(province.slug);
    },
  };
}

/**
 * The settings as French pages use them: the owner's French hours, e-mail and promise where
 * given. An English promise is never shown on a French page.
 */
function frenchSettings(settings: SiteSettings): SiteSettings {
  const { fr, ...rest } = settings;
  const own = Object.fromEntries(Object.entries(fr ?? {}).filter(([, v]) => v !== undefined));
  return { ...rest, responsePromise: undefined, ...own };
}

/** The provinces and territories (the national entry's areas) without their French name. */
function unnamedProvinces(areas: readonly Area[], places: Places, file: string): DataIssue[] {
  return areas
    .filter((a) => !places.provinces[a.name])
    .map((a) => ({
      file,
      record: 'provinces',
      field: a.name,
      message: 'every province and territory needs its French name',
    }));
}

/** Site pages with a French version: all but the blog, whose posts are English only. */
const FRENCH_TOP_PAGES: ReadonlySet<string> = new Set([
  ...SITE_PAGES,
  'confirmation',
  'form-error',
  fileForPath(links.notFound),
]);

/** canada/{province} pages made in French: those of the provinces whose cities have them. */
const FRENCH_PROVINCE_AREAS = FRENCH_PROVINCES.map((code) => {
  const name = provinceByCode(code)?.name ?? '';
  return slugify(name);
});

function frenchFacts(facts: Facts, french: FrenchFacts, file: string, issues: DataIssue[]): Facts {
  const missing = (record: string, field: string, message: string) =>
    issues.push({ file, record, field, message });
  const provinces = new Map(facts.provinces);
  for (const code of FRENCH_PROVINCES) {
    const en = facts.provinces.get(code);
    const fr = french.provinces[code];
    if (!en) continue;
    if (!fr) {
      missing(code, 'regulator', "a province with French pages needs its facts' French");
      continue;
    }
    if (fr.facts.length !== en.facts.length)
      missing(code, 'facts', `must give the ${en.facts.length} facts of provinces.json, in order`);
    if (fr.complaints.length !== en.complaints.length)
      missing(
        code,
        'complaints',
        `must give the ${en.complaints.length} complaint services of provinces.json, in order`,
      );
    if (en.regulator.lookup && !fr.lookup)
      missing(code, 'lookup', "must give the look-up's French");
    provinces.set(code, {
      ...en,
      regulator: {
        ...en.regulator,
        name: fr.regulator.name,
        text: fr.regulator.text,
        ...(en.regulator.lookup && fr.lookup
          ? { lookup: { ...en.regulator.lookup, text: fr.lookup.text } }
          : {}),
      },
      facts: en.facts.map((f, i) => ({ ...f, text: fr.facts[i]?.text ?? f.text })),
      complaints: en.complaints.map((c, i) => ({ ...c, ...pick(fr.complaints[i]) })),
    });
  }
  if (french.national.complaints.length !== facts.nationalComplaints.length)
    missing(
      'national',
      'complaints',
      `must give the ${facts.nationalComplaints.length} national complaint services, in order`,
    );
  const catastrophes = facts.catastrophes.map((c) => {
    const fr = french.catastrophes[c.name];
    if (!fr) missing(c.name, 'catastrophes', 'needs its French name and insured damage');
    if (!french.estimates[c.estimate]) missing(c.estimate, 'estimates', 'needs its French');
    return fr
      ? {
          ...c,
          name: fr.name,
          insuredDamage: fr.insuredDamage,
          estimate: french.estimates[c.estimate] ?? c.estimate,
        }
      : c;
  });
  return {
    ...facts,
    provinces,
    nationalComplaints: facts.nationalComplaints.map((c, i) => ({
      ...c,
      ...pick(french.national.complaints[i]),
    })),
    catastrophes,
  };
}

const pick = (named: { name: string; text: string } | undefined) =>
  named ? { name: named.name, text: named.text } : {};
