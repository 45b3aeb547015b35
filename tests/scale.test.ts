import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaledData } from '../scripts/scaled-data.js';
import { fingerprinted } from '../src/generate/fingerprints.js';
import { generate } from '../src/generate/generate.js';
import { loadInputs } from '../src/generate/inputs.js';
import { PreviousManifest } from '../src/generate/manifest.js';
import { planBuild } from '../src/generate/plan.js';
import { measured } from '../src/site/nearby.js';
import { BUNDLED_DATA, tempDir } from './helpers.js';

/** The bundled data with every city copied `times` times, each copy moved a little. */
async function scaled(times: number): Promise<string> {
  const data = path.join(await tempDir(), 'data');
  await scaledData(BUNDLED_DATA, data, times, { move: true });
  return data;
}

describe('at scale', () => {
  it('plans a build (nearby cities, fingerprints) in work that grows linearly with the cities', async () => {
    const work = async (times: number) => {
      const inputs = await loadInputs({ dataDir: await scaled(times), codeVersion: 'scale' });
      const distances = measured.distances;
      const values = fingerprinted.values;
      const plan = planBuild(inputs, null);
      return {
        cities: inputs.site.cities.length,
        distancesPerCity: (measured.distances - distances) / inputs.site.cities.length,
        valuesPerPage: (fingerprinted.values - values) / plan.files.count,
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

  it('measures no distance in an incremental plan while no city moved, in English or French', async () => {
    const out = path.join(await tempDir(), 'dist');
    await generate({ dataDir: BUNDLED_DATA, outDir: out, codeVersion: 'scale' });
    const inputs = await loadInputs({ dataDir: BUNDLED_DATA, codeVersion: 'scale' });
    expect(inputs.site.languages.size).toBe(2);
    const distances = measured.distances;
    const plan = planBuild(inputs, PreviousManifest.read(out));
    expect(plan.nearby.restored).toBe(true);
    expect(measured.distances - distances).toBe(0);
  }, 60_000);
});
