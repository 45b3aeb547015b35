import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPages } from '../src/pages.js';
import { answersAll, cityAnswers, untold } from '../src/site/city-answers.js';
import type { LocalFact } from '../src/site/facts-schema.js';
import { loadSite } from '../src/site/load.js';
import { BUNDLED_DATA } from './helpers.js';
import { sharedBuild } from './shared-build.js';

const site = await loadSite(BUNDLED_DATA);
const pages = buildPages(site);
const dist = await sharedBuild(BUNDLED_DATA);
const html = (p: string) => readFileSync(path.join(dist, p, 'index.html'), 'utf8');

const cityHomes = pages.filter((p) => p.route === 'city-home' && p.city && !p.city.national);
const indexed = cityHomes.filter((p) => p.sitemap !== null);
const consolidated = cityHomes.filter((p) => p.sitemap === null);

/** The four labelled answers of a page: each answer's label and its listed facts' text. */
function answersOn(page: string) {
  const out = new Map<string, { label: string; items: string[] }>();
  for (const m of page.matchAll(
    /<div class="answer" data-answer="(\w+)"><dt>(.*?)<\/dt><dd>(.*?)<\/dd><\/div>/g,
  )) {
    const items = [...(m[3] ?? '').matchAll(/<li>(.*?)<\/li>/g)].map((i) => i[1] ?? '');
    out.set(m[1] ?? '', { label: m[2] ?? '', items });
  }
  return out;
}

