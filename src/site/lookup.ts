import { slugify } from './slug.js';

export interface LookupCity {
  slug: string;
  population: number;
  /** It has French pages. */
  fr?: boolean;
}

/**
 * The city lookup: normalise, exact match first, then a partial match in either direction.
 * Several partial matches resolve to the most populous, then the shortest slug, so the answer
 * never depends on data order. Pure, so the browser's not-found script can bundle it too.
 */
export function lookupCity<C extends LookupCity>(
  input: string,
  cities: readonly C[],
): C | undefined {
  const wanted = slugify(input);
  if (!wanted) return undefined;
  const exact = cities.find((c) => c.slug === wanted);
  if (exact) return exact;
  let best: C | undefined;
  for (const c of cities) {
    if (!c.slug.includes(wanted) && !wanted.includes(c.slug)) continue;
    if (
      !best ||
      c.population > best.population ||
      (c.population === best.population && c.slug.length < best.slug.length)
    ) {
      best = c;
    }
  }
  return best;
}
