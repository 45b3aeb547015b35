import { fill, type Strings } from '../i18n/catalogue.js';
import { capitalized, FRENCH_PROVINCE_FORMS } from '../i18n/french-provinces.js';
import type { Lang } from '../i18n/lang.js';
import { PROVINCES } from './provinces.js';

/**
 * What the site's pages call the place the firm works: the country, or its service area. The
 * catalogue's `{region}` and `{inRegion}` are these, in each language, and the national pages
 * are named so ("Licensed Public Adjusters Across Alberta", "partout au Québec").
 */
export interface RegionWords {
  /** As a heading or a label names it: Canada; Alberta; Calgary and Edmonton; Le Québec. */
  name: string;
  /** With "in" as a sentence puts it: in Canada, in Alberta; au Canada, au Québec et à Laval. */
  in: string;
}

/** A part of a service area: a province or territory named whole (its code), or a city. */
export type RegionUnit = { province: string } | { city: string };

/**
 * The words for the whole country (`units` null) or for a service area's units, in `lang`:
 * joined as the catalogue joins a list ("Alberta and Saskatchewan", "le Québec et Moncton").
 */
export function regionWords(
  units: readonly RegionUnit[] | null,
  lang: Lang,
  t: Strings,
): RegionWords {
  if (units === null) {
    const country = t.routes.country;
    return { name: country, in: inWords(lang, country) };
  }
  const names = units.map((u) => unitName(u, lang));
  const places = units.map((u) =>
    'city' in u ? inWords(lang, u.city) : provinceIn(u.province, lang),
  );
  const join = (parts: string[]) => listOf(parts, t);
  return { name: capitalized(join(names)), in: join(places) };
}

function unitName(unit: RegionUnit, lang: Lang): string {
  if ('city' in unit) return unit.city;
  if (lang === 'fr') return FRENCH_PROVINCE_FORMS[unit.province]?.article ?? unit.province;
  return PROVINCES.find((p) => p.code === unit.province)?.name ?? unit.province;
}

function provinceIn(code: string, lang: Lang): string {
  if (lang === 'fr') return FRENCH_PROVINCE_FORMS[code]?.in ?? `à ${code}`;
  return inWords(lang, PROVINCES.find((p) => p.code === code)?.name ?? code);
}

/** A place after "in": "in Canada"; in French, contracted as the catalogue's sentences are ("au Canada"). */
const inWords = (lang: Lang, place: string) =>
  lang === 'fr' ? fill('à {place}', { place }) : `in ${place}`;

/** "A", "A and B", "A, B and C", with the language's separators. */
function listOf(parts: readonly string[], t: Strings): string {
  const { listSeparator, listLastSeparator } = t.localFacts;
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(listSeparator)}${listLastSeparator}${parts.at(-1)}`;
}
