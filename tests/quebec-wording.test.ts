import { parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { buildPages } from '../src/pages.js';
import { FragmentCache } from '../src/render/fragments.js';
import { renderPage } from '../src/render/render.js';
import type { Page } from '../src/routes.js';
import { shareImages } from '../src/share/share-images.js';
import { loadSite } from '../src/site/load.js';
import { TEMPLATES } from '../templates/pages/index.js';
import { BUNDLED_DATA, PAGE_ASSETS } from './helpers.js';

const site = await loadSite(BUNDLED_DATA);
const pages = buildPages(site);
const assets = PAGE_ASSETS;
const share = shareImages(site);
const fragments = new FragmentCache();

/** Everything a reader or a search engine reads of a page: its text, title, snippet and JSON-LD. */
function readable(page: Page): string {
  const html = renderPage({ site, page, pages, assets, share }, TEMPLATES, fragments);
  const root = parse(html);
  const jsonLd = root
    .querySelectorAll('script[type="application/ld+json"]')
    .map((s) => s.textContent)
    .join(' ');
  for (const s of root.querySelectorAll('script, style')) s.remove();
  const snippet = root.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
  return `${root.querySelector('title')?.textContent ?? ''} ${snippet} ${root.textContent} ${jsonLd}`
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every publisher the data names: a proper name (Ville de Québec) is not the page's spelling. */
function publishers(): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.publisher === 'string') names.add(o.publisher);
      for (const x of Object.values(o)) walk(x);
    }
  };
  walk(site.cities);
  walk([...site.facts.provinces.values()]);
  walk(site.facts.catastrophes);
  return [...names].sort((a, b) => b.length - a.length);
}

const inQuebec = (p: Page) =>
  p.city?.provinceCode === 'QC' || (p.city?.national === true && p.area?.slug === 'quebec');
const checked = pages.filter((p) => p.lang === 'fr' || inQuebec(p));
// Publishers, and institutions and publications a fact names, keep their own names (the Court
// of Québec's, the Gazette officielle du Québec's).
const named = [...publishers(), 'Court of Québec', 'Gazette officielle du Québec'];
const texts = new Map(checked.map((p) => [p.path, readable(p)]));

const REST_OF_CANADA_FEE = /5\s*(-|–|à)\s*15\s*%|only on success|seulement en cas de succès/i;

describe('Québec said one way', () => {
  it('renders the French pages and the Québec pages, the French home and confirmation among them', () => {
    expect(texts.has('/fr/')).toBe(true);
    expect(texts.has('/fr/confirmation/')).toBe(true);
    expect(texts.has('/montreal/')).toBe(true);
    expect(texts.has('/canada/quebec/')).toBe(true);
    expect(checked.length).toBeGreaterThan(1000);
  });

  it('no French or Québec page promises the rest of Canada\'s fee ("5-15%", "only on success")', () => {
    const found = [...texts].filter(([, t]) => REST_OF_CANADA_FEE.test(t)).map(([p]) => p);
    expect(found).toEqual([]);
  });

  it("calls the adjuster's credential one thing on a French page: AMF's certificate in Québec, never a licence there", () => {
    for (const p of checked.filter((p) => p.lang === 'fr')) {
      const t = texts.get(p.path) ?? '';
      const permit = /titulaires? d'un permis|permis d'expert/.test(t);
      const certificate = /titulaires? d'un certificat|certificat d'expert/.test(t);
      expect(permit && certificate, p.path).toBe(false);
      if (inQuebec(p)) expect(permit, p.path).toBe(false);
    }
  });

  it('spells Québec one way on each page (publishers keep their own names)', () => {
    const mixed: string[] = [];
    for (const [path, raw] of texts) {
      let t = raw;
      for (const n of named) t = t.split(n).join(' ');
      const accented = /(?<![-\w])Québec(?![-\w])/.test(t);
      const plain = /(?<![-\w])Quebec(?![-\w])/.test(t);
      if (accented && plain) mixed.push(path);
    }
    expect(mixed).toEqual([]);
  });

  it('writes every phone number on a French page as Québec does (1 877 225-0446)', () => {
    const english = /(?<![\d-])(?:1-)?\d{3}-\d{3}-\d{4}\b/g;
    const found = checked
      .filter((p) => p.lang === 'fr')
      .flatMap((p) =>
        [...(texts.get(p.path) ?? '').matchAll(english)].map((m) => `${p.path} ${m[0]}`),
      );
    expect(found).toEqual([]);
  });
});
