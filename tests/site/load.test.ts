import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { displayPath } from '../../src/site/display-path.js';
import { DataError, type DataIssue } from '../../src/site/errors.js';
import { loadSite } from '../../src/site/load.js';
import { FIXTURE_DATA, tempDir } from '../helpers.js';

type Rec = Record<string, unknown>;

/** Copies the fixture data, lets `edit` change Ontario's cities (and anything else), loads it. */
async function loadEdited(
  edit: (ctx: { on: Rec[]; bc: Rec[]; national: Rec; dir: string }) => void | Promise<void>,
): Promise<{ issues: DataIssue[]; dir: string }> {
  const dir = path.join(await tempDir(), 'data');
  await cp(FIXTURE_DATA, dir, { recursive: true });
  const read = async (f: string) => JSON.parse(await readFile(path.join(dir, f), 'utf8'));
  const on: Rec[] = await read('cities/on.json');
  const bc: Rec[] = await read('cities/bc.json');
  const national: Rec = await read('national.json');
  await edit({ on, bc, national, dir });
  await writeFile(path.join(dir, 'cities/on.json'), JSON.stringify(on));
  await writeFile(path.join(dir, 'cities/bc.json'), JSON.stringify(bc));
  await writeFile(path.join(dir, 'national.json'), JSON.stringify(national));
  try {
    await loadSite(dir);
  } catch (err) {
    if (err instanceof DataError) return { issues: err.issues, dir };
    throw err;
  }
  return { issues: [], dir };
}

const ON = path.join('cities', 'on.json');
/** The issue for one record and field, with the file named relative to the data copy. */
function issueFor(r: { issues: DataIssue[] }, record: string, field: string | null) {
  return r.issues.find((i) => i.record === record && i.field === field);
}

