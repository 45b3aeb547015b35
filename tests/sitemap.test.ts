import { statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseSitemap, parseSitemapIndex } from 'sitemap';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { buildSitemaps } from '../src/generate/sitemap.js';
import { buildPages } from '../src/pages.js';
import { loadSite } from '../src/site/load.js';
import { absoluteUrl } from '../src/urls.js';
import { dataCopy, FIXTURE_DATA, fixtureSite } from './helpers.js';

describe('sitemap.xml', async () => {
  const site = await fixtureSite();
  const pages = buildPages(site);
  const indexable = pages.filter((p) => p.sitemap !== null);

  it('parses and lists exactly the indexable pages, with their priorities and dates', async () => {
    const [file, ...rest] = buildSitemaps(
      site,
      pages,
      (p) => (p.path === '/faq/' ? '2025-01-31' : undefined),
      '2026-11-22',
    );
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
    expect(priority('/canada/fire-damage-claims/')).toBe(0.7);
    // Consolidated into the city's page, so not listed.
    for (const path of ['/toronto/about/', '/toronto/free-consultation/', '/toronto/scarborough/'])
      expect(priority(path)).toBeUndefined();
    for (const i of items) {
      expect(['daily', 'weekly', 'monthly']).toContain(i.changefreq);
      expect(i.lastmod).toMatch(i.url.endsWith('/faq/') ? /^2025-01-31/ : /^2026-11-22/);
    }
    const xml = file?.contents.toString() ?? '';
    for (const hidden of ['/confirmation/', '/sitemap/<', '/404'])
      expect(xml).not.toContain(hidden);
  });

  it('splits into numbered files under an index above the threshold', async () => {
    const files = buildSitemaps(site, pages, () => undefined, '2026-11-22', 3);
    const expected = Math.ceil(indexable.length / 3);
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
    const base = "https://example.com/a&b's/";
    const odd = await loadSite(FIXTURE_DATA, { baseUrl: base });
    const [file] = buildSitemaps(odd, buildPages(odd), () => undefined, '2026-11-22');
    const xml = file?.contents.toString() ?? '';
    expect(xml).toContain('<loc>https://example.com/a&amp;b&apos;s/faq/</loc>');
    const items = await parseSitemap(Readable.from(xml));
    expect(items.map((i) => i.url)).toContain(`${base}faq/`);
  });
});

describe('lastmod', () => {
  it('is the day a page last changed, kept across builds; the legal pages and posts give their own', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    const dates = async () => {
      const xml = await readFile(path.join(out, 'sitemap.xml'), 'utf8');
      return Object.fromEntries(
        [...xml.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc><lastmod>([^<]*)<\/lastmod>/g)].map(
          (m) => [m[1], m[2]],
        ),
      );
    };
    await generate({ dataDir: data, outDir: out, lastmod: '2026-01-05' });
    const first = await dates();
    expect(first['/toronto/']).toBe('2026-01-05');
    expect(first['/privacy/']).toBe('2024-03-14');
    expect(first['/terms/']).toBe('2024-03-14');
    const site = await fixtureSite();
    const post = site.content.posts[0];
    expect(first[`/blog/${post?.slug}/`]).toBe(post?.date);

    // A month later only Vancouver's description changed: only its page has a new date.
    const file = path.join(data, 'cities/bc.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    cities[0].description = `${cities[0].description} Its older homes sit on the floodplain.`;
    await writeFile(file, JSON.stringify(cities, null, 2));
    await generate({ dataDir: data, outDir: out, lastmod: '2026-02-05' });
    const second = await dates();
    expect(second['/vancouver/']).toBe('2026-02-05');
    const changed = Object.keys(second).filter((p) => second[p] !== first[p]);
    expect(changed).toEqual(['/vancouver/']);

    // Nothing changed: the same dates, and sitemap.xml is not written again.
    const written = statSync(path.join(out, 'sitemap.xml')).mtimeMs;
    await generate({ dataDir: data, outDir: out, lastmod: '2026-03-05' });
    expect(await dates()).toEqual(second);
    expect(statSync(path.join(out, 'sitemap.xml')).mtimeMs).toBe(written);
  });
});
