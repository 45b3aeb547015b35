import { describe, expect, it } from 'vitest';
import { canonicalProblems } from '../src/audit/canonicals.js';
import { buildPages } from '../src/pages.js';
import type { Page } from '../src/routes.js';
import { loadSite } from '../src/site/load.js';
import { BUNDLED_DATA, runCli } from './helpers.js';

const site = await loadSite(BUNDLED_DATA);
const pages = buildPages(site);
const byPath = new Map(pages.map((p) => [p.path, p]));

const page = (path: string, canonical: string | null, indexed: boolean): Page =>
  ({
    path,
    canonical,
    sitemap: indexed ? { priority: 0.5, changefreq: 'monthly' } : null,
  }) as Page;

describe('canonical pages', () => {
  it('never chain nor point at a page left out of the index, in either language', () => {
    expect(pages.some((p) => p.lang === 'fr')).toBe(true);
    expect(canonicalProblems(pages)).toEqual([]);
    // Every consolidated page names an indexed page that names itself.
    for (const p of pages)
      if (p.canonical && p.canonical !== p.path) {
        const target = byPath.get(p.canonical);
        expect(target?.sitemap, p.path).not.toBeNull();
        expect(target?.canonical, p.path).toBe(p.canonical);
      }
  });

  it("send Iqaluit's pages to the page Nunavut's own points at, not to Nunavut's", () => {
    const nunavut = byPath.get('/canada/nunavut/');
    expect(nunavut?.sitemap).toBeNull();
    expect(nunavut?.canonical).toBe('/canada/');
    const iqaluit = pages.filter((p) => p.city?.slug === 'iqaluit');
    // Its claim-type pages go to the national claim type's page, as every city's do.
    const own = iqaluit.filter((p) => p.route !== 'claim-type');
    expect(own.length).toBeGreaterThanOrEqual(10);
    for (const p of own) expect(p.canonical, p.path).toBe('/canada/');
    expect(iqaluit.filter((p) => p.canonical === '/canada/nunavut/')).toEqual([]);
  });

  it('are refused when one chains or points at a noindex page, naming the page', () => {
    expect(
      canonicalProblems([
        page('/a/', '/b/', false),
        page('/b/', '/c/', false),
        page('/c/', '/c/', true),
        page('/d/', '/e/', false),
        page('/e/', null, false),
        page('/f/', '/nowhere/', false),
      ]),
    ).toEqual([
      '/a/: its canonical /b/ points on to /c/ (a chain)',
      '/d/: its canonical /e/ is not indexed (noindex)',
      '/f/: its canonical /nowhere/ is no page of the site',
    ]);
  });

  it('are checked by validate and by the audit', () => {
    const r = runCli(['validate', '--data', BUNDLED_DATA]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'Canonical pages: none chains or points at a page left out of the index',
    );
  });
});
