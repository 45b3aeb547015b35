/**
 * What content may say of the business without typing it in: these placeholders, filled from
 * site.json when the site is loaded, so a change of name, number or address is one edit there
 * and never a hunt through content files. `{region}` and `{inRegion}` are where the firm works:
 * "Canada" and "in Canada", or its service area's ("Alberta", "in Alberta"; src/site/region.ts).
 * `{officeHours}`, `{emergencyHours}` and `{responsePromise}` are the settings as each language
 * writes them; `{responsePromise}` is a sentence of its own, and where none is set it is left
 * out with the space before it: the site promises no time but the owner's.
 */
const SITE_PLACEHOLDERS = [
  'siteName',
  'phone',
  'email',
  'privacyEmail',
  'region',
  'inRegion',
  'privacyOfficer',
  'officeHours',
  'emergencyHours',
  'responsePromise',
] as const;
export type SitePlaceholder = (typeof SITE_PLACEHOLDERS)[number];

export type PlaceholderValues = Readonly<Record<SitePlaceholder, string>>;

// The space before a placeholder is taken with it, and put back unless its value is empty.
const PATTERN = new RegExp(`(\\s?)\\{(${SITE_PLACEHOLDERS.join('|')})\\}`, 'g');

const filled = (space: string, value: string) => (value === '' ? '' : space + value);

/** Whether a `{name}` is one of the site's (and so may stand in any text). */
export const isSitePlaceholder = (name: string): name is SitePlaceholder =>
  (SITE_PLACEHOLDERS as readonly string[]).includes(name);

/** `text` with the site's placeholders filled; other `{names}` are left for the templates. */
function fillSite(text: string, values: PlaceholderValues): string {
  return text.includes('{')
    ? text.replace(PATTERN, (_, space: string, name: SitePlaceholder) =>
        filled(space, values[name]),
      )
    : text;
}

/**
 * Every text in `value` (objects and lists walked through) with the site's placeholders filled:
 * a copy, the same shape.
 */
export function fillDeep<T>(value: T, values: PlaceholderValues): T {
  if (typeof value === 'string') return fillSite(value, values) as T;
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, values)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, values)])) as T;
  return value;
}

/** The placeholders no template fills: always filled when the site is loaded. */
const FILLED_AT_LOAD: ReadonlySet<SitePlaceholder> = new Set([
  'region',
  'inRegion',
  'officeHours',
  'emergencyHours',
  'responsePromise',
]);

/**
 * A catalogue's texts with the site's placeholders filled, but those the bundled English text
 * has too: the templates fill those themselves (a number may become a link there).
 */
export function fillCatalogueTexts<T>(value: T, reference: unknown, values: PlaceholderValues): T {
  if (typeof value === 'string') {
    const own = typeof reference === 'string' ? reference : '';
    return value.replace(PATTERN, (whole, space: string, name: SitePlaceholder) =>
      own.includes(`{${name}}`) && !FILLED_AT_LOAD.has(name) ? whole : filled(space, values[name]),
    ) as T;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const ref = (typeof reference === 'object' && reference !== null ? reference : {}) as Record<
      string,
      unknown
    >;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, fillCatalogueTexts(v, ref[k], values)]),
    ) as T;
  }
  return value;
}
