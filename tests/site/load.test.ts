import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { displayPath } from '../../src/site/display-path.js';
import { DataError, type DataIssue } from '../../src/site/errors.js';
import { loadSite } from '../../src/site/load.js';
import { BUNDLED_DATA, FIXTURE_DATA, tempDir } from '../helpers.js';

type Rec = Record<string, unknown>;

/** Copies the fixture data, lets `edit` change Ontario's cities (and anything else), loads it. */
async function loadEdited(
  edit: (ctx: { on: Rec[]; bc: Rec[]; national: Rec; dir: string }) => void | Promise<void>,
  /** false when `edit` moves bc.json away itself. */
  writeBc = true,
): Promise<{ issues: DataIssue[]; dir: string }> {
  const dir = path.join(await tempDir(), 'data');
  await cp(FIXTURE_DATA, dir, { recursive: true });
  const read = async (f: string) => JSON.parse(await readFile(path.join(dir, f), 'utf8'));
  const on: Rec[] = await read('cities/on.json');
  const bc: Rec[] = await read('cities/bc.json');
  const national: Rec = await read('national.json');
  await edit({ on, bc, national, dir });
  await writeFile(path.join(dir, 'cities/on.json'), JSON.stringify(on));
  if (writeBc) await writeFile(path.join(dir, 'cities/bc.json'), JSON.stringify(bc));
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
      /is QC but the file holds ON cities \(Ontario\): must be ON$/,
    ],
    [
      'a province that does not match the file and its code',
      ({ on }) => Object.assign(on[0] ?? {}, { province: 'Quebec' }),
      'toronto',
      'province',
      /is "Quebec" but the file holds ON cities \(Ontario\): must be "Ontario"$/,
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
      /is QC \(Quebec\) but the file holds ON cities \(Ontario\): move the city to qc.json$/,
    ],
    [
      "zod's words for a value of the wrong kind",
      ({ on }) => Object.assign(on[0] ?? {}, { population: '2794356' }),
      'toronto',
      'population',
      /^must be a number, not text \("2794356"\)$/,
    ],
    [
      "zod's words for a list too short",
      ({ on }) => Object.assign(on[0] ?? {}, { descriptionSources: [] }),
      'toronto',
      'descriptionSources',
      /^must list at least one$/,
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

  it('a duplicate slug across files names both records and both files', async () => {
    const r = await loadEdited(({ on, bc }) => {
      bc.push({
        ...on[0],
        province: 'British Columbia',
        provinceCode: 'BC',
        id: 'bc-toronto',
        description: 'Another one.',
      });
    });
    // Files are read in name order: the later one's record is reported, and the message names
    // the earlier record and its file.
    expect(r.issues).toEqual([
      {
        file: displayPath(path.join(r.dir, ON)),
        record: 'toronto',
        field: 'slug',
        message: `"toronto" is also the slug of Toronto (record toronto in ${displayPath(path.join(r.dir, 'cities', 'bc.json'))})`,
      },
    ]);
  });

  it('a description used twice', async () => {
    const r = await loadEdited(({ on }) => {
      Object.assign(on[1] ?? {}, { description: on[0]?.description });
    });
    expect(r.issues).toContainEqual(
      expect.objectContaining({
        record: 'ottawa',
        field: 'description',
        message: 'is the same as the description of Toronto (record toronto in this file)',
      }),
    );
  });

  it("says zod's rules in our words, whatever the kind of value", async () => {
    const r = await loadEdited(({ on, national }) => {
      Object.assign(on[0] ?? {}, {
        name: 3,
        coordinates: [43.6, -79.4],
        areas: 'Scarborough',
        descriptionSources: [{ publisher: 'x', url: 'https://example.org', extra: 1 }, 'x'],
      });
      Object.assign(on[1] ?? {}, { population: true, sources: { coordinates: null } });
      national.areas = [1];
    });
    const messages = r.issues.map((i) => `${i.field}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'name: must be text in quotes, not the number 3',
        'coordinates: must be an object ({ … }), not a list',
        'areas: must be a list ([ … ]), not text ("Scarborough")',
        'descriptionSources.0.extra: is not a known field',
        'descriptionSources.1: must be an object ({ … }), not text ("x")',
        'population: must be a number, not true',
        'sources.coordinates: must be an object ({ … }), not null',
        'areas.0: must be text in quotes, not the number 1',
      ]),
    );
    // None of zod's own sentences ("Invalid input: expected number, received string").
    for (const m of messages) expect(m).not.toMatch(/Invalid|expected|received|Too (small|big)/);
  });

  it('a city file not named for its province says the name it must have', async () => {
    const r = await loadEdited(async ({ dir }) => {
      await writeFile(
        path.join(dir, 'cities/bc-extra.json'),
        await readFile(path.join(dir, 'cities/bc.json')),
      );
      await rm(path.join(dir, 'cities/bc.json'));
    }, false);
    expect(r.issues).toEqual([
      {
        file: displayPath(path.join(r.dir, 'cities', 'bc-extra.json')),
        record: null,
        field: null,
        message:
          "must be named bc.json: city files are named by their province's or territory's code, and its cities are in British Columbia",
      },
    ]);
  });

  it('a city file beside the one it belongs in says so', async () => {
    const r = await loadEdited(async ({ dir, bc }) => {
      await writeFile(path.join(dir, 'cities/pei-extra.json'), JSON.stringify([]));
      await writeFile(
        path.join(dir, 'cities/bc-more.json'),
        JSON.stringify(bc.map((c) => ({ ...c, slug: `${c.slug}-x`, name: `${c.name} X` }))),
      );
    });
    const about = (f: string) =>
      r.issues.find((i) => i.file === displayPath(path.join(r.dir, 'cities', f)) && !i.record);
    expect(about('bc-more.json')?.message).toMatch(
      /^must be named bc.json: .* \(bc.json exists: move its cities there\)$/,
    );
    expect(about('pei-extra.json')?.message).toMatch(
      /^is not named for a province or territory: .*\(ab.json, bc.json, .*, pe.json, .*\)$/,
    );
  });

  it('one file that is not JSON is the one problem reported: no other file blames the cities it holds', async () => {
    // The bundled data: its catastrophes name Ontario's cities, which are in the broken file.
    const dir = path.join(await tempDir(), 'data');
    await cp(BUNDLED_DATA, dir, { recursive: true });
    const on = path.join(dir, 'cities/on.json');
    await writeFile(
      on,
      (await readFile(on, 'utf8')).replace('"slug": "toronto",', '"slug": "toronto",,'),
    );
    const issues = await loadSite(dir).then(
      () => [],
      (err: unknown) => (err instanceof DataError ? err.issues : Promise.reject(err)),
    );
    expect(issues).toEqual([
      {
        file: displayPath(on),
        record: null,
        field: null,
        message: expect.stringMatching(
          /^is not valid JSON at line \d+, column \d+: unexpected ","$/,
        ),
      },
    ]);
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
