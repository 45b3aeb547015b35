import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DataIssue } from './errors.js';
import type { Area, City } from './model.js';
import { PROVINCES, provinceByCode, provinceByName } from './provinces.js';
import { filesIn, isObject, parseRecord, readJsonRecords } from './read.js';
import {
  type AreaRecord,
  type CityRecord,
  cityRecordOf,
  citySchema,
  type NationalRecord,
} from './schema.js';
import { CITY_SEGMENTS, NATIONAL, TOP_SEGMENTS } from './segments.js';
import { slugify } from './slug.js';

/** City records checked by zod since the process started: tests check which are skipped. */
export const checkedRecords = { count: 0 };

interface LoadedCities {
  /** The cities with no problem of their own, in file order. */
  cities: City[];
  /** Where each city's record is, as shown to the operator. */
  fileOf: Map<City, string>;
  /** The digest of each city's record (see Site.recordDigests). */
  recordDigests: WeakMap<City, string>;
  /**
   * The slug of every city record, valid or not, so that a city with a mistake of its own is
   * reported once, not again through each catastrophe that names it. Null when a city file could
   * not be read as records: the cities it holds are unknown, and naming one is no mistake.
   */
  slugsNamed: Set<string> | null;
}

/**
 * Reads and checks every city file, `cities/<code>.json`. A record is checked by zod unless its
 * digest is in `valid` (found valid by this code before: see LoadOptions.valid), then against its
 * file; the checks across files are checkUnique's.
 */
export function loadCities(
  dataDir: string,
  rel: (f: string) => string,
  valid: ReadonlySet<string> | undefined,
  issues: DataIssue[],
): LoadedCities {
  const loaded: LoadedCities = {
    cities: [],
    fileOf: new Map(),
    recordDigests: new WeakMap(),
    slugsNamed: new Set(),
  };
  const cityFiles = filesIn(path.join(dataDir, 'cities'), '.json');
  if (cityFiles.length === 0) {
    issues.push({
      file: rel(path.join(dataDir, 'cities')),
      record: null,
      field: null,
      message: 'no city files (cities/*.json) found',
    });
  }
  for (const file of cityFiles) {
    const shown = rel(file);
    const read = readJsonRecords(file, rel, issues);
    if (read === undefined || !Array.isArray(read.value)) {
      if (read !== undefined)
        issues.push({
          file: shown,
          record: null,
          field: null,
          message: 'must be a JSON array of cities',
        });
      loaded.slugsNamed = null;
      continue;
    }
    const { value: raw, digests } = read;
    const fileCode = provinceCodeOfFile(file);
    if (!fileCode) issues.push(misnamedFile(file, shown, raw));
    raw.forEach((item, index) => {
      // Without a slug, a record is named by its place in the file, counted from 1.
      const label =
        isObject(item) && typeof item.slug === 'string' && item.slug ? item.slug : `#${index + 1}`;
      if (isObject(item) && typeof item.slug === 'string') loaded.slugsNamed?.add(item.slug);
      const digest = digests?.[index];
      const known = digest !== undefined && valid?.has(digest) === true;
      if (!known) checkedRecords.count++;
      // Made by one function whether zod checked it now or before, so that it makes one city.
      const ok = known || parseRecord(citySchema, item, shown, label, issues) !== undefined;
      if (!ok) return;
      const rec = cityRecordOf(item as CityRecord);
      const fileIssues = checkCity(rec, fileCode, shown);
      issues.push(...fileIssues);
      if (fileIssues.length > 0) return;
      const city = toCity(rec);
      loaded.cities.push(city);
      loaded.fileOf.set(city, shown);
      if (digest !== undefined) loaded.recordDigests.set(city, digest);
    });
  }
  return loaded;
}

/** The province or territory a city file is for, by its name (`on.json`); null if none. */
function provinceCodeOfFile(file: string): string | null {
  return provinceByCode(path.basename(file, '.json').toUpperCase())?.code ?? null;
}

/** A city file not named for a province: the name it should have, from what its records say. */
function misnamedFile(file: string, shown: string, records: unknown[]): DataIssue {
  const codes = [
    ...new Set(
      records.flatMap((r) =>
        isObject(r) && typeof r.provinceCode === 'string' && provinceByCode(r.provinceCode)
          ? [r.provinceCode]
          : [],
      ),
    ),
  ].sort();
  const names = codes.map((c) => `${c.toLowerCase()}.json`);
  const rule = "city files are named by their province's or territory's code";
  const only = codes.length === 1 ? codes[0] : undefined;
  let message: string;
  if (only) {
    const name = `${only.toLowerCase()}.json`;
    const exists = existsSync(path.join(path.dirname(file), name));
    message = `must be named ${name}: ${rule}, and its cities are in ${provinceByCode(only)?.name}${exists ? ` (${name} exists: move its cities there)` : ''}`;
  } else if (codes.length > 1)
    message = `holds cities of several provinces (${codes.join(', ')}): ${rule}, so they go in ${names.join(', ')}`;
  else
    message = `is not named for a province or territory: ${rule} (${PROVINCES.map((p) => `${p.code.toLowerCase()}.json`).join(', ')})`;
  return { file: shown, record: null, field: null, message };
}

