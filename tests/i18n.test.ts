import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { checkCatalogue, fill } from '../src/i18n/catalogue.js';
import { buildPages } from '../src/pages.js';
import { FragmentCache } from '../src/render/fragments.js';
import { renderPage } from '../src/render/render.js';
import type { Page } from '../src/routes.js';
import { shareImages } from '../src/share/share-images.js';
import {
  FORMATS,
  formatDollarsFr,
  formatLongDateFr,
  formatWholeFr,
  isoFromWritten,
} from '../src/site/format.js';
import { loadSite } from '../src/site/load.js';
import { inLanguage } from '../src/site/model.js';
import { type LanguagePaths, localizePath } from '../src/urls.js';
import { TEMPLATES } from '../templates/pages/index.js';
import {
  BUNDLED_DATA,
  dataCopy,
  dataIssues,
  editJson,
  PAGE_ASSETS,
  phoneOf,
  runCli,
  scanTree,
  treeBytes,
} from './helpers.js';

const site = await loadSite(BUNDLED_DATA);
const pages = buildPages(site);
const byPath = new Map(pages.map((p) => [p.path, p]));
// Pairs of pages; the French not-found page, which hosts serve for unknown addresses, has none.
const french = pages.filter((p) => p.lang === 'fr' && p.route !== 'not-found');
const assets = PAGE_ASSETS;
const share = shareImages(site);
const fragments = new FragmentCache();
const render = (page: Page) =>
  parse(renderPage({ site, page, pages, assets, share }, TEMPLATES, fragments));
const BASE = site.settings.baseUrl;

describe('paths in another language', () => {
  const fr: LanguagePaths = {
    prefix: 'fr',
    segments: { 'public-adjusters': 'experts-en-sinistre', faq: 'faq', about: 'a-propos' },
    topPages: new Set(['faq', 'about', '404.html']),
    has: (city, segment) => city === 'montreal' || (city === 'canada' && segment !== 'ontario'),
  };
  it('prefixes the path and names each route segment in the language, slugs unchanged', () => {
    expect(localizePath('/', fr)).toBe('/fr/');
    expect(localizePath('/faq/', fr)).toBe('/fr/faq/');
    expect(localizePath('/about/', fr)).toBe('/fr/a-propos/');
    expect(localizePath('/404.html', fr)).toBe('/fr/404.html');
    expect(localizePath('/montreal/', fr)).toBe('/fr/montreal/');
    expect(localizePath('/montreal/public-adjusters/', fr)).toBe(
      '/fr/montreal/experts-en-sinistre/',
    );
    expect(localizePath('/montreal/outremont/', fr)).toBe('/fr/montreal/outremont/');
  });
  it('has none for a page the language does not make', () => {
    expect(localizePath('/toronto/', fr)).toBeNull();
    expect(localizePath('/canada/ontario/', fr)).toBeNull();
    expect(localizePath('/blog/', fr)).toBeNull();
    expect(localizePath('/blog/a-post/', fr)).toBeNull();
  });
});

