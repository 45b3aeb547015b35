import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEARBY } from '../src/routes.js';
import { loadSite } from '../src/site/load.js';
import { nearbyCities } from '../src/site/model.js';
import { distanceKm, measured, NearbyIndex } from '../src/site/nearby.js';
import { BUNDLED_DATA } from './helpers.js';

interface Town {
  name: string;
  population: number;
  coordinates: { lat: number; lng: number };
}

/** The n nearest by measuring every one: what the index must agree with. */
function bruteForce(towns: readonly Town[], self: number, n: number): Town[] {
  const me = towns[self] as Town;
  return towns
    .map((t, i) => ({ t, i, d: distanceKm(me.coordinates, t.coordinates) }))
    .filter((x) => x.i !== self)
    .sort((a, b) => a.d - b.d || b.t.population - a.t.population || a.i - b.i)
    .slice(0, n)
    .map((x) => x.t);
}

/** Towns spread over Canada's latitudes and longitudes, from a seed (a small LCG). */
function townsOf(count: number, seed: number): Town[] {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return Array.from({ length: count }, (_, i) => ({
    name: `t${i}`,
    population: 1000 + Math.floor(next() * 100_000),
    coordinates: { lat: 42 + next() * 28, lng: -141 + next() * 88 },
  }));
}

describe('nearby cities', () => {
  it('are the same as measuring every city, for every bundled city', async () => {
    const site = await loadSite(BUNDLED_DATA);
    for (const [i, city] of site.cities.entries())
      expect(
        nearbyCities(site, city, NEARBY).map((c) => c.slug),
        city.slug,
      ).toEqual(bruteForce(site.cities, i, NEARBY).map((c) => (c as { slug?: string }).slug));
  });

  it('are the same as measuring every one, for any places, ties and copies included', () => {
    const place = fc.record({
      population: fc.integer({ min: 1, max: 5 }),
      coordinates: fc.record({
        lat: fc.oneof(fc.double({ min: 41, max: 84, noNaN: true }), fc.constant(45)),
        lng: fc.oneof(fc.double({ min: -141, max: -52, noNaN: true }), fc.constant(-75)),
      }),
    });
    fc.assert(
      fc.property(fc.array(place, { minLength: 1, maxLength: 60 }), fc.nat(8), (raw, n) => {
        const towns = raw.map((t, i) => ({ ...t, name: `t${i}` }));
        const index = new NearbyIndex(towns, (t) => t.population);
        for (let i = 0; i < towns.length; i++)
          expect(index.nearest(i, n).map((t) => t.name)).toEqual(
            bruteForce(towns, i, n).map((t) => t.name),
          );
      }),
      { numRuns: 200 },
    );
  });

  it('measure a number of distances that grows linearly with the number of cities', () => {
    const per = (count: number) => {
      const towns = townsOf(count, count);
      const index = new NearbyIndex(towns, (t) => t.population);
      const before = measured.distances;
      for (let i = 0; i < towns.length; i++) index.nearest(i, NEARBY);
      return (measured.distances - before) / count;
    };
    const small = per(1000);
    const large = per(8000);
    // Measuring every city against every other would be 999 and 7,999 per city.
    expect(small).toBeLessThan(150);
    // Eight times the cities, about the same work per city (quadratic would be eight times).
    expect(large / small).toBeLessThan(1.5);
  });
});
