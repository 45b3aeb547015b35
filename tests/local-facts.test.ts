import { type HTMLElement, parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { buildPages } from '../src/pages.js';
import { renderPage } from '../src/render/render.js';
import { shareImages } from '../src/share/share-images.js';
import { loadSite } from '../src/site/load.js';
import type { Site } from '../src/site/model.js';
import { TEMPLATES } from '../templates/pages/index.js';
import { BUNDLED_DATA, dataCopy, dataIssues, editJson, PAGE_ASSETS, textOf } from './helpers.js';

const assets = PAGE_ASSETS;
const text = textOf;

function pagesOf(site: Site) {
  const pages = buildPages(site);
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const render = (path: string): HTMLElement => {
    const page = byPath.get(path);
    if (!page) throw new Error(`no page ${path}`);
    return parse(renderPage({ site, page, pages, assets, share: shareImages(site) }, TEMPLATES));
  };
  return { pages, byPath, render };
}

const site = await loadSite(BUNDLED_DATA);
const { byPath, render } = pagesOf(site);

type Facts = Record<string, Array<Record<string, unknown>>>;

describe('local facts', () => {
  it("lead a city's page, each with the page at its publisher that says it", () => {
    const main = render('/toronto/').querySelector('main');
    // Toronto's page answers the four questions: its facts lead it, as four labelled answers.
    const help = main?.querySelector('[aria-labelledby="answers-title"]');
    expect(text(help?.querySelector('h2'))).toBe('Local help in Toronto');
    const facts = site.facts.local.get('toronto') ?? [];
    expect(facts.length).toBeGreaterThan(0);
    for (const f of facts) {
      expect(text(help)).toContain(f.text);
      expect(help?.querySelector(`.source a[href="${f.source.url}"]`)).not.toBeNull();
    }
    // Before the city's description: what helps comes first.
    const sections = main
      ?.querySelectorAll('section')
      .map((s) => s.getAttribute('aria-labelledby'));
    expect(sections?.indexOf('answers-title')).toBeLessThan(sections?.indexOf('intro-title') ?? -1);
  });

  it('speak French on French pages, cited at the same page', () => {
    const help = render('/fr/alma/').querySelector('[aria-labelledby="local-help-title"]');
    const fact = site.facts.local.get('alma')?.[0];
    expect(fact?.fr).toBeDefined();
    expect(text(help)).toContain(fact?.fr ?? '');
    expect(text(help)).not.toContain(fact?.text ?? '');
    expect(text(help?.querySelector('h2'))).toBe('Après un sinistre à Alma');
  });

  it('are checked: a city or area the data lacks, or a French city fact without its French, is a data error', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'local-facts.json', (facts: Facts) => {
      const one = facts.toronto?.[0] ?? {};
      facts.atlantis = [{ ...one }];
      facts.toronto?.push({ ...one, text: 'Another fact.', area: 'Nowhere Heights' });
      facts.montreal = [{ ...one, text: 'A fact without its French.' }];
    });
    const issues = await dataIssues(data);
    const at = (record: string, field: string | null) =>
      issues.find(
        (i) => i.file.endsWith('local-facts.json') && i.record === record && i.field === field,
      );
    expect(at('atlantis', null)?.message).toMatch(/"atlantis" is not a city/);
    expect(at('toronto', `${site.facts.local.get('toronto')?.length ?? 0}.area`)?.message).toMatch(
      /"Nowhere Heights" is not an area of Toronto/,
    );
    expect(at('montreal', '0.fr')?.message).toMatch(/required: Montréal|required: Montreal/);
    // A source at a copy is refused here as everywhere (src/site/mirrors.ts).
    const copy = await dataCopy(BUNDLED_DATA);
    await editJson(copy.data, 'local-facts.json', (facts: Facts) => {
      const one = facts.toronto?.[0] ?? {};
      facts.ottawa?.push({
        ...one,
        text: 'A copy.',
        source: { publisher: 'City (copy at x.org)', url: 'https://x.org/a' },
      });
    });
    const copied = await dataIssues(copy.data);
    expect(
      copied.some((i) => i.file.endsWith('local-facts.json') && /names a copy/.test(i.message)),
    ).toBe(true);
  });
});

