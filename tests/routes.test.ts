import { describe, expect, it } from 'vitest';
import { buildPages } from '../src/pages.js';
import { fixtureSite } from './helpers.js';

describe('the page list from the fixture data set', async () => {
  const site = await fixtureSite();
  const pages = buildPages(site);
  const paths = pages.map((p) => p.path);

  it('has the site pages, the blog, 13 pages per city and one per area', () => {
    const sitePages = [
      '/',
      '/about/',
      '/services/',
      '/faq/',
      '/contact/',
      '/privacy/',
      '/terms/',
      '/blog/',
      '/blog/public-adjuster-fees-explained/',
      '/sitemap/',
      '/confirmation/',
      '/form-error/',
      '/404.html',
    ];
    expect(paths.slice(0, sitePages.length)).toEqual(sitePages);
    // 4 cities + canada, each 13 city pages; 12 city areas + 13 provinces.
    expect(pages.filter((p) => p.city && !p.area)).toHaveLength(5 * 13);
    expect(pages.filter((p) => p.area)).toHaveLength(12 + 13);
    expect(pages).toHaveLength(13 + 65 + 25);
  });

  it('lists every page of one city exactly', () => {
    const toronto = paths.filter((p) => p.startsWith('/toronto/')).sort();
    expect(toronto).toEqual(
      [
        '/toronto/',
        '/toronto/about/',
        '/toronto/claims-offices/',
        '/toronto/commercial-claims/',
        '/toronto/etobicoke/',
        '/toronto/fire-damage-claims/',
        '/toronto/flood-damage-claims/',
        '/toronto/free-consultation/',
        '/toronto/north-york/',
        '/toronto/other-damage-claims/',
        '/toronto/public-adjusters/',
        '/toronto/residential-claims/',
        '/toronto/scarborough/',
        '/toronto/services/',
        '/toronto/storm-damage-claims/',
        '/toronto/top-adjusters/',
      ].sort(),
    );
  });

  it('gives canada the 13 provinces and territories as area pages', () => {
    const provinces = pages.filter((p) => p.city?.slug === 'canada' && p.area).map((p) => p.path);
    expect(provinces).toHaveLength(13);
    expect(provinces).toContain('/canada/ontario/');
    expect(provinces).toContain('/canada/newfoundland-and-labrador/');
    expect(provinces).toContain('/canada/prince-edward-island/');
    expect(paths).toContain('/canada/public-adjusters/');
  });

  it('folds accents in area slugs', () => {
    expect(paths).toContain('/ottawa/orleans/');
  });

  it('writes each page to its own file, the not-found page to 404.html', () => {
    expect(pages.find((p) => p.path === '/toronto/about/')?.file).toBe('toronto/about/index.html');
    expect(pages.find((p) => p.route === 'not-found')?.file).toBe('404.html');
    expect(new Set(pages.map((p) => p.file)).size).toBe(pages.length);
  });

  it('addresses every folder page with a trailing slash, the form static hosts serve directly', () => {
    for (const p of pages) expect(p.path === '/404.html' || p.path.endsWith('/')).toBe(true);
  });

  it('gives every page a unique title and description', () => {
    expect(new Set(pages.map((p) => p.title)).size).toBe(pages.length);
    expect(new Set(pages.map((p) => p.description)).size).toBe(pages.length);
  });

  it('uses the spec titles on the questionnaire pages', () => {
    const title = (p: string) => pages.find((x) => x.path === p)?.title;
    expect(title('/toronto/top-adjusters/')).toBe('Choosing a Public Adjuster in Toronto');
    expect(title('/toronto/claims-offices/')).toBe('Where to Report a Claim in Toronto');
    expect(title('/toronto/free-consultation/')).toBe('Free Insurance Claim Assessment in Toronto');
  });

  it('keeps /confirmation, /form-error, /sitemap and the 404 page out of the index', () => {
    const unindexed = pages.filter((p) => p.canonical === null).map((p) => p.path);
    expect(unindexed.sort()).toEqual(['/404.html', '/confirmation/', '/form-error/', '/sitemap/']);
  });

  it('consolidates the pages with nothing of their own into the page that holds their substance', () => {
    const byPath = new Map(pages.map((p) => [p.path, p]));
    const canonical = (path: string) => byPath.get(path)?.canonical;
    // Every city keeps its own page; its other landing pages, About and Services point at it.
    for (const city of ['toronto', 'vancouver', 'whitehorse']) {
      expect(canonical(`/${city}/`)).toBe(`/${city}/`);
      for (const page of ['public-adjusters', 'top-adjusters', 'claims-offices', 'about'])
        expect(canonical(`/${city}/${page}/`)).toBe(`/${city}/`);
    }
    // A claim type's sections are the national page's; the national About is the site's.
    expect(canonical('/toronto/fire-damage-claims/')).toBe('/canada/fire-damage-claims/');
    expect(canonical('/canada/fire-damage-claims/')).toBe('/canada/fire-damage-claims/');
    expect(canonical('/canada/about/')).toBe('/about/');
    // A neighbourhood without a description of its own points at its city.
    expect(canonical('/toronto/scarborough/')).toBe('/toronto/');
    for (const page of pages) {
      if (page.canonical === null || page.canonical === page.path) {
        expect(page.sitemap === null, page.path).toBe(page.canonical === null);
        continue;
      }
      // A consolidated page is out of the sitemap, and what it points at is indexed.
      expect(page.sitemap, page.path).toBeNull();
      expect(byPath.get(page.canonical)?.sitemap, page.path).not.toBeNull();
    }
  });
});