describe('the catalogues', () => {
  it('checks every key and placeholder against the English one, naming the key', () => {
    const reference = { strings: { a: { hello: 'Hello {city}', bye: 'Bye' } } };
    expect(
      checkCatalogue({ strings: { a: { hello: 'Bonjour {ville}' } } }, reference, 'i18n/fr.json'),
    ).toEqual([
      {
        file: 'i18n/fr.json',
        record: 'strings.a.hello',
        field: null,
        message: 'must use the placeholders {city}, as the English does',
      },
      { file: 'i18n/fr.json', record: 'strings.a.bye', field: null, message: 'is missing' },
    ]);
  });

  it("reads claimsite's own text, in its language, for a key a data set's catalogue lacks (a site made by an earlier version)", async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    const bundled = {
      en: JSON.parse(await readFile(path.join(BUNDLED_DATA, 'i18n/en.json'), 'utf8')),
      fr: JSON.parse(await readFile(path.join(BUNDLED_DATA, 'i18n/fr.json'), 'utf8')),
    };
    for (const lang of ['en', 'fr'] as const)
      await editJson(
        data,
        `i18n/${lang}.json`,
        (c: { strings: Record<string, Record<string, string>> }) => {
          delete c.strings.about?.photosTitle;
          delete c.strings.layout;
        },
      );
    expect(await dataIssues(data)).toEqual([]);
    const site = await loadSite(data);
    expect(site.t.about.photosTitle).toBe(bundled.en.strings.about.photosTitle);
    expect(site.t.layout.skipLink).toBe(bundled.en.strings.layout.skipLink);
    const inFrench = site.languages.get('fr')?.t;
    expect(inFrench?.about.photosTitle).toBe(bundled.fr.strings.about.photosTitle);
    expect(inFrench?.layout.skipLink).toBe(bundled.fr.strings.layout.skipLink);
    expect(inFrench?.layout.skipLink).not.toBe(bundled.en.strings.layout.skipLink);
  });

  it('a French catalogue with a key that is not a text, or a segment the endpoint does not know, is a data error naming it', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'i18n/fr.json', (c: { strings: { layout: Record<string, unknown> } }) => {
      c.strings.layout.skipLink = 42;
    });
    expect((await dataIssues(data)).map((i) => [i.file, i.record, i.message])).toEqual([
      [expect.stringMatching(/i18n\/fr\.json$/), 'strings.layout.skipLink', 'must be a text'],
    ]);
    await editJson(data, 'i18n/fr.json', (c: { strings: { layout: Record<string, string> } }) => {
      c.strings.layout.skipLink = 'Aller au contenu';
    });
    await editJson(data, 'i18n/fr.json', (c: { segments: Record<string, string> }) => {
      c.segments['form-error'] = 'erreur';
    });
    expect((await dataIssues(data)).map((i) => i.record)).toEqual(['segments.form-error']);
  });

  it('a Québec city without its French description is a data error naming the file and the city', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'fr/places.json', (p: { cities: Record<string, unknown> }) => {
      delete p.cities.laval;
    });
    expect((await dataIssues(data)).map((i) => [i.file, i.record, i.field])).toEqual([
      [expect.stringMatching(/fr\/places\.json$/), 'laval', 'description'],
    ]);
  });

  it('English and French catalogues have the same keys', async () => {
    const en = JSON.parse(await readFile(path.join(BUNDLED_DATA, 'i18n/en.json'), 'utf8'));
    const fr = JSON.parse(await readFile(path.join(BUNDLED_DATA, 'i18n/fr.json'), 'utf8'));
    expect(checkCatalogue(fr, en, 'fr')).toEqual([]);
  });
});

describe('French formats', () => {
  it("write numbers, money, dates and phone numbers as fr-CA does (Intl's output)", () => {
    const intl = new Intl.NumberFormat('fr-CA');
    for (const n of [0, 7, 1234, 50_000, 1_762_949]) expect(formatWholeFr(n)).toBe(intl.format(n));
    const money = new Intl.NumberFormat('fr-CA', {
      style: 'currency',
      currency: 'CAD',
      maximumFractionDigits: 0,
    });
    expect(formatDollarsFr(50_000)).toBe(money.format(50_000));
    const date = new Intl.DateTimeFormat('fr-CA', { dateStyle: 'long', timeZone: 'UTC' });
    for (const iso of ['2024-03-14', '2026-01-01', '2025-08-09'])
      expect(formatLongDateFr(iso)).toBe(date.format(new Date(`${iso}T00:00:00Z`)));
    expect(FORMATS.fr.phone(phoneOf('1-888-339-9809'))).toBe('1\u00a0888\u00a0339-9809');
    expect(isoFromWritten('14 mars 2024')).toBe('2024-03-14');
    expect(isoFromWritten('14 March 2024')).toBe('2024-03-14');
  });
  it('contract "à Canada" and "de" before a vowel as French does', () => {
    expect(fill('Experts à {place}', { place: 'Canada' })).toBe('Experts au Canada');
    expect(fill('Les quartiers de {city}', { city: 'Outremont' })).toBe(
      "Les quartiers d'Outremont",
    );
    expect(fill('Help in {place}', { place: 'Canada' })).toBe('Help in Canada');
  });
});