describe('a neighbourhood page earns indexing by claims substance', () => {
  it('keeps a history-only neighbourhood for visitors: noindex, canonical to its city, out of the sitemap', () => {
    const annex = byPath.get('/toronto/the-annex/');
    expect(annex?.route).toBe('area');
    expect(annex?.sitemap).toBeNull();
    expect(annex?.canonical).toBe('/toronto/');
    const root = render('/toronto/the-annex/');
    expect(root.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/);
    // The history is still there for a visitor.
    expect(text(root.querySelector('main'))).toContain('Simeon Janes');
  });

  it('indexes a neighbourhood once the data gives it a claims fact, and shows the fact', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'local-facts.json', (facts: Facts) => {
      facts.toronto?.push({
        topic: 'risk',
        text: 'A test fact about basement flooding in The Annex.',
        area: 'The Annex',
        source: { publisher: 'City of Toronto', url: 'https://www.toronto.ca/' },
        asOf: '2026',
        checked: '2026-11-27',
      });
    });
    const edited = pagesOf(await loadSite(data));
    const annex = edited.byPath.get('/toronto/the-annex/');
    expect(annex?.sitemap).not.toBeNull();
    expect(annex?.canonical).toBe('/toronto/the-annex/');
    expect(
      text(
        edited.render('/toronto/the-annex/').querySelector('[aria-labelledby="local-help-title"]'),
      ),
    ).toContain('A test fact about basement flooding in The Annex.');
    // The city's own page shows only the city's facts.
    expect(text(edited.render('/toronto/').querySelector('main'))).not.toContain('A test fact');
  });

  it("consolidates a city whose data does not answer the four questions into its province's page", async () => {
    // Mirabel has a line to call but nothing the city offers: consolidated, in both languages.
    expect(byPath.get('/mirabel/')?.sitemap).toBeNull();
    expect(byPath.get('/mirabel/')?.canonical).toBe('/canada/quebec/');
    expect(byPath.get('/mirabel/public-adjusters/')?.canonical).toBe('/canada/quebec/');
    expect(byPath.get('/fr/mirabel/')?.canonical).toBe('/fr/canada/quebec/');
    // Mississauga's lines to call taken away: its page no longer answers all four.
    expect(byPath.get('/mississauga/')?.sitemap).not.toBeNull();
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'local-facts.json', (facts: Facts) => {
      facts.mississauga = (facts.mississauga ?? []).filter((f) => f.topic !== 'report');
    });
    const edited = pagesOf(await loadSite(data)).byPath;
    const mississauga = edited.get('/mississauga/');
    expect(mississauga?.sitemap).toBeNull();
    expect(mississauga?.canonical).toBe('/canada/ontario/');
    // Its other pages point there too, never at a page that is itself not indexed.
    expect(edited.get('/mississauga/public-adjusters/')?.canonical).toBe('/canada/ontario/');
    expect(edited.get('/toronto/')?.sitemap).not.toBeNull();
  });
});

describe("a province's disaster financial assistance", () => {
  it('is told on its province page, each point with its source, and pointed to from its cities', () => {
    const ontario = site.facts.provinces.get('ON')?.assistance ?? [];
    expect(ontario.length).toBeGreaterThan(0);
    const section = render('/canada/ontario/').querySelector(
      '[aria-labelledby="assistance-title"]',
    );
    for (const a of ontario) {
      expect(text(section)).toContain(a.text);
      expect(section?.querySelector(`.source a[href="${a.source.url}"]`)).not.toBeNull();
    }
    // A city's page links to it rather than repeating it (the same paragraphs on every city's
    // page would make them copies of one another).
    const city = render('/toronto/').querySelector('[aria-labelledby="assistance-title"]');
    expect(city?.querySelector('a')?.getAttribute('href')).toBe(
      '/canada/ontario/#assistance-title',
    );
    expect(text(city)).not.toContain(ontario[0]?.text ?? '');
  });

  it('speaks French on French pages, and a city of a province without it says nothing of it', () => {
    const quebec = site.facts.provinces.get('QC')?.assistance ?? [];
    const section = render('/fr/canada/quebec/').querySelector(
      '[aria-labelledby="assistance-title"]',
    );
    for (const a of quebec) {
      expect(a.fr).toBeDefined();
      expect(text(section)).toContain(a.fr ?? '');
      expect(text(section)).not.toContain(a.text);
    }
    expect(
      render('/fr/montreal/')
        .querySelector('[aria-labelledby="assistance-title"] a')
        ?.getAttribute('href'),
    ).toBe('/fr/canada/quebec/#assistance-title');
    expect(site.facts.provinces.get('NU')?.assistance).toBeUndefined();
    expect(render('/iqaluit/').querySelector('[aria-labelledby="assistance-title"]')).toBeNull();
  });

  it('is checked: a province with French pages needs its French', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(
      data,
      'provinces.json',
      (p: { provinces: Array<{ code: string; assistance?: Array<{ fr?: string }> }> }) => {
        const nb = p.provinces.find((x) => x.code === 'NB');
        if (nb?.assistance?.[0]) delete nb.assistance[0].fr;
      },
    );
    const issues = await dataIssues(data);
    const nbIndex = [...site.facts.provinces.keys()].indexOf('NB');
    expect(
      issues.find(
        (i) =>
          i.file.endsWith('provinces.json') &&
          i.record === 'NB' &&
          i.field === `provinces.${nbIndex}.assistance.0.fr`,
      )?.message,
    ).toMatch(/is required: NB has French pages/);
  });
});
