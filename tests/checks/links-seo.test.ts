import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'node-html-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { build } from '../../src/build/build.js';
import { BUNDLED_DATA, ROOT, tempDir } from '../helpers.js';
import { attrs, type BuiltFile, pathOfFile, readSite } from './site-files.js';

const BASE = 'https://www.claimright.ca';
let files: BuiltFile[];
let byRel: Map<string, BuiltFile>;
let pages: BuiltFile[];
let indexable: BuiltFile[];

beforeAll(async () => {
  const out = path.join(await tempDir(), 'dist');
  await build({ dataDir: BUNDLED_DATA, outDir: out, baseUrl: BASE });
  files = await readSite(out);
  byRel = new Map(files.map((f) => [f.rel, f]));
  pages = files.filter((f) => f.rel.endsWith('.html'));
  indexable = pages.filter((f) => !f.text.includes('<meta name="robots" content="noindex"/>'));
}, 120_000);

/** The built file an internal URL resolves to, the way the static host serves it. */
function resolve(url: string): string | null {
  const p = decodeURIComponent(url.split(/[?#]/)[0] ?? '');
  if (p === '/') return 'index.html';
  const rel = p.replace(/^\//, '').replace(/\/$/, '');
  if (byRel.has(rel)) return rel;
  if (byRel.has(`${rel}/index.html`)) return `${rel}/index.html`;
  return null;
}

const internal = (url: string) => url.startsWith('/') && !url.startsWith('//');

describe('links across the whole built site', () => {
  it('every internal href and src in every file resolves to a built file', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const f of files) {
      if (!f.rel.endsWith('.html')) continue;
      for (const url of [...attrs(f.text, 'href'), ...attrs(f.text, 'src')]) {
        if (url.startsWith('#')) continue;
        if (!internal(url)) {
          // The only other schemes a page may use.
          if (!/^(tel:\+1\d{10}|mailto:[^@\s]+@[^@\s]+|https:\/\/)/.test(url))
            broken.push(`${f.rel}: ${url} (unexpected scheme)`);
          continue;
        }
        checked++;
        if (!resolve(url)) broken.push(`${f.rel}: ${url}`);
      }
    }
    expect(broken.slice(0, 20), `${broken.length} broken links`).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  });

  it('every in-page anchor names an element on that page', () => {
    const broken: string[] = [];
    for (const f of pages) {
      for (const url of attrs(f.text, 'href').filter((u) => u.startsWith('#'))) {
        if (!f.text.includes(`id="${url.slice(1)}"`)) broken.push(`${f.rel}: ${url}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every indexable page is reachable by links from the home page', () => {
    const seen = new Set(['index.html']);
    const queue = ['index.html'];
    while (queue.length) {
      const f = byRel.get(queue.shift() ?? '');
      if (!f) continue;
      for (const url of attrs(f.text, 'href').filter(internal)) {
        const rel = resolve(url);
        if (rel?.endsWith('.html') && !seen.has(rel)) {
          seen.add(rel);
          queue.push(rel);
        }
      }
    }
    const unreachable = indexable.filter((f) => !seen.has(f.rel)).map((f) => f.rel);
    expect(unreachable).toEqual([]);
  });
});

describe('sitemap.xml and robots.txt', () => {
  it('validates against the sitemaps.org schema', async () => {
    const xsd = await readFile(path.join(ROOT, 'node_modules/sitemap/schema/sitemap.xsd'), 'utf8');
    const result = await validateXML({
      xml: [{ fileName: 'sitemap.xml', contents: byRel.get('sitemap.xml')?.text ?? '' }],
      schema: [xsd],
    });
    expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists exactly the indexable pages', () => {
    const locs = [...(byRel.get('sitemap.xml')?.text ?? '').matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (m) => m[1],
    );
    const expected = indexable
      .filter((f) => f.rel !== '404.html')
      .map((f) => `${BASE}${pathOfFile(f.rel)}`);
    expect(locs.length).toBe(expected.length);
    expect(new Set(locs)).toEqual(new Set(expected));
  });

  it('robots.txt names the sitemap', () => {
    expect(byRel.get('robots.txt')?.text).toContain(`Sitemap: ${BASE}/sitemap.xml`);
  });
});

describe('SEO of every indexable page', () => {
  it('has one h1, lang, a unique title and description of sensible length, a self canonical, Open Graph and valid JSON-LD', () => {
    const problems: string[] = [];
    const titles = new Map<string, string>();
    const descriptions = new Map<string, string>();
    for (const f of indexable) {
      if (f.rel === '404.html') continue;
      const root = parse(f.text);
      const where = pathOfFile(f.rel);
      const h1 = root.querySelectorAll('h1').length;
      if (h1 !== 1) problems.push(`${where}: ${h1} h1 elements`);
      if (root.querySelector('html')?.getAttribute('lang') !== 'en-CA')
        problems.push(`${where}: lang is not en-CA`);
      const title = root.querySelector('title')?.textContent ?? '';
      if (title.length < 20 || title.length > 70)
        problems.push(`${where}: title is ${title.length} characters: "${title}"`);
      if (titles.has(title))
        problems.push(`${where}: title "${title}" is also on ${titles.get(title)}`);
      titles.set(title, where);
      const description =
        root.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
      if (description.length < 70 || description.length > 160)
        problems.push(`${where}: description is ${description.length} characters`);
      if (descriptions.has(description))
        problems.push(`${where}: description is also on ${descriptions.get(description)}`);
      descriptions.set(description, where);
      const canonical = root.querySelector('link[rel="canonical"]')?.getAttribute('href');
      if (canonical !== `${BASE}${where}`) problems.push(`${where}: canonical is ${canonical}`);
      for (const prop of ['og:title', 'og:description', 'og:url', 'og:type', 'og:site_name']) {
        if (!root.querySelector(`meta[property="${prop}"]`)?.getAttribute('content'))
          problems.push(`${where}: no ${prop}`);
      }
      for (const s of root.querySelectorAll('script[type="application/ld+json"]')) {
        try {
          const data = [JSON.parse(s.textContent)].flat();
          if (!data.every((d) => d['@context'] === 'https://schema.org' && d['@type']))
            problems.push(`${where}: JSON-LD without @context or @type`);
        } catch (err) {
          problems.push(`${where}: JSON-LD does not parse: ${(err as Error).message}`);
        }
      }
    }
    expect(problems.slice(0, 30), `${problems.length} problems`).toEqual([]);
  });
});