describe('the French site', () => {
  const fr = inLanguage(site, 'fr');

  it("has every page of every Québec and New Brunswick city, those provinces' pages under canada/, the national and site pages; nothing else", () => {
    const covered = ['QC', 'NB'];
    const quebec = site.cities.filter((c) => c.provinceCode === 'QC');
    const english = pages.filter((p) => p.lang === 'en');
    const expected = english.filter(
      (p) =>
        (covered.includes(p.city?.provinceCode ?? '') ||
          (p.city?.national && (!p.area || ['quebec', 'new-brunswick'].includes(p.area.slug))) ||
          (!p.city && !['blog', 'blog-post', 'not-found'].includes(p.route))) &&
        p.route !== 'blog-post',
    );
    expect(french.map((p) => p.alternate).sort()).toEqual(expected.map((p) => p.path).sort());
    expect(quebec.length).toBeGreaterThan(25);
    expect(byPath.get('/fr/montreal/experts-en-sinistre/')?.route).toBe('questionnaire');
    expect(byPath.get('/fr/canada/dommages-incendie/')?.route).toBe('claim-type');
    expect(byPath.get('/fr/404.html')?.lang).toBe('fr');
    expect(byPath.has('/fr/toronto/')).toBe(false);
    expect(byPath.get('/fr/moncton/experts-en-sinistre/')?.lang).toBe('fr');
    expect(byPath.get('/fr/canada/new-brunswick/')?.lang).toBe('fr');
    expect(byPath.has('/fr/canada/ontario/')).toBe(false);
    expect(fr.bySlug.get('montreal')?.name).toBe('Montréal');
  });

  it('pairs each French page with its English page, both ways', () => {
    for (const p of french) {
      const english = byPath.get(p.alternate ?? '');
      expect(english?.lang, p.path).toBe('en');
      expect(english?.alternate, p.path).toBe(p.path);
      expect(english?.route).toBe(p.route);
      // Indexed alike: the pair is one page in two languages.
      expect(p.sitemap === null, p.path).toBe(english?.sitemap === null);
    }
  });

  it('names the pair in both heads (hreflang), absolute and reciprocal, with English as x-default', () => {
    let pairs = 0;
    for (const p of french) {
      const root = render(p);
      expect(root.querySelector('html')?.getAttribute('lang')).toBe('fr-CA');
      const links = (r: typeof root) =>
        r
          .querySelectorAll('link[rel="alternate"][hreflang]')
          .map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')])
          .sort();
      const english = byPath.get(p.alternate ?? '');
      if (!english) throw new Error(`no English page for ${p.path}`);
      if (p.sitemap === null) {
        expect(links(root), p.path).toEqual([]);
        continue;
      }
      const expected = [
        ['en-CA', `${BASE}${english.path}`],
        ['fr-CA', `${BASE}${p.path}`],
        ['x-default', `${BASE}${english.path}`],
      ].sort();
      expect(links(root), p.path).toEqual(expected);
      expect(links(render(english)), english.path).toEqual(expected);
      // The canonical URL is the page's own.
      expect(root.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
        `${BASE}${p.path}`,
      );
      pairs++;
    }
    // Every indexed French page: its city's page where the data answers a homeowner's four
    // questions (none yet in the bundled data: tests/city-answers.test.ts), the two provinces'
    // pages, the national and site pages (16 in the bundled data).
    expect(pairs).toBe(french.filter((p) => p.sitemap !== null).length);
    expect(pairs).toBeGreaterThan(10);
  });

  it('shows no English user-facing string of the catalogue on a French page', async () => {
    const en = JSON.parse(await readFile(path.join(BUNDLED_DATA, 'i18n/en.json'), 'utf8'));
    const frCat = JSON.parse(await readFile(path.join(BUNDLED_DATA, 'i18n/fr.json'), 'utf8'));
    // Each English string, cut at its placeholders; pieces of two words or more that French
    // does not share (a word such as "FAQ" or "Services" is the same in both).
    const frTexts = JSON.stringify(frCat.strings);
    const pieces = new Set<string>();
    const walk = (v: unknown) => {
      if (typeof v === 'string') {
        for (const piece of v.split(/\{\w+\}/)) {
          const t = piece.trim().replace(/^[^\w]+|[^\w]+$/g, '');
          if (t.split(/\s+/).length >= 2 && t.length >= 10 && !frTexts.includes(t)) pieces.add(t);
        }
      } else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
    };
    walk(en.strings);
    expect(pieces.size).toBeGreaterThan(200);
    const found: string[] = [];
    for (const p of french) {
      const root = render(p);
      // The switch to English is English on purpose, marked as such.
      for (const el of root.querySelectorAll('[lang="en-CA"]')) el.remove();
      const head = [
        root.querySelector('title')?.textContent ?? '',
        root.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
      ].join(' ');
      const body = root.querySelector('body');
      const attributes = (
        body?.querySelectorAll('[aria-label],[placeholder],[alt],[data-text-failed]') ?? []
      ).flatMap((el) =>
        [
          'aria-label',
          'placeholder',
          'alt',
          'data-text-failed',
          'data-text-busy',
          'data-text-step',
        ].map((a) => el.getAttribute(a) ?? ''),
      );
      const text = `${head} ${body?.textContent ?? ''} ${attributes.join(' ')}`.replace(
        /\s+/g,
        ' ',
      );
      for (const piece of pieces) if (text.includes(piece)) found.push(`${p.path}: ${piece}`);
    }
    expect(found.slice(0, 20)).toEqual([]);
  });

  it('keeps titles and snippets within the lengths search results show', () => {
    for (const p of french) {
      expect(p.description.length, p.path).toBeLessThanOrEqual(160);
      expect(p.title.length, p.path).toBeLessThanOrEqual(70);
    }
  });

  it('switches language in the header only where the other page exists', () => {
    const montreal = render(byPath.get('/fr/montreal/') as Page);
    const toEnglish = montreal.querySelector('header a[hreflang="en-CA"]');
    expect(toEnglish?.getAttribute('href')).toBe('/montreal/');
    expect(toEnglish?.textContent).toBe('English');
    const toronto = render(byPath.get('/toronto/') as Page);
    expect(toronto.querySelector('header a[hreflang]')).toBeNull();
    const english = render(byPath.get('/montreal/') as Page);
    expect(english.querySelector('header a[hreflang="fr-CA"]')?.getAttribute('href')).toBe(
      '/fr/montreal/',
    );
  });
});

