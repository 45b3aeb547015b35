// Data sets larger than the bundled one, for the benchmark and the scale tests: every city copied
// `times` times as "<Name> 2" .. "<Name> N", each copy with its own slug, id and description,
// and the French text of a city with French pages copied with it. Run alone, it writes one:
//   node scripts/run-ts.mjs scripts/scaled-data.ts OUT TIMES [--move]
import { existsSync } from 'node:fs';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CityRecord } from '../src/site/schema.js';
import { slugify } from '../src/site/slug.js';

export interface ScaleOptions {
  /**
   * Moves each copy a little, so that no two cities share a place (as a national network of
   * real towns would); otherwise a copy stands where its original does (the benchmark's sets).
   */
  move?: boolean;
}

/** Copies `source` to `dest` with every city copied `times` times in all (1: as it is). */
export async function scaledData(
  source: string,
  dest: string,
  times: number,
  options: ScaleOptions = {},
): Promise<void> {
  await cp(source, dest, { recursive: true });
  const dir = path.join(dest, 'cities');
  const originals: CityRecord[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()) {
    const file = path.join(dir, name);
    const cities = JSON.parse(await readFile(file, 'utf8')) as CityRecord[];
    originals.push(...cities);
    const copies: CityRecord[] = [];
    for (let k = 2; k <= times; k++)
      for (const [j, c] of cities.entries()) copies.push(copyOf(c, k, options.move ? j : null));
    await writeFile(file, `${JSON.stringify([...cities, ...copies], null, 2)}\n`);
  }
  await frenchCopies(dest, originals, times);
}

/** The k-th copy of a city (k from 2); `j`, its place in its file, spreads moved copies apart. */
export function copyOf(c: CityRecord, k: number, j: number | null = null): CityRecord {
  const name = `${c.name} ${k}`;
  const slug = slugify(name);
  return {
    ...c,
    id: `${c.provinceCode.toLowerCase()}-${slug}`,
    name,
    slug,
    description: `${c.description} (Copy ${k}.)`,
    ...(j === null
      ? {}
      : {
          coordinates: {
            lat: c.coordinates.lat + 0.01 * (k - 1),
            lng: c.coordinates.lng + 0.013 * (j % 7),
          },
        }),
  };
}

/** A copy of a city with French pages has them too: its French text is copied (fr/places.json). */
async function frenchCopies(dir: string, cities: CityRecord[], times: number): Promise<void> {
  const file = path.join(dir, 'fr', 'places.json');
  if (!existsSync(file)) return;
  const places = JSON.parse(await readFile(file, 'utf8')) as {
    cities: Record<string, { name?: string; description: string }>;
  };
  for (let k = 2; k <= times; k++)
    for (const c of cities) {
      const own = places.cities[c.slug];
      if (!own) continue;
      places.cities[copyOf(c, k).slug] = {
        ...own,
        ...(own.name ? { name: `${own.name} ${k}` } : {}),
        description: `${own.description} (Copie ${k}.)`,
      };
    }
  await writeFile(file, `${JSON.stringify(places, null, 2)}\n`);
}

// Run alone (run-ts bundles it as scaled-data.mjs); imported by the benchmark, it does nothing here.
if (path.basename(process.argv[1] ?? '') === 'scaled-data.mjs') {
  const [out, times, flag] = process.argv.slice(2);
  const n = Number(times);
  if (!out || !Number.isInteger(n) || n < 1) {
    console.error('usage: node scripts/run-ts.mjs scripts/scaled-data.ts OUT TIMES [--move]');
    process.exit(2);
  }
  await scaledData(path.resolve('data'), out, n, { move: flag === '--move' });
}
