import { existsSync } from 'node:fs';
import path from 'node:path';
import english from '../../data/i18n/en.json' with { type: 'json' };
import french from '../../data/i18n/fr.json' with { type: 'json' };
import { type Catalogue, checkCatalogue } from '../i18n/catalogue.js';
import { LANG_PREFIX, type Lang } from '../i18n/lang.js';
import { LEAD_PAGES } from '../urls.js';
import type { DataIssue } from './errors.js';
import { readJson } from './read.js';
import { slugify } from './slug.js';

/** The catalogue every other is checked against, and a data set without one of its own uses. */
export const ENGLISH: Catalogue = english;

/** claimsite's own texts in each language: what a key the data's catalogue lacks reads. */
const BUNDLED: Record<Lang, Catalogue> = { en: ENGLISH, fr: french };

/**
 * data/i18n/<lang>.json, checked against the English one: every key, the same placeholders, and
 * route segments that are slugs no two of which are alike. English falls back to the bundled
 * catalogue (a data set made before catalogues); another language without its file has no pages.
 * A key the file lacks reads claimsite's own text in that language: a site made by an earlier
 * version (`claimsite init` copies the catalogues) keeps building when a version adds a text.
 */
export function loadCatalogue(
  dataDir: string,
  lang: Lang,
  rel: (f: string) => string,
  issues: DataIssue[],
): Catalogue | null | undefined {
  const file = path.join(dataDir, 'i18n', `${lang}.json`);
  if (!existsSync(file)) return lang === 'en' ? ENGLISH : null;
  const raw = readJson(file, rel, issues);
  if (raw === undefined) return undefined;
  const filled = withBundledTexts(raw, BUNDLED[lang]);
  const found = checkCatalogue(filled, ENGLISH, rel(file));
  if (found.length === 0) found.push(...checkSegments(filled as Catalogue, lang, rel(file)));
  issues.push(...found);
  return found.length === 0 ? (filled as Catalogue) : undefined;
}

/** `raw` with every key it lacks (absent, not wrong) taken from `bundled`. */
function withBundledTexts(raw: unknown, bundled: unknown): unknown {
  if (!isRecord(raw) || !isRecord(bundled)) return raw;
  const out: Record<string, unknown> = { ...raw };
  for (const [key, value] of Object.entries(bundled))
    out[key] = key in raw ? withBundledTexts(raw[key], value) : value;
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function checkSegments(catalogue: Catalogue, lang: Lang, file: string): DataIssue[] {
  const issues: DataIssue[] = [];
  // The lead endpoint answers a form posted without JavaScript with these pages (src/urls.ts).
  for (const [english, page] of [
    ['confirmation', LEAD_PAGES[lang].confirmation],
    ['form-error', LEAD_PAGES[lang].error],
  ] as const) {
    const segment = catalogue.segments[english];
    if (`/${LANG_PREFIX[lang] ? `${LANG_PREFIX[lang]}/` : ''}${segment}/` !== page)
      issues.push({
        file,
        record: `segments.${english}`,
        field: null,
        message: `must be "${page.split('/').at(-2)}": the lead endpoint sends visitors to ${page}`,
      });
  }
  const seen = new Map<string, string>();
  for (const [english, segment] of Object.entries(catalogue.segments)) {
    const record = `segments.${english}`;
    if (slugify(segment) !== segment)
      issues.push({ file, record, field: null, message: `"${segment}" must be a slug` });
    const twin = seen.get(segment);
    if (twin) issues.push({ file, record, field: null, message: `"${segment}" is also ${twin}'s` });
    seen.set(segment, english);
  }
  return issues;
}

/** The placeholders that name where the firm works (src/site/region.ts). */
const REGION = /\{(region|inRegion)\}/;

/**
 * With a service area, a text of the site's catalogue that names Canada where claimsite's own
 * names the region (`{region}`, `{inRegion}`): a copy made before service areas, or edited,
 * which would tell the area's visitors the firm works across Canada. Each is a data error naming
 * the key.
 */
export function nationwideTexts(catalogue: Catalogue, lang: Lang, file: string): DataIssue[] {
  const issues: DataIssue[] = [];
  const walk = (value: unknown, bundled: unknown, at: string) => {
    if (typeof bundled === 'string') {
      if (
        typeof value === 'string' &&
        REGION.test(bundled) &&
        !REGION.test(value) &&
        /Canada/.test(value)
      )
        issues.push({
          file,
          record: at,
          field: null,
          message: `says "Canada", but serviceArea in site.json says where the firm works: write {region} or {inRegion} for it, as claimsite's own text does ("${bundled}")`,
        });
      return;
    }
    if (!isRecord(bundled) || !isRecord(value)) return;
    for (const key of Object.keys(bundled))
      walk(value[key], bundled[key], at ? `${at}.${key}` : key);
  };
  walk(catalogue, BUNDLED[lang], '');
  return issues;
}