/** A city may not take a province's slug: worked out once, not for every city. */
const PROVINCE_SLUGS = new Set(PROVINCES.map((p) => slugify(p.name)));

/**
 * A city record against its own name and its file. Of `province`, `provinceCode` and the file's
 * name, the field that disagrees with the other two is the one blamed.
 */
function checkCity(rec: CityRecord, fileCode: string | null, file: string): DataIssue[] {
  const out: DataIssue[] = [];
  const at = (field: string, message: string) =>
    out.push({ file, record: rec.slug, field, message });

  const expectedSlug = slugify(rec.name);
  if (rec.slug !== expectedSlug) at('slug', `must be "${expectedSlug}", the slug of its name`);
  if (TOP_SEGMENTS.includes(rec.slug)) at('slug', `"${rec.slug}" is reserved for a site page`);
  if (PROVINCE_SLUGS.has(rec.slug) || rec.slug === NATIONAL) {
    at('slug', `"${rec.slug}" is the name of a province or of the country`);
  }

  // zod has checked both against the 13 (a record found valid before was checked then).
  const named = provinceByName(rec.province)?.code ?? rec.provinceCode;
  const filed = fileCode ? provinceByCode(fileCode) : undefined;
  let code = rec.provinceCode;
  if (!filed) {
    if (named !== rec.provinceCode)
      at('provinceCode', `is ${rec.provinceCode} but province is ${rec.province} (${named})`);
  } else if (named === filed.code && rec.provinceCode !== filed.code) {
    at(
      'provinceCode',
      `is ${rec.provinceCode} but the file holds ${filed.code} cities (${filed.name}): must be ${filed.code}`,
    );
    code = filed.code;
  } else if (rec.provinceCode === filed.code && named !== filed.code) {
    at(
      'province',
      `is "${rec.province}" but the file holds ${filed.code} cities (${filed.name}): must be "${filed.name}"`,
    );
  } else if (rec.provinceCode !== filed.code && named === rec.provinceCode) {
    at(
      'provinceCode',
      `is ${rec.provinceCode} (${rec.province}) but the file holds ${filed.code} cities (${filed.name}): move the city to ${rec.provinceCode.toLowerCase()}.json`,
    );
  } else if (rec.provinceCode !== filed.code) {
    at(
      'province',
      `is "${rec.province}" but the file holds ${filed.code} cities (${filed.name}): must be "${filed.name}"`,
    );
    at(
      'provinceCode',
      `is ${rec.provinceCode} but the file holds ${filed.code} cities (${filed.name}): must be ${filed.code}`,
    );
    code = filed.code;
  }
  // From the slug and the province it should have: a wrong slug or province code is reported
  // once, not again through the id.
  const expectedId = `${code.toLowerCase()}-${expectedSlug}`;
  if (rec.id !== expectedId) at('id', `must be "${expectedId}" (province code and slug)`);
  out.push(...checkAreas(rec.areas, file, rec.slug));
  return out;
}

export function checkAreas(areas: AreaRecord[], file: string, record: string): DataIssue[] {
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

/**
 * Ids, slugs and descriptions are unique across all files. The later record is reported, and
 * the message names the earlier one and its file, so both are found without searching.
 */
export function checkUnique(
  { cities, fileOf }: LoadedCities,
  national: { rec: NationalRecord; file: string } | undefined,
  issues: DataIssue[],
) {
  type Holder = { slug: string; name: string; file: string };
  const ids = new Map<string, Holder>();
  const slugs = new Map<string, Holder>();
  const descriptions = new Map<string, Holder>();
  if (national) {
    const holder = { slug: national.rec.slug, name: national.rec.name, file: national.file };
    ids.set(national.rec.id, holder);
    slugs.set(national.rec.slug, holder);
  }
  for (const c of cities) {
    const file = fileOf.get(c) ?? '';
    const holder = { slug: c.slug, name: c.name, file };
    const named = (h: Holder) =>
      `${h.name} (record ${h.slug}${h.file === file ? ' in this file' : ` in ${h.file}`})`;
    const at = (field: string, message: string) =>
      issues.push({ file, record: c.slug, field, message });
    const twin = descriptions.get(c.description);
    if (twin) at('description', `is the same as the description of ${named(twin)}`);
    else descriptions.set(c.description, holder);
    const idHolder = ids.get(c.id);
    if (idHolder) at('id', `"${c.id}" is also the id of ${named(idHolder)}`);
    else ids.set(c.id, holder);
    const slugHolder = slugs.get(c.slug);
    if (slugHolder) at('slug', `"${c.slug}" is also the slug of ${named(slugHolder)}`);
    else slugs.set(c.slug, holder);
  }
}

export const areaName = (area: AreaRecord) => (typeof area === 'string' ? area : area.name);

export function toAreas(areas: AreaRecord[]): Area[] {
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
