import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'node-html-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { generate } from '../../src/generate/generate.js';
import { HOSTS, type Host, hostAnswer } from '../../src/serve/host-rules.js';
import { pathForFile } from '../../src/urls.js';
import { BUNDLED_DATA, ROOT, tempDir } from '../helpers.js';
import { attrs, type BuiltFile, readSite } from './site-files.js';

/**
 * The whole bundled site, checked as served at a domain's root and from a folder (a GitHub Pages
 * project site): under a folder every link, asset, canonical URL and sitemap entry must carry it,
 * which a site at the root cannot show.
 */
describe.each([
  { BASE: 'https://www.claimright.ca', FOLDER: '' },
  { BASE: 'https://owner.github.io/claims', FOLDER: '/claims' },
])('the site at $BASE/', ({ BASE, FOLDER }) => {
  let files: BuiltFile[];
  let byRel: Map<string, BuiltFile>;
  let pages: BuiltFile[];
  let indexable: BuiltFile[];

  beforeAll(async () => {
    const out = path.join(await tempDir(), 'dist');
    await generate({ dataDir: BUNDLED_DATA, outDir: out, baseUrl: `${BASE}/` });
    files = await readSite(out);
    byRel = new Map(files.map((f) => [f.rel, f]));
    pages = files.filter((f) => f.rel.endsWith('.html'));
    indexable = pages.filter((f) => !f.text.includes('<meta name="robots" content="noindex"/>'));
  }, 240_000);

  /**
   * The file a host serves for an internal URL with no redirect, or null: a link that a host
   * answers with a redirect (or 404), or that is outside the site's folder, is broken for that host.
   */
  function served(host: Host, url: string): string | null {
    const p = decodeURIComponent(url.split(/[?#]/)[0] ?? '');
    if (!p.startsWith(`${FOLDER}/`)) return null;
    const answer = hostAnswer(host, p.slice(FOLDER.length), (rel) => byRel.has(rel));
    return answer.status === 200 ? answer.file : null;
  }

  /** The not-found pages, which hosts serve for unknown addresses, not at an address of their own. */
  const isNotFound = (rel: string) => rel === '404.html' || rel === 'fr/404.html';

  const internal = (url: string) => url.startsWith('/') && !url.startsWith('//');

  /** Every internal URL in a page or its head, JSON-LD and Open Graph included, as written. */
  function internalUrls(f: BuiltFile): string[] {
    const origin = new URL(BASE).origin;
    const absolute = [...f.text.matchAll(/(?:content="|"(?:item|url|@id)":")(https:\/\/[^"#]+)/g)]
      .map((m) => m[1] ?? '')
      .filter((u) => u.startsWith(`${origin}/`))
      .map((u) => u.slice(origin.length));
    // The not-found page's script fetches the city index from here.
    const data = [...f.text.matchAll(/\sdata-city-index="([^"]*)"/g)].map((m) => m[1] ?? '');
    return [...attrs(f.text, 'href'), ...attrs(f.text, 'src'), ...absolute, ...data].filter(
      internal,
    );
  }

  describe('links across the whole built site', () => {
    it('every internal link, canonical, og:url, JSON-LD URL and asset is served with no redirect by every host', () => {
      const broken: string[] = [];
      let checked = 0;
      for (const f of files) {
        if (!f.rel.endsWith('.html')) continue;
        const sources = attrs(f.text, 'src');
        for (const url of [...attrs(f.text, 'href'), ...sources]) {
          if (url.startsWith('#') || internal(url)) continue;
          // The only other schemes a page may use. A link to a fact's source may be a page only
          // served over http; nothing a page loads may be.
          const linked = sources.includes(url) ? /^https:\/\// : /^https?:\/\//;
          if (!/^(tel:\+1\d{10}|mailto:[^@\s]+@[^@\s]+)/.test(url) && !linked.test(url))
            broken.push(`${f.rel}: ${url} (unexpected scheme)`);
        }
        for (const url of internalUrls(f)) {
          checked++;
          for (const host of HOSTS)
            if (!served(host, url)) broken.push(`${f.rel}: ${url} on ${host}`);
        }
      }
      expect(broken.slice(0, 20), `${broken.length} broken links`).toEqual([]);
      expect(checked).toBeGreaterThan(100_000);
    });

    it('every page answers at its path, and the other slash form reaches it with one redirect', () => {
      const problems: string[] = [];
      for (const f of pages) {
        if (isNotFound(f.rel)) continue;
        const p = pathForFile(f.rel);
        const other = p === '/' ? '/index.html' : p.slice(0, -1);
        for (const host of HOSTS) {
          if (served(host, FOLDER + p) !== f.rel) problems.push(`${p} on ${host}`);
          const first = hostAnswer(host, other, (rel) => byRel.has(rel));
          const reached =
            first.status === 200
              ? first.file
              : 'location' in first
                ? served(host, FOLDER + first.location)
                : null;
          if (reached !== f.rel) problems.push(`${other} on ${host}: ${first.status}`);
        }
      }
      expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
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
          const rel = served('cloudflare-pages', url);
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
    it("validates against the sitemaps.org schema, its translations' xhtml:link alternates included", async () => {
      const schemas = path.join(ROOT, 'tests/fixtures/schemas');
      const read = async (dir: string, fileName: string) => ({
        fileName,
        contents: await readFile(path.join(dir, fileName), 'utf8'),
      });
      const text = byRel.get('sitemap.xml')?.text ?? '';
      expect(text).toContain('<xhtml:link rel="alternate" hreflang="fr-CA"');
      const result = await validateXML({
        xml: [{ fileName: 'sitemap.xml', contents: text }],
        schema: [await read(schemas, 'sitemap-with-alternates.xsd')],
        preload: [
          await read(path.join(ROOT, 'node_modules/sitemap/schema'), 'sitemap.xsd'),
          await read(schemas, 'xhtml-link.xsd'),
        ],
      });
      expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
      expect(result.valid).toBe(true);
    });

    it('lists exactly the indexable pages', () => {
      const locs = [...(byRel.get('sitemap.xml')?.text ?? '').matchAll(/<loc>([^<]+)<\/loc>/g)].map(
        (m) => m[1],
      );
      const expected = indexable
        .filter((f) => !isNotFound(f.rel))
        .map((f) => `${BASE}${pathForFile(f.rel)}`);
      expect(locs.length).toBe(expected.length);
      expect(new Set(locs)).toEqual(new Set(expected));
    });

    it('robots.txt names the sitemap', () => {
      expect(byRel.get('robots.txt')?.text).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    });

    it('_headers gives its rules for the paths pages are requested at', () => {
      const headers = byRel.get('_headers')?.text ?? '';
      expect(headers).toMatch(new RegExp(`^${FOLDER}/\\*$`, 'm'));
      expect(headers).toMatch(new RegExp(`^${FOLDER}/assets/\\*$`, 'm'));
    });
  });

  describe('SEO of every indexable page', () => {
    it('has one h1, lang, a unique title and description of sensible length, a self canonical, Open Graph and valid JSON-LD', () => {
      const problems: string[] = [];
      const titles = new Map<string, string>();
      const descriptions = new Map<string, string>();
      for (const f of indexable) {
        if (isNotFound(f.rel)) continue;
        const root = parse(f.text);
        const where = pathForFile(f.rel);
        const h1 = root.querySelectorAll('h1').length;
        if (h1 !== 1) problems.push(`${where}: ${h1} h1 elements`);
        const lang = where.startsWith('/fr/') ? 'fr-CA' : 'en-CA';
        if (root.querySelector('html')?.getAttribute('lang') !== lang)
          problems.push(`${where}: lang is not ${lang}`);
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
});