const canonicalOf = (page: string) =>
  /<link rel="canonical" href="https?:\/\/[^/"]+([^"]*)"/.exec(page)?.[1] ?? null;
const noindex = (page: string) => page.includes('<meta name="robots" content="noindex"/>');

describe("a city's page answers a homeowner's four questions", () => {
  it('indexes the cities that answer them, in English and French, and consolidates the rest', () => {
    const english = indexed.filter((p) => p.lang === 'en').map((p) => p.city?.slug);
    const french = indexed.filter((p) => p.lang === 'fr').map((p) => p.city?.slug);
    // The cities whose bundled data answers all four (December 2026): a fact added or dropped
    // changes this list, and docs/content-audit.md's count with it.
    expect([...english].sort()).toEqual([
      'calgary',
      'chatham-kent',
      'coquitlam',
      'gatineau',
      'grande-prairie',
      'greater-sudbury',
      'hamilton',
      'kamloops',
      'kingston',
      'kitchener',
      'markham',
      'mississauga',
      'montreal',
      'newmarket',
      'niagara-falls',
      'ottawa',
      'peterborough',
      'quebec-city',
      'richmond-hill',
      'saanich',
      'sarnia',
      'saskatoon',
      'st-albert',
      'st-catharines',
      'strathcona-county',
      'toronto',
      'vancouver',
      'vaughan',
      'victoria',
      'waterloo',
      'windsor',
      'winnipeg',
    ]);
    // A city's French page is indexed as its English one is (Gatineau's, Quebec City's and
    // Montréal's: Québec's assistance gives its deadline to apply; New Brunswick's does not yet).
    for (const p of cityHomes.filter((c) => c.lang === 'fr'))
      expect(french.includes(p.city?.slug), p.path).toBe(english.includes(p.city?.slug));
    expect(french).toContain('gatineau');
    expect(french).toContain('quebec-city');
    expect(french).toContain('montreal');
    expect(consolidated.length).toBeGreaterThan(indexed.length);
  });

  it('reads all four, each with facts cited at their source, on every indexed city page', () => {
    for (const p of indexed) {
      const city = p.city;
      if (!city) throw new Error(p.path);
      const lang = site.languages.get(p.lang) ?? site;
      const answers = cityAnswers(lang.facts, city);
      const read = answersOn(html(p.path));
      expect([...read.keys()], p.path).toEqual(['call', 'offers', 'province', 'permits']);
      for (const [q, { label, items }] of read) {
        expect(label, `${p.path} ${q}`).not.toBe('');
        expect(items.length, `${p.path} ${q}`).toBeGreaterThan(0);
        expect(items.length, `${p.path} ${q}`).toBe(answers[q as keyof typeof answers].length);
        for (const item of items) {
          // "(Source: <a href="https://...">Publisher</a>...)" after every fact.
          expect(item, `${p.path} ${q}`).toMatch(/<span class="source"> .*<a href="https:\/\//);
          const text = item.slice(0, item.indexOf('<span'));
          expect(text.length, `${p.path} ${q}`).toBeGreaterThan(40);
        }
      }
      // On a French page, in French where the data gives it.
      if (p.lang === 'fr') {
        const offered = answers.offers[0] as LocalFact;
        expect(read.get('offers')?.items[0], p.path).toContain(
          (offered.fr ?? offered.text).slice(0, 30).replace(/'/g, '&#x27;'),
        );
      }
      // The province's assistance answers what it covers, excludes and by when to apply.
      expect(untold(answers.province), p.path).toEqual([]);
      expect(read.get('province')?.label, p.path).toContain(city.province ?? '—');
    }
  });

  it('leaves out of the index every city page that does not, pointing at an indexed page', () => {
    for (const p of consolidated) {
      const city = p.city;
      if (!city) throw new Error(p.path);
      expect(answersAll(cityAnswers(site.facts, city)), p.path).toBe(false);
      const own = html(p.path);
      expect(noindex(own), p.path).toBe(true);
      expect(own.includes('data-answer='), p.path).toBe(false);
      const target = canonicalOf(own);
      expect(target, p.path).not.toBeNull();
      const file = path.join(dist, target ?? '', 'index.html');
      expect(existsSync(file), `${p.path} -> ${target}`).toBe(true);
      const there = readFileSync(file, 'utf8');
      expect(noindex(there), `${p.path} -> ${target}`).toBe(false);
      expect(canonicalOf(there), `${p.path} -> ${target}`).toBe(target);
    }
  });

  it("tells the province's permit rule where the city's own data has none", () => {
    const hamilton = site.bySlug.get('hamilton');
    if (!hamilton) throw new Error('hamilton');
    const ontario = site.facts.provinces.get('ON')?.permits ?? [];
    expect(ontario.length).toBeGreaterThan(0);
    expect(cityAnswers(site.facts, hamilton).permits).toEqual(ontario);
    const read = answersOn(html('/hamilton/'));
    expect(read.get('permits')?.items[0]).toContain('Building Code Act');
    // A city's own permit fact comes before the province's.
    const toronto = site.bySlug.get('toronto');
    if (!toronto) throw new Error('toronto');
    expect(cityAnswers(site.facts, toronto).permits.map((f) => f.source.publisher)).toEqual([
      'City of Toronto',
    ]);
  });

  it("does not count a call line alone, nor a neighbourhood's or a region's fact, as the city's own", () => {
    const toronto = site.bySlug.get('toronto');
    if (!toronto) throw new Error('toronto');
    const all = cityAnswers(site.facts, toronto);
    expect(answersAll(all)).toBe(true);
    expect(answersAll({ ...all, offers: [] })).toBe(false);
    expect(answersAll({ ...all, call: [] })).toBe(false);
    expect(answersAll({ ...all, permits: [] })).toBe(false);
    expect(
      answersAll({ ...all, province: all.province.filter((f) => !f.tells?.includes('excludes')) }),
    ).toBe(false);
    const local = new Map(site.facts.local);
    local.set(
      'toronto',
      (local.get('toronto') ?? []).map((f) => ({ ...f, area: toronto.areas[0]?.name ?? 'x' })),
    );
    expect(answersAll(cityAnswers({ ...site.facts, local }, toronto))).toBe(false);
    // A region's facts are told on each of its cities, but do not index them: Brampton's are
    // all Peel's, Mississauga has its own.
    const brampton = site.bySlug.get('brampton');
    if (!brampton) throw new Error('brampton');
    const peel = cityAnswers(site.facts, brampton);
    expect(peel.call.length).toBeGreaterThan(0);
    expect(peel.call.every((f) => f.region === 'Peel')).toBe(true);
    expect(answersAll(peel)).toBe(false);
    expect(answersAll({ ...peel, call: all.call, offers: all.offers })).toBe(true);
    expect(answersOn(html('/brampton/')).size).toBe(0);
  });
});
