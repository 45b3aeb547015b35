import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../../src/site/load.js';
import { BUNDLED_DATA, dataCopy, dataIssues, editJson, FIXTURE_DATA } from '../helpers.js';

describe('sourced facts', () => {
  it('every fact of the bundled data names its publisher and a page', async () => {
    const site = await loadSite(BUNDLED_DATA);
    const sources = [
      ...[...site.facts.provinces.values()].flatMap((p) => [
        p.regulator.source,
        ...(p.regulator.lookup ? [p.regulator.lookup.source] : []),
        ...p.facts.map((f) => f.source),
        ...p.complaints.map((c) => c.source),
      ]),
      ...site.facts.nationalComplaints.map((c) => c.source),
      ...site.facts.catastrophes.map((c) => c.source),
      ...[site.national, ...site.cities].flatMap((c) => c.descriptionSources),
      ...[site.national, ...site.cities].flatMap((c) =>
        c.areas.flatMap((a) => (a.source ? [a.source] : [])),
      ),
    ];
    // Every description, of a city or a neighbourhood, names where to check it.
    for (const c of [site.national, ...site.cities])
      expect(c.descriptionSources.length, c.slug).toBeGreaterThan(0);
    expect(site.facts.populationSource?.url).toMatch(/^https:\/\/www12\.statcan\.gc\.ca\//);
    expect(sources.length).toBeGreaterThan(500);
    for (const s of sources) {
      expect(s.publisher.trim()).not.toBe('');
      expect(s.url).toMatch(/^https?:\/\/[a-z0-9.-]+(:\d+)?\//);
    }
    // Every province and territory has its regulator.
    expect(site.facts.provinces.size).toBe(13);
    // Each catastrophe's insured damage is IBC's or CatIQ's figure.
    for (const c of site.facts.catastrophes) expect(c.estimate).toMatch(/IBC|CatIQ/);
  });

  it('names the file, the record and the field of a catastrophe that names no city of the data', async () => {
    const { data } = await dataCopy(FIXTURE_DATA);
    await editJson(data, 'catastrophes.json', (list: Array<{ cities: string[] }>) => {
      list[0]?.cities.push('atlantis');
    });
    const issues = await dataIssues(data);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      file: expect.stringMatching(/catastrophes\.json$/),
      record: expect.stringMatching(/^2013 /),
      field: '0.cities.1',
      message: '"atlantis" is not a city of the data set',
    });
  });

  it('names a province listed twice, and a source without its page', async () => {
    const twice = await dataCopy(FIXTURE_DATA);
    await editJson(twice.data, 'provinces.json', (p: { provinces: Array<{ code: string }> }) => {
      const [first, second] = p.provinces;
      if (first && second) second.code = first.code;
    });
    expect((await dataIssues(twice.data)).map((i) => [i.record, i.field, i.message])).toEqual([
      ['BC', 'provinces.1.code', 'BC is listed twice'],
    ]);
    const unsourced = await dataCopy(FIXTURE_DATA);
    await editJson(
      unsourced.data,
      'provinces.json',
      (p: { provinces: Array<{ regulator: { source: { url?: string } } }> }) => {
        delete p.provinces[0]?.regulator.source.url;
      },
    );
    expect((await dataIssues(unsourced.data)).map((i) => [i.field, i.message])).toEqual([
      ['provinces.0.regulator.source.url', 'is required'],
    ]);
  });

  it('is optional: a data set made before these files builds without them', async () => {
    const { data } = await dataCopy(FIXTURE_DATA);
    await rm(path.join(data, 'provinces.json'));
    await rm(path.join(data, 'catastrophes.json'));
    const site = await loadSite(data);
    expect(site.facts.provinces.size).toBe(0);
    expect(site.facts.catastrophes).toEqual([]);
  });
});

describe("Québec's wording", () => {
  it("is data: a step or a city answer quoting the rest of Canada's fee needs its Québec variant", async () => {
    const { data } = await dataCopy(FIXTURE_DATA);
    await editJson(
      data,
      'content/process.json',
      (p: { howItWorks: Array<{ quebec?: unknown }> }) => {
        delete p.howItWorks[2]?.quebec;
      },
    );
    await editJson(data, 'content/city-faq.json', (faq: Array<{ quebecAnswer?: string }>) => {
      if (faq[1]) faq[1].quebecAnswer = 'Usually 5-15%, as elsewhere.';
    });
    const issues = await dataIssues(data);
    expect(issues.map((i) => [i.file.split('/').slice(-2).join('/'), i.record, i.field])).toEqual([
      ['content/process.json', 'howItWorks[2]', 'quebec'],
      ['content/city-faq.json', '[1]', 'quebecAnswer'],
    ]);
    expect(issues[0]?.message).toContain("quotes the rest of Canada's fee");
  });

  it('comes from content/quebec.json, or the wording pages had before it when there is none', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    const withFile = (await loadSite(data)).content.quebec;
    await rm(path.join(data, 'content/quebec.json'));
    expect((await loadSite(data)).content.quebec).toEqual(withFile);
    await writeFile(path.join(data, 'content/quebec.json'), JSON.stringify({ lead: 'x' }));
    expect((await dataIssues(data)).map((i) => i.field)).toEqual(
      expect.arrayContaining(['feePromise', 'cta']),
    );
  });
});

describe('areas', () => {
  it('take a description with its source, and nothing else', async () => {
    const { data } = await dataCopy(FIXTURE_DATA);
    await editJson(data, 'cities/on.json', (cities: Array<{ areas: unknown[] }>) => {
      const toronto = cities[0];
      if (!toronto) return;
      toronto.areas[0] = {
        name: 'Scarborough',
        description: 'Scarborough rises above Lake Ontario on the Scarborough Bluffs.',
        source: { publisher: 'City of Toronto', url: 'https://www.toronto.ca/' },
      };
      toronto.areas[1] = { name: 'Etobicoke', description: 'No source.' };
    });
    const issues = await dataIssues(data);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ record: 'toronto', field: 'areas.1' });
  });
});
