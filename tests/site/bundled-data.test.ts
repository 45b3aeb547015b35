import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../../src/site/load.js';
import { mirrorProblem } from '../../src/site/mirrors.js';
import { distanceKm, nearbyCities, provinceGroups, topCities } from '../../src/site/model.js';
import { PROVINCES } from '../../src/site/provinces.js';
import { BUNDLED_DATA, runCli } from '../helpers.js';

describe('the bundled data set', async () => {
  const site = await loadSite(BUNDLED_DATA);

  it('has at least 150 cities across all 13 provinces and territories', () => {
    expect(site.cities.length).toBeGreaterThanOrEqual(150);
    for (const p of PROVINCES) {
      expect(
        site.cities.some((c) => c.provinceCode === p.code),
        p.name,
      ).toBe(true);
    }
  });

  it('includes every city of 100,000 people or more (2021 Census)', () => {
    const big = site.cities.filter((c) => c.population >= 100_000).map((c) => c.slug);
    // The 2021 Census subdivisions of 100,000 or more, by slug.
    for (const slug of [
      'toronto',
      'montreal',
      'calgary',
      'ottawa',
      'edmonton',
      'winnipeg',
      'mississauga',
      'vancouver',
      'brampton',
      'hamilton',
      'surrey',
      'quebec-city',
      'halifax',
      'laval',
      'london',
      'markham',
      'vaughan',
      'gatineau',
      'saskatoon',
      'kitchener',
      'longueuil',
      'burnaby',
      'windsor',
      'regina',
      'oakville',
      'richmond',
      'richmond-hill',
      'burlington',
      'oshawa',
      'sherbrooke',
      'greater-sudbury',
      'abbotsford',
      'levis',
      'coquitlam',
      'barrie',
      'saguenay',
      'kelowna',
      'guelph',
      'trois-rivieres',
      'whitby',
      'cambridge',
      'st-catharines',
      'milton',
      'langley',
      'kingston',
      'ajax',
      'waterloo',
      'terrebonne',
      'saanich',
      'st-johns',
      'thunder-bay',
      'delta',
      'brantford',
      'chatham-kent',
      'clarington',
      'red-deer',
    ]) {
      expect(big, slug).toContain(slug);
    }
  });

  it('names a page for every neighbourhood name, coordinate and incorporation date', () => {
    // Rather than a count of areas: a name no page gives is left out, not guessed.
    const unsourced = site.cities.flatMap((c) => [
      ...(c.sources.coordinates ? [] : [`${c.slug}: coordinates`]),
      ...(c.sources.incorporationDate ? [] : [`${c.slug}: incorporationDate`]),
      ...c.areas.filter((a) => !a.source && !c.sources.areas).map((a) => `${c.slug}: ${a.name}`),
    ]);
    expect(unsourced).toEqual([]);
    // Most cities still show their neighbourhoods.
    expect(site.cities.filter((c) => c.areas.length >= 3).length).toBeGreaterThan(140);
  });

  it('cites every source at its publisher: no mirror, no "copy at", French pages included', async () => {
    const files = await readdir(BUNDLED_DATA, { recursive: true });
    const sources: Array<{ file: string; publisher: string; url: string }> = [];
    const collect = (file: string, v: unknown): void => {
      if (Array.isArray(v)) for (const x of v) collect(file, x);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.publisher === 'string' && typeof o.url === 'string')
          sources.push({ file, publisher: o.publisher, url: o.url });
        for (const x of Object.values(o)) collect(file, x);
      }
    };
    for (const f of files.filter((f) => f.endsWith('.json')))
      collect(f, JSON.parse(await readFile(path.join(BUNDLED_DATA, f), 'utf8')));
    expect(sources.length).toBeGreaterThan(1000);
    const bad = sources.filter((s) => mirrorProblem(s) !== null || /copy|copie/i.test(s.publisher));
    expect(bad).toEqual([]);
    // Wikipedia is cited as Wikipedia, at the article's own address.
    for (const s of sources.filter(
      (s) => /wikipedia/i.test(s.publisher) || /wikipedia\.org/.test(s.url),
    )) {
      expect(s.publisher, s.url).toBe('Wikipedia');
      expect(s.url).toMatch(/^https:\/\/(en|fr|simple|sco|de)\.wikipedia\.org\/(wiki\/|\?)/);
    }
  });

  it('gives every city its own description of 2 to 4 sentences', () => {
    expect(new Set(site.cities.map((c) => c.description)).size).toBe(site.cities.length);
    for (const c of site.cities) {
      // Abbreviations such as "St." and "Ste." are not sentence ends.
      const sentences = c.description
        .replace(/\b(St|Ste|Mt|Ft)\./g, '$1')
        .split(/[.!?](\s|$)/)
        .filter((s) => s.trim().length > 1);
      expect(sentences.length, c.slug).toBeGreaterThanOrEqual(2);
      expect(sentences.length, c.slug).toBeLessThanOrEqual(4);
    }
  });

  it('has the national entry: Canada, population 38,250,000, the 13 provinces as areas', () => {
    expect(site.national).toMatchObject({ name: 'Canada', slug: 'canada', population: 38_250_000 });
    expect(site.national.areas.map((a) => a.name).sort()).toEqual(
      PROVINCES.map((p) => p.name).sort(),
    );
  });

  it('derives the 6 and 4 most populous cities', () => {
    expect(topCities(site, 6).map((c) => c.slug)).toEqual([
      'toronto',
      'montreal',
      'calgary',
      'ottawa',
      'edmonton',
      'winnipeg',
    ]);
    expect(topCities(site, 4).map((c) => c.slug)).toEqual([
      'toronto',
      'montreal',
      'calgary',
      'ottawa',
    ]);
  });

  it('groups provinces alphabetically, cities by population, territories apart', () => {
    const { provinces, territories } = provinceGroups(site);
    expect(provinces.map((g) => g.province)).toEqual([
      'Alberta',
      'British Columbia',
      'Manitoba',
      'New Brunswick',
      'Newfoundland and Labrador',
      'Nova Scotia',
      'Ontario',
      'Prince Edward Island',
      'Quebec',
      'Saskatchewan',
    ]);
    expect(territories.map((g) => g.province)).toEqual([
      'Northwest Territories',
      'Nunavut',
      'Yukon',
    ]);
    for (const g of [...provinces, ...territories]) {
      const pops = g.cities.map((c) => c.population);
      expect(pops).toEqual([...pops].sort((a, b) => b - a));
      expect(g.cities.every((c) => c.province === g.province)).toBe(true);
    }
    expect(provinces.find((g) => g.code === 'ON')?.cities[0]?.slug).toBe('toronto');
  });

  it('finds nearby cities by distance, nearest first', () => {
    const toronto = site.bySlug.get('toronto');
    if (!toronto) throw new Error('toronto missing');
    const near = nearbyCities(site, toronto, 5);
    expect(near).toHaveLength(5);
    expect(near.map((c) => c.slug)).not.toContain('toronto');
    const d = near.map((c) => distanceKm(toronto.coordinates, c.coordinates));
    expect(d).toEqual([...d].sort((a, b) => a - b));
    expect(d[4]).toBeLessThan(60);
    // Toronto to Ottawa is about 350 km as the crow flies.
    const ottawa = site.bySlug.get('ottawa');
    if (!ottawa) throw new Error('ottawa missing');
    expect(distanceKm(toronto.coordinates, ottawa.coordinates)).toBeGreaterThan(340);
    expect(distanceKm(toronto.coordinates, ottawa.coordinates)).toBeLessThan(360);
  });

  it('passes claimsite validate, which prints cities per province and total areas', () => {
    const r = runCli(['validate']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`Total\\s+${site.cities.length}`));
    expect(r.stdout).toMatch(/Ontario\s+\d+/);
    expect(r.stdout).toMatch(/Areas: [\d,]+ in cities/);
  });
});