describe('the French pages in an incremental build', () => {
  it('an edit of the French data renders again the French pages that show it, and only they change', async () => {
    const { dir, data, out } = await dataCopy(BUNDLED_DATA);
    // The compiled CLI, whose build key lets a build reuse the last one's pages.
    const generate = (to: string) => {
      const r = runCli(['generate', '--data', data, '--out', to, '--no-audit'], {
        env: { SOURCE_DATE_EPOCH: String(Date.parse('2026-11-24T12:00:00Z') / 1000) },
      });
      expect(r.code, r.stderr).toBe(0);
      return Number(/\(([\d,]+) rendered\)/.exec(r.stdout)?.[1]?.replaceAll(',', ''));
    };
    generate(out);
    const before = await scanTree(out);
    await editJson(
      data,
      'fr/places.json',
      (p: { cities: Record<string, { description: string }> }) => {
        const montreal = p.cities.montreal;
        if (montreal) montreal.description += ' Une phrase ajoutée pour le test.';
      },
    );
    const rendered = generate(out);
    const fresh = path.join(dir, 'fresh');
    generate(fresh);
    expect(await treeBytes(out)).toEqual(await treeBytes(fresh));
    const after = await scanTree(out);
    const changed = [...after.keys()].filter(
      (rel) => before.get(rel)?.mtimeMs !== after.get(rel)?.mtimeMs,
    );
    expect(changed.length).toBeGreaterThan(0);
    // Montréal's French pages that show its description, and nothing in English.
    for (const rel of changed) expect(rel, rel).toMatch(/^(fr\/|sitemap\.xml$|\.)/);
    expect(changed).toContain('fr/montreal/index.html');
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(50);
    // A French name: the pages that list the city among their neighbours show it too.
    await editJson(data, 'fr/places.json', (p: { cities: Record<string, { name?: string }> }) => {
      const laval = p.cities.laval;
      if (laval) laval.name = 'Laval-sur-Essai';
    });
    generate(out);
    const fresher = path.join(dir, 'fresher');
    generate(fresher);
    expect(await treeBytes(out)).toEqual(await treeBytes(fresher));
    expect(await readFile(path.join(out, 'fr/montreal/index.html'), 'utf8')).toContain(
      'Laval-sur-Essai',
    );
  }, 120_000);
});