describe('data rules reject a bad record and name file, record and field', () => {
  const cases: Array<[string, (c: { on: Rec[] }) => void, string, string, RegExp]> = [
    [
      'a missing field',
      ({ on }) => delete on[0]?.population,
      'toronto',
      'population',
      /is required/,
    ],
    [
      'a population of 0',
      ({ on }) => Object.assign(on[0] ?? {}, { population: 0 }),
      'toronto',
      'population',
      /greater than 0/,
    ],
    [
      'a fractional population',
      ({ on }) => Object.assign(on[0] ?? {}, { population: 12.5 }),
      'toronto',
      'population',
      /whole number/,
    ],
    [
      'coordinates outside Canada',
      ({ on }) => Object.assign(on[0] ?? {}, { coordinates: { lat: 40.7, lng: -74 } }),
      'toronto',
      'coordinates.lat',
      /south of Canada/,
    ],
    [
      'a longitude without its sign',
      ({ on }) => Object.assign(on[0] ?? {}, { coordinates: { lat: 43.65, lng: 79.38 } }),
      'toronto',
      'coordinates.lng',
      /east of Canada/,
    ],
    [
      'an unknown province',
      ({ on }) => Object.assign(on[0] ?? {}, { province: 'Ontairo' }),
      'toronto',
      'province',
      /must be one of: Alberta/,
    ],
    [
      'a province code that does not match',
      ({ on }) => Object.assign(on[0] ?? {}, { provinceCode: 'QC' }),
      'toronto',
      'provinceCode',
      /must be ON for Ontario/,
    ],
    [
      'a date that is not ISO',
      ({ on }) => Object.assign(on[0] ?? {}, { incorporationDate: 'March 6, 1834' }),
      'toronto',
      'incorporationDate',
      /ISO date/,
    ],
    [
      'a date that does not exist',
      ({ on }) => Object.assign(on[0] ?? {}, { incorporationDate: '1834-02-30' }),
      'toronto',
      'incorporationDate',
      /real calendar date/,
    ],
    [
      'an empty string',
      ({ on }) => Object.assign(on[0] ?? {}, { description: '   ' }),
      'toronto',
      'description',
      /must not be empty/,
    ],
    [
      'an empty area name',
      ({ on }) => Object.assign(on[0] ?? {}, { areas: ['Scarborough', ''] }),
      'toronto',
      'areas.1',
      /must not be empty/,
    ],
    [
      'an unknown field',
      ({ on }) => Object.assign(on[0] ?? {}, { mayor: 'x' }),
      'toronto',
      'mayor',
      /not a known field/,
    ],
    [
      'a slug that is not the slug of the name',
      ({ on }) => Object.assign(on[0] ?? {}, { slug: 'to', id: 'on-to' }),
      'to',
      'slug',
      /must be "toronto"/,
    ],
    [
      'an id that does not match',
      ({ on }) => Object.assign(on[0] ?? {}, { id: 'toronto' }),
      'toronto',
      'id',
      /must be "on-toronto"/,
    ],
    [
      'a city slug that is a site page',
      ({ on }) => Object.assign(on[0] ?? {}, { name: 'About', slug: 'about', id: 'on-about' }),
      'about',
      'slug',
      /reserved for a site page/,
    ],
    [
      'a city named like a province',
      ({ on }) =>
        Object.assign(on[0] ?? {}, { name: 'Ontario', slug: 'ontario', id: 'on-ontario' }),
      'ontario',
      'slug',
      /province or of the country/,
    ],
    [
      'an area that takes a page',
      ({ on }) => Object.assign(on[0] ?? {}, { areas: ['Scarborough', 'Public Adjusters'] }),
      'toronto',
      'areas.1',
      /would take the page \/toronto\/public-adjusters/,
    ],
    [
      'an area that takes a claim-type page',
      ({ on }) => Object.assign(on[0] ?? {}, { areas: ['Fire Damage Claims'] }),
      'toronto',
      'areas.0',
      /would take the page/,
    ],
    [
      'two areas with one URL',
      ({ on }) => Object.assign(on[0] ?? {}, { areas: ['North York', 'North-York'] }),
      'toronto',
      'areas.1',
      /same URL as areas.0/,
    ],
    [
      'a source that calls itself a copy',
      ({ on }) =>
        Object.assign(on[0] ?? {}, {
          descriptionSources: [
            { publisher: 'Wikipedia (copy at example.org)', url: 'https://example.org/Toronto' },
          ],
        }),
      'toronto',
      'descriptionSources.0.url',
      /names a copy/,
    ],
    [
      'a source on a Wikipedia mirror',
      ({ on }) =>
        Object.assign(on[0] ?? {}, {
          descriptionSources: [{ publisher: 'Wikipedia', url: 'https://wikimili.com/en/Toronto' }],
        }),
      'toronto',
      'descriptionSources.0.url',
      /wikimili\.com, a site that republishes/,
    ],
    [
      'an area source on an offline-reader copy',
      ({ on }) =>
        Object.assign(on[0] ?? {}, {
          areas: [
            {
              name: 'The Beaches',
              source: {
                publisher: 'Wikipedia',
                url: 'https://kiwix.example.nl/wikipedia_en_all_maxi_2018-10/A/The_Beaches.html',
              },
            },
          ],
        }),
      'toronto',
      'areas.0.source.url',
      /a site that republishes/,
    ],
    [
      'a city in the wrong province file',
      ({ on }) =>
        Object.assign(on[0] ?? {}, { province: 'Quebec', provinceCode: 'QC', id: 'qc-toronto' }),
      'toronto',
      'provinceCode',
      /the file holds ON cities/,
    ],
  ];

  for (const [name, edit, record, field, message] of cases) {
    it(name, async () => {
      const r = await loadEdited(edit);
      const found = issueFor(r, record, field);
      expect(found, JSON.stringify(r.issues)).toBeDefined();
      expect(found?.message).toMatch(message);
      expect(found?.file).toBe(displayPath(path.join(r.dir, ON)));
    });
  }

  it('a duplicate slug across files', async () => {
    const r = await loadEdited(({ on, bc }) => {
      bc.push({
        ...on[0],
        province: 'British Columbia',
        provinceCode: 'BC',
        id: 'bc-toronto',
        description: 'Another one.',
      });
    });
    const found = r.issues.find((i) => i.field === 'slug' && i.record === 'toronto');
    expect(found?.message).toBe('"toronto" is used by another city');
  });

  it('a description used twice', async () => {
    const r = await loadEdited(({ on }) => {
      Object.assign(on[1] ?? {}, { description: on[0]?.description });
    });
    expect(r.issues).toContainEqual(
      expect.objectContaining({
        record: 'ottawa',
        field: 'description',
        message: "is the same as toronto's",
      }),
    );
  });

  it('canada without all 13 provinces and territories', async () => {
    const r = await loadEdited(({ national }) => {
      national.areas = (national.areas as string[]).filter((a) => a !== 'Nunavut');
    });
    expect(r.issues).toContainEqual(
      expect.objectContaining({
        record: 'canada',
        field: 'areas',
        message: expect.stringContaining('exactly the 13'),
      }),
    );
  });

  it('reports every problem in one run, not only the first', async () => {
    const r = await loadEdited(({ on, bc }) => {
      Object.assign(on[0] ?? {}, { population: -1 });
      Object.assign(on[1] ?? {}, { incorporationDate: 'soon' });
      Object.assign(bc[0] ?? {}, { coordinates: { lat: 100, lng: -123 } });
    });
    expect(r.issues.map((i) => `${i.record}.${i.field}`)).toEqual(
      expect.arrayContaining([
        'toronto.population',
        'ottawa.incorporationDate',
        'vancouver.coordinates.lat',
      ]),
    );
    expect(new DataError(r.issues).message).toMatch(/^Invalid data \(3 problems\):/);
  });

  it('names the record by index when it has no slug', async () => {
    const r = await loadEdited(({ on }) => {
      on.push({ name: 'Nowhere' });
    });
    expect(r.issues).toContainEqual(
      expect.objectContaining({ record: '#3', field: 'slug', message: 'is required' }),
    );
  });
});

