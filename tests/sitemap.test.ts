import { Readable } from 'node:stream';
import { parseSitemap, parseSitemapIndex } from 'sitemap';
import { describe, expect, it } from 'vitest';
import { buildSitemaps } from '../src/generate/sitemap.js';
import { buildPages } from '../src/routes.js';
import { loadSite } from '../src/site/load.js';
import { absoluteUrl } from '../src/urls.js';
import { FIXTURE_DATA, fixtureSite } from './helpers.js';

describe('sitemap.xml', async () => {
  const site = await fixtureSite();
  const pages = buildPages(site);
  const indexable = pages.filter((p) => p.sitemap !== null);

  it('parses and lists exactly the indexable pages, with their priorities', async () => {
    const [file, ...rest] = buildSitemaps(site, pages, '2026-11-22');
    expect(rest).toHaveLength(0);
    expect(file?.file).toBe('sitemap.xml');
    const items = await parseSitemap(Readable.from(file?.contents ?? ''));
    expect(items.map((i) => i.url).sort()).toEqual(
      indexable.map((p) => absoluteUrl(site.settings.baseUrl, p.path)).sort(),
    );
    const byUrl = new Map(items.map((i) => [i.url, i]));
    const priority = (p: string) => byUrl.get(absoluteUrl(site.settings.baseUrl, p))?.priority;
    expect(priority('/')).toBe(1);
    expect(priority('/faq/')).toBe(0.9);
    expect(priority('/privacy/')).toBe(0.9);
    expect(priority('/toronto/')).toBe(0.8);
    expect(priority('/toronto/about/')).toBe(0.8);
    expect(priority('/toronto/free-consultation/')).toBe(0.8);
    expect(priority('/toronto/services/')).toBe(0.8);
    expect(priority('/toronto/fire-damage-claims/')).toBe(0.7);
    expect(priority('/toronto/scarborough/')).toBe(0.6);
    expect(priority('/canada/ontario/')).toBe(0.6);
    for (const i of items) {
      expect(['daily', 'weekly', 'monthly']).toContain(i.changefreq);
      expect(i.lastmod).toMatch(/^2026-11-22/);
    }
    const xml = file?.contents.toString() ?? '';
    for (const hidden of ['/confirmation/', '/sitemap/<', '/404'])
      expect(xml).not.toContain(hidden);
  });

  it('splits into numbered files under an index above the threshold', async () => {
    const files = buildSitemaps(site, pages, '2026-11-22', 30);
    const expected = Math.ceil(indexable.length / 30);
    expect(files.map((f) => f.file)).toEqual([
      'sitemap.xml',
      ...Array.from({ length: expected }, (_, i) => `sitemap-${i + 1}.xml`),
    ]);
    const index = await parseSitemapIndex(Readable.from(files[0]?.contents ?? ''));
    expect(index.map((i) => i.url)).toEqual(
      files.slice(1).map((f) => `https://www.claimright.ca/${f.file}`),
    );
    const all = [];
    for (const f of files.slice(1)) all.push(...(await parseSitemap(Readable.from(f.contents))));
    expect(all).toHaveLength(indexable.length);
    expect(new Set(all.map((i) => i.url)).size).toBe(indexable.length);
  });

  it('escapes a base URL that holds XML-special characters', async () => {
    const base = "https://example.com/a&b's";
    const odd = await loadSite(FIXTURE_DATA, { baseUrl: base });
    const [file] = buildSitemaps(odd, buildPages(odd), '2026-11-22');
    const xml = file?.contents.toString() ?? '';
    expect(xml).toContain('<loc>https://example.com/a&amp;b&apos;s/faq/</loc>');
    const items = await parseSitemap(Readable.from(xml));
    expect(items.map((i) => i.url)).toContain(`${base}/faq/`);
  });
});
