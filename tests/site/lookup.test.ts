import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../../src/site/load.js';
import { lookupCity, lookupPlace } from '../../src/site/lookup.js';
import { allCities } from '../../src/site/model.js';
import { slugify } from '../../src/site/slug.js';
import { BUNDLED_DATA } from '../helpers.js';

describe('slugify', () => {
  it('follows the examples of the design', () => {
    expect(slugify('Côte-des-Neiges')).toBe('cote-des-neiges');
    expect(slugify("St. John's")).toBe('st-johns');
    expect(slugify('  Trois-Rivières ')).toBe('trois-rivieres');
    expect(slugify('Newfoundland and Labrador')).toBe('newfoundland-and-labrador');
    expect(slugify('Rouyn--Noranda')).toBe('rouyn-noranda');
    expect(slugify('Sault Ste. Marie')).toBe('sault-ste-marie');
    // A dash between words is a hyphen, whichever dash it is; ligatures fold to their letters.
    expect(slugify('Île-Bizard–Sainte-Geneviève')).toBe('ile-bizard-sainte-genevieve');
    expect(slugify('Rosemont–La Petite-Patrie')).toBe('rosemont-la-petite-patrie');
    expect(slugify('Plateau — Mont-Royal')).toBe('plateau-mont-royal');
    expect(slugify('Sacré-Cœur')).toBe('sacre-coeur');
    expect(slugify('ŒUVRE Æther Straße')).toBe('oeuvre-aether-strasse');
  });

  it('is idempotent and yields only a-z, 0-9 and single inner hyphens, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        const slug = slugify(s);
        expect(slugify(slug)).toBe(slug);
        expect(slug).toMatch(/^([a-z0-9]+(-[a-z0-9]+)*)?$/);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('city lookup', async () => {
  const site = await loadSite(BUNDLED_DATA);
  const cities = allCities(site);
  const find = (s: string) => lookupCity(s, cities)?.slug;

  it('finds a city by exact slug first', () => {
    expect(find('toronto')).toBe('toronto');
    expect(find('canada')).toBe('canada');
    expect(find('richmond')).toBe('richmond');
    expect(find('richmond-hill')).toBe('richmond-hill');
  });

  it('normalises case, spaces, punctuation and accents', () => {
    expect(find('  Quebec City ')).toBe('quebec-city');
    expect(find('LÉVIS')).toBe('levis');
    expect(find("st. john's")).toBe('st-johns');
    expect(find('Trois  Rivieres')).toBe('trois-rivieres');
  });

  it('matches partially in either direction, choosing the most populous', () => {
    // Typed text inside a slug: "sudbury" is part of greater-sudbury.
    expect(find('sudbury')).toBe('greater-sudbury');
    // A slug inside typed text: "torontoo" holds toronto.
    expect(find('torontoo')).toBe('toronto');
    expect(find('downtown-vancouver')).toBe('vancouver');
    // "van" is in vancouver and north-vancouver: the more populous wins, whatever the order.
    expect(find('van')).toBe('vancouver');
    expect(lookupCity('van', [...cities].reverse())?.slug).toBe('vancouver');
  });

  it('finds a name mistyped by up to two letters, one in a short name', () => {
    expect(find('torono')).toBe('toronto');
    expect(find('tornoto')).toBe('toronto');
    expect(find('vancuover')).toBe('vancouver');
    expect(find('edmontn')).toBe('edmonton');
    expect(find('Mississauaga')).toBe('mississauga');
    expect(find('calgray')).toBe('calgary');
    // Three letters off is another word, and a short name allows one letter only.
    expect(find('txrxnxo')).toBeUndefined();
    expect(find('xjax')).toBe('ajax');
    expect(find('xjxx')).toBeUndefined();
  });

  it('finds nothing for text that matches no city', () => {
    expect(find('zzzz')).toBeUndefined();
    expect(find('')).toBeUndefined();
    expect(find('!!!')).toBeUndefined();
  });

  it('finds every city by its own name and slug, in any casing and spacing', () => {
    const city = fc.constantFrom(...cities);
    const spacing = fc.constantFrom(' ', '  ', '\t');
    fc.assert(
      fc.property(city, fc.boolean(), fc.boolean(), spacing, (c, useName, upper, space) => {
        let text = useName ? c.name : c.slug.replace(/-/g, ' ');
        text = upper ? text.toUpperCase() : text.toLowerCase();
        text = `${space}${text.replace(/ /g, space)}${space}`;
        expect(lookupCity(text, cities)?.slug).toBe(c.slug);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('place lookup (the finders)', async () => {
  const site = await loadSite(BUNDLED_DATA);
  // As the city index gives them to the browser: each city's areas by slug.
  const cities = allCities(site).map((c) => ({
    slug: c.slug,
    population: c.population,
    areaSlugs: c.areas.map((a) => a.slug),
  }));
  const find = (s: string) => {
    const found = lookupPlace(s, cities);
    return found && [found.city.slug, found.area];
  };

  it('finds a neighbourhood by its name, with its city', () => {
    expect(find('Beltline')).toEqual(['calgary', 'beltline']);
    expect(find('  chomedey ')).toEqual(['laval', 'chomedey']);
    // The national entry's areas are the provinces.
    expect(find('Alberta')).toEqual(['canada', 'alberta']);
  });

  it('puts a city before a neighbourhood, and forgives typos in city names only', () => {
    expect(find('Calgary')).toEqual(['calgary', undefined]);
    expect(find('calgry')).toEqual(['calgary', undefined]);
    expect(find('Laval')).toEqual(['laval', undefined]);
    expect(find('')).toBeUndefined();
  });
});