describe('text in the data reaches pages as text', () => {
  it('keeps a value holding </script> inside its JSON-LD script element', async () => {
    const evil = 'North</script><script>alert(1)</script>';
    const r = await loadEdited(({ on }) => {
      Object.assign(on[0] ?? {}, { areas: [evil, 'Etobicoke'] });
    });
    expect(r.issues).toEqual([]);
    const out = path.join(await tempDir(), 'dist');
    await generate({ dataDir: r.dir, outDir: out });
    const html = await readFile(
      path.join(out, 'toronto/northscriptscriptalert1script/index.html'),
      'utf8',
    );
    expect(html).not.toContain('<script>alert(1)');
    const blocks = [
      ...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g),
    ].map((m) => m[1] ?? '');
    expect(blocks.length).toBeGreaterThan(0);
    const names = blocks
      .flatMap((b) => [JSON.parse(b)].flat())
      .flatMap((d) => d.itemListElement ?? [])
      .map((i: { name: string }) => i.name);
    expect(names).toContain(evil);
  });

  it('shows markup in a description as text, never as markup', async () => {
    const r = await loadEdited(({ on }) => {
      Object.assign(on[0] ?? {}, {
        description:
          'Floods.<script>alert("x")</script><img src=x onerror=alert(1)> "quoted" & more',
        areas: ['<b>Scarborough</b>'],
      });
    });
    expect(r.issues).toEqual([]);
    const out = path.join(await tempDir(), 'dist');
    await generate({ dataDir: r.dir, outDir: out });
    const html = await readFile(path.join(out, 'toronto/index.html'), 'utf8');
    expect(html).toContain(
      'Floods.&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;b&gt;Scarborough&lt;/b&gt;');
  });
});
