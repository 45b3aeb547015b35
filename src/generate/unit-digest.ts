import { hash } from '../hash.js';
import type { PageUnits } from '../pages.js';
import { NEARBY } from '../routes.js';
import { nearbyCities } from '../site/model.js';
import type { Fingerprints } from './fingerprints.js';

/**
 * A city's pages, summed up without making them: its record, its local facts (local-facts.json)
 * and its nearby cities' records, in every language that has pages for it. Every route reads of
 * a city's page no more than its city, its local facts (shown on its page and its areas', and
 * deciding whether search engines index them) and its nearby cities (routes.ts, checked by
 * tests/dependencies.test.ts), and what every page shares is the build key: a unit whose digest
 * and key are the last build's has the last build's pages, files and fingerprints, and is not
 * enumerated again.
 *
 * Null for the units whose pages read more: unit 0 (the site's own pages, which list cities)
 * and the national entry (whose province pages list every city). O(the nearby cities): each
 * city is hashed once, by Fingerprints.
 */
export function unitDigest(units: PageUnits, u: number, prints: Fingerprints): string | null {
  const cities = units.cities(u);
  if (cities.length === 0 || cities.some(({ city }) => city.national)) return null;
  return hash(
    cities.map(({ site, city }) => [
      site.lang,
      prints.of(city),
      prints.of(site.facts.local.get(city.slug) ?? null),
      prints.of(nearbyCities(site, city, NEARBY)),
    ]),
  );
}
