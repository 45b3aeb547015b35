import { type LookupCity, lookupCity, withinTypos } from '../site/lookup.js';
import { CLAIM_TYPES, NATIONAL, TOP_SEGMENTS } from '../site/segments.js';
import { links, pagePath } from '../urls.js';
import { loadCityIndex } from './city-search.js';

/** Pages that fall back to the national default when the city is unknown. */
const FALLBACK = new Set([
  'about',
  'services',
  'free-consultation',
  ...CLAIM_TYPES.map((c) => c.segment),
]);

type Outcome =
  | { redirect: string }
  | { screen: 'city'; typed: string }
  | { screen: 'service' }
  | { screen: 'plain' }
  | { screen: 'page' };

/**
 * What the 404 page does for a path, given the city index: send the visitor to the matching
 * city's page, or choose one of the spec's not-found screens. Pure, so it is tested directly.
 */
export function resolveNotFound(pathname: string, cities: readonly LookupCity[]): Outcome {
  const segments = pathname.split('/').filter(Boolean).map(safeDecode);
  const [first = '', ...rest] = segments;
  const sub = rest[0] ?? '';
  // A site page's address (/blog/no-such-post) is no city's, whatever it looks like.
  if (TOP_SEGMENTS.includes(first.toLowerCase())) return { screen: 'page' };
  const found = lookupCity(first, cities);
  // A claim type mistyped or shortened (/toronto/fire-damage) is the claim type's page; the
  // national one for a city not found, as for the claim types' own pages.
  const claim = rest.length === 1 ? claimSegmentFor(sub) : undefined;
  if (claim && claim !== sub) return { redirect: links.cityPage(found ?? NATIONAL, claim) };
  if (
    /-claims$/.test(sub) &&
    !FALLBACK.has(sub) &&
    rest.length === 1 &&
    cities.some((c) => c.slug === first)
  ) {
    return { screen: 'service' };
  }
  if (found && found.slug !== first) return { redirect: pagePath(found.slug, ...rest) };
  if (found)
    return rest.length > 0 ? { redirect: links.city(found) } : { screen: 'city', typed: first };
  if (sub === 'top-adjusters' || sub === 'claims-offices') return { screen: 'plain' };
  if (FALLBACK.has(sub) && rest.length === 1) return { redirect: links.cityPage(NATIONAL, sub) };
  if (/-claims$/.test(sub)) return { screen: 'service' };
  // The spec's City Not Found is for a city's own page (/atlantis, /atlantis/public-adjusters);
  // any other address is a page that is not there.
  if (rest.length === 0 || (rest.length === 1 && sub === 'public-adjusters'))
    return { screen: 'city', typed: first };
  return { screen: 'page' };
}

/** The damage a visitor names (the questionnaire's words) and the claim page that covers it. */
const DAMAGE_WORDS: Record<string, string> = { water: 'flood', wind: 'storm', theft: 'other' };

/**
 * The claim-type segment a typed one stands for: the spec's rule (the type is what is left once
 * -damage-claims or -claims is removed), also for a segment cut short (fire-damage, flood), a
 * claim in the singular, a damage the claim page covers (water-damage: the flood page) or a
 * type mistyped by a letter or two (flod, residental).
 */
function claimSegmentFor(typed: string): string | undefined {
  const core = typed.toLowerCase().replace(/(-damage)?(-claims?)?$/, '');
  if (!core) return undefined;
  const type = DAMAGE_WORDS[core] ?? core;
  const claim =
    CLAIM_TYPES.find((c) => c.type === type) ??
    CLAIM_TYPES.find((c) => withinTypos(core, c.type) !== undefined);
  return claim?.segment;
}

/**
 * The same on the French site (paths under /fr/): the path is read without its prefix, and a
 * visitor sent to a city's page goes to its French page where it has one; the rest of the
 * French route names are not in the script, so a mistyped French page lands on its city.
 */
function inFrench(pathname: string, cities: readonly LookupCity[]): Outcome {
  const french = pathname.startsWith('/fr/');
  const outcome = resolveNotFound(french ? pathname.slice(3) : pathname, cities);
  if (!french || !('redirect' in outcome)) return outcome;
  const slug = outcome.redirect.split('/')[1] ?? '';
  const city = cities.find((c) => c.slug === slug);
  return city?.fr || slug === NATIONAL ? { redirect: `/fr/${slug}/` } : outcome;
}

/**
 * The same for a site served from a folder (`basePath`, /myrepo): the path is read without the
 * folder, and a visitor is sent to a page under it. A path outside the folder is not the site's.
 */
export function underFolder(
  pathname: string,
  basePath: string,
  cities: readonly LookupCity[],
): Outcome {
  if (!basePath) return inFrench(pathname, cities);
  const inside = pathname === basePath || pathname.startsWith(`${basePath}/`);
  const outcome = inFrench(inside ? pathname.slice(basePath.length) || '/' : pathname, cities);
  return 'redirect' in outcome ? { redirect: `${basePath}${outcome.redirect}` } : outcome;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export async function initNotFound(doc: Document): Promise<void> {
  // The not-found page's own screen: every page's menu has a finder with the index too.
  const holder = doc.querySelector<HTMLElement>('[data-not-found][data-city-index]');
  const url = holder?.dataset.cityIndex;
  if (!url) return;
  // Without the index the City Not Found screen, already shown, is the right answer.
  const cities = await loadCityIndex(url);
  const outcome = underFolder(location.pathname, holder?.dataset.basePath ?? '', cities);
  if ('redirect' in outcome) {
    location.replace(outcome.redirect + location.search + location.hash);
    return;
  }
  for (const el of doc.querySelectorAll<HTMLElement>('[data-not-found]'))
    el.hidden = el.dataset.notFound !== outcome.screen;
  const typed = doc.querySelector('[data-typed-slug]');
  if (outcome.screen === 'city' && typed && outcome.typed) typed.textContent = `"${outcome.typed}"`;
}
