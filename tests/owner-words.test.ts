import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSite } from '../src/site/load.js';
import { BUNDLED_DATA, dataCopy, dataIssues, editJson, ROOT, textOf } from './helpers.js';
import { pageRenderer } from './render-pages.js';

/** The README's example of the five texts owners change first, as it stands there. */
async function readmeExample(): Promise<{ strings: Record<string, Record<string, string>> }> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const block = /The five owners change first:\s*```json\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no example of the five texts');
  return JSON.parse(block);
}

describe("a site folder's own words, key by key (data/i18n/<lang>.json)", () => {
  it("holds only the texts the owner changes (the README's five); every other is claimsite's", async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    const mine = await readmeExample();
    await writeFile(path.join(data, 'i18n/en.json'), JSON.stringify(mine));
    const bundled = await loadSite(BUNDLED_DATA);
    const site = await loadSite(data);
    const { home, about, cityHero, layout } = mine.strings;
    expect(site.t.home.heroTitle).toBe(home?.heroTitle);
    expect(site.t.home.heroLead).toBe(home?.heroLead);
    expect(site.t.cityHero.feeStandard).toBe(cityHero?.feeStandard);
    expect(site.t.layout.footerTagline).toBe(layout?.footerTagline);
    // Everything else: claimsite's own, the headline naming the region as before.
    expect(site.t.home.eyebrow).toBe(bundled.t.home.eyebrow);
    expect(site.t.routes.homeHeadline).toBe('Licensed Public Adjusters Across Canada');
    expect(site.t.questionnaire).toEqual(bundled.t.questionnaire);
    const page = pageRenderer(site).render('/');
    expect(page.querySelector('h1')?.textContent).toBe(home?.heroTitle);
    expect(textOf(page.querySelector('.footer-tagline'))).toBe(layout?.footerTagline);
    expect(textOf(page.querySelector('.hero'))).toContain(cityHero?.feeStandard);
    expect(textOf(pageRenderer(site).render('/about/').querySelector('.hero .lead'))).toBe(
      about?.lead?.replace('{place}', 'Canada'),
    );
    // French keeps claimsite's French.
    expect(site.languages.get('fr')?.t.home.heroTitle).toBe(
      bundled.languages.get('fr')?.t.home.heroTitle,
    );
  });

  it('in French too: one key given, the rest French', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await writeFile(
      path.join(data, 'i18n/fr.json'),
      JSON.stringify({
        strings: { home: { heroTitle: 'Évaluation gratuite de vos dommages au Québec' } },
      }),
    );
    const bundled = await loadSite(BUNDLED_DATA);
    const french = (await loadSite(data)).languages.get('fr');
    expect(french?.t.home.heroTitle).toBe('Évaluation gratuite de vos dommages au Québec');
    expect(french?.t.home.heroLead).toBe(bundled.languages.get('fr')?.t.home.heroLead);
  });

  it("with a service area, names the key of an own text that still says Canada where claimsite's names the area", async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await writeFile(
      path.join(data, 'i18n/en.json'),
      JSON.stringify({ strings: { home: { eyebrow: 'Licensed public adjusters across Canada' } } }),
    );
    // Without a service area, the owner's words stand.
    expect(await dataIssues(data)).toEqual([]);
    await editJson(data, 'site.json', (s: Record<string, unknown>) => {
      s.serviceArea = { provinces: ['AB'] };
    });
    expect((await dataIssues(data)).map((i) => [i.file, i.record, i.message])).toEqual([
      [
        expect.stringMatching(/i18n\/en\.json$/),
        'strings.home.eyebrow',
        expect.stringContaining(
          'says "Canada", but serviceArea in site.json says where the firm works',
        ),
      ],
    ]);
  });
});
