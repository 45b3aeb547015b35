import { slugify } from './slug.js';

export interface LookupCity {
  slug: string;
  population: number;
  /** It has French pages. */
  fr?: boolean;
  /** Its areas' slugs: neighbourhoods (the national entry's are the provinces). */
  areaSlugs?: readonly string[];
}

/**
 * A place typed in: a city by the city lookup's first rule (its exact name), else a
 * neighbourhood by its exact name (the most populous city's, where two cities have one of that
 * name), else a city by the lookup's forgiving rules. Neighbourhoods are not guessed at: many
 * are short common words.
 */
export function lookupPlace<C extends LookupCity>(
  input: string,
  cities: readonly C[],
): { city: C; area?: string } | undefined {
  const wanted = slugify(input);
  if (!wanted) return undefined;
  const exact = cities.find((c) => c.slug === wanted);
  if (exact) return { city: exact };
  const owner = best(cities, (c) => (c.areaSlugs?.includes(wanted) ? 0 : undefined));
  if (owner) return { city: owner, area: wanted };
  const city = lookupCity(input, cities);
  return city && { city };
}

/**
 * The city lookup: normalise, exact match first, then a partial match in either direction, then
 * a name mistyped by at most two letters (one for a name of four letters or fewer, which two
 * would confuse with too many). Several matches resolve to the closest, then the most populous,
 * then the shortest slug, so the answer never depends on data order. Pure, so the browser
 * script bundles it too.
 */
export function lookupCity<C extends LookupCity>(
  input: string,
  cities: readonly C[],
): C | undefined {
  const wanted = slugify(input);
  if (!wanted) return undefined;
  const exact = cities.find((c) => c.slug === wanted);
  if (exact) return exact;
  const partial = best(cities, (c) =>
    c.slug.includes(wanted) || wanted.includes(c.slug) ? 0 : undefined,
  );
  return partial ?? best(cities, (c) => withinTypos(wanted, c.slug));
}

/** The candidate with the lowest score (undefined: not a candidate); ties as lookupCity says. */
function best<C extends LookupCity>(
  cities: readonly C[],
  score: (c: C) => number | undefined,
): C | undefined {
  let found: C | undefined;
  let least = Number.POSITIVE_INFINITY;
  for (const c of cities) {
    const s = score(c);
    if (s === undefined || s > least) continue;
    if (
      !found ||
      s < least ||
      c.population > found.population ||
      (c.population === found.population && c.slug.length < found.slug.length)
    ) {
      found = c;
      least = s;
    }
  }
  return found;
}

/** The typing distance between a typed name and a known one, when it is small enough to be a typo. */
export function withinTypos(typed: string, known: string): number | undefined {
  const max = Math.min(typed.length, known.length) <= 4 ? 1 : 2;
  const d = typoDistance(typed, known, max);
  return d <= max ? d : undefined;
}

/**
 * Letters added, dropped, changed or swapped with their neighbour (the optimal string alignment
 * form of Damerau-Levenshtein): "torono" is 1 from "toronto", "tornoto" 1. Gives up past `max`.
 */
function typoDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // Rows two back, one back and current of the distance table.
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(at(prev, j) + 1, at(row, j - 1) + 1, at(prev, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, at(before, j - 2) + 1);
      row[j] = d;
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    before = prev;
    prev = row;
  }
  return at(prev, b.length);
}

const at = (row: number[], k: number) => row[k] ?? 0;
