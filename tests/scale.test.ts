import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInputs } from '../src/generate/inputs.js';
import { fingerprinted } from '../src/generate/manifest.js';
import { planBuild } from '../src/generate/plan.js';
import { measured } from '../src/site/nearby.js';
import { slugify } from '../src/site/slug.js';
import { BUNDLED_DATA, tempDir } from './helpers.js';

/**
 * The bundled data with every city copied `times` times under a new name and slug, each copy
 * moved a little so that no two cities share a place (as a national network of real towns).
 */
async function scaled(times: number): Promise<string> {
  const data = path.join(await tempDir(), 'data');
  await cp(BUNDLED_DATA, data, { recursive: true });
  const dir = path.join(data, 'cities');
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json'))) {
    const file = path.join(dir, name);
    const cities = JSON.parse(await readFile(file, 'utf8')) as Array<Record<string, unknown>>;
    const copies = cities.flatMap((c, j) =>
      Array.from({ length: times - 1 }, (_, k) => {
        const copyName = `${c.name} ${k + 2}`;
        const slug = slugify(copyName);
        const at = c.coordinates as { lat: number; lng: number };
        return {
          ...c,
          id: `${String(c.provinceCode).toLowerCase()}-${slug}`,
          name: copyName,
          slug,
          description: `${c.description} (Copy ${k + 2}.)`,
          coordinates: { lat: at.lat + 0.01 * (k + 1), lng: at.lng + 0.013 * (j % 7) },
        };
      }),
    );
    await writeFile(file, JSON.stringify([...cities, ...copies]));
    await frenchCopies(data, cities, times);
  }
  return data;
}

/** A copy of a city with French pages has them too: its French text is copied (fr/places.json). */
async function frenchCopies(data: string, cities: Array<Record<string, unknown>>, times: number) {
  const file = path.join(data, 'fr', 'places.json');
  const places = JSON.parse(await readFile(file, 'utf8')) as {
    cities: Record<string, { name?: string; description: string }>;
  };
  for (const c of cities)
    for (let k = 0; k < times - 1; k++) {
      const own = places.cities[String(c.slug)];
      if (!own) continue;
      places.cities[slugify(`${c.name} ${k + 2}`)] = {
        ...own,
        ...(own.name ? { name: `${own.name} ${k + 2}` } : {}),
        description: `${own.description} (Copie ${k + 2}.)`,
      };
    }
  await writeFile(file, JSON.stringify(places));
}

describe('at scale', () => {
  it('plans a build (nearby cities, fingerprints) in work that grows linearly with the cities', async () => {
    const work = async (times: number) => {
      const inputs = await loadInputs({ dataDir: await scaled(times), codeVersion: 'scale' });
      const distances = measured.distances;
      const values = fingerprinted.values;
      planBuild(inputs, null);
      return {
        cities: inputs.site.cities.length,
        distancesPerCity: (measured.distances - distances) / inputs.site.cities.length,
        valuesPerPage: (fingerprinted.values - values) / inputs.pages.length,
      };
    };
    const small = await work(6);
    const large = await work(24);
    expect(large.cities).toBe(small.cities * 4);
    // Four times the cities: about the same work per city and per page, not four times.
    expect(large.distancesPerCity / small.distancesPerCity).toBeLessThan(1.5);
    expect(large.valuesPerPage / small.valuesPerPage).toBeLessThan(1.5);
    expect(small.distancesPerCity).toBeLessThan(200);
  }, 120_000);
});
