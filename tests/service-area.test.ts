import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'node-html-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveNotFound } from '../src/client/not-found.js';
import { buildPages } from '../src/pages.js';
import { CANADA_FEE_TERMS } from '../src/site/content-schema.js';
import { loadSite } from '../src/site/load.js';
import {
  ALBERTA_FIRM,
  type albertaSettings,
  makeAlbertaFirm,
  putSampleFigureBack,
} from './alberta-firm.js';
import { attrs } from './checks/site-files.js';
import {
  BUNDLED_DATA,
  dataCopy,
  dataIssues,
  editJson,
  runCli,
  scanTree,
  textOf,
} from './helpers.js';
import { pageRenderer } from './render-pages.js';

const SAMPLE_LABEL = 'Sample: replace before publishing';
const NATIONWIDE = /across canada|canada-wide|partout au canada/i;

/** The bundled data set's cities, by province code. */
async function bundledCities(): Promise<Map<string, string>> {
  const site = await loadSite(BUNDLED_DATA);
  return new Map(site.cities.map((c) => [c.slug, c.provinceCode ?? '']));
}

/** Every HTML file of a built folder, by its path under it. */
async function htmlFiles(dist: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const rel of await readdir(dist, { recursive: true }))
    if (rel.endsWith('.html')) out.set(rel, await readFile(path.join(dist, rel), 'utf8'));
  return out;
}

const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => m[1]);

describe('a firm licensed in Alberta only, published from its own folder with generate --strict', () => {
  let site = '';
  let dist = '';
  let pages: Map<string, string>;
  let strict: ReturnType<typeof runCli>;
  beforeAll(async () => {
    const copy = await dataCopy(BUNDLED_DATA);
    site = copy.dir;
    dist = path.join(site, 'dist');
    await makeAlbertaFirm(site);
    // The checkout's CLI, run in the site folder: its data/, public/ and dist/.
    strict = runCli(['generate', '--strict'], { cwd: site });
    pages = await htmlFiles(dist);
  }, 240_000);

  it('builds, with no page of a city outside Alberta and no French page', async () => {
    expect(strict.code, strict.stderr).toBe(0);
    expect(strict.stdout).toMatch(/Every page meets the thresholds/);
    const cities = await bundledCities();
    const tops = new Set([...pages.keys()].map((rel) => rel.split('/')[0] ?? ''));
    const published = [...cities].filter(([slug]) => tops.has(slug));
    expect(published.map(([, code]) => code).every((code) => code === 'AB')).toBe(true);
    expect(published.length).toBe([...cities.values()].filter((c) => c === 'AB').length);
    expect(tops.has('fr')).toBe(false);
    // Under canada/, Alberta's page is the only province's.
    const provinces = [...pages.keys()].filter((rel) =>
      /^canada\/(ontario|quebec|british-columbia|new-brunswick|saskatchewan)\//.test(rel),
    );
    expect(provinces).toEqual([]);
    expect(pages.has('canada/alberta/index.html')).toBe(true);
    // And no page links to one, nor to any page that is not there.
    const elsewhere = [...cities].filter(([, code]) => code !== 'AB').map(([slug]) => slug);
    const links = new RegExp(`href="/(${elsewhere.join('|')})/`);
    expect([...pages].filter(([, html]) => links.test(html)).map(([rel]) => rel)).toEqual([]);
    const files = new Set((await readdir(dist, { recursive: true })).map(String));
    const broken = [...pages].flatMap(([rel, html]) =>
      [...attrs(html, 'href'), ...attrs(html, 'src')]
        .filter((url) => url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/api/'))
        .map((url) => decodeURIComponent(url.split(/[?#]/)[0] ?? '').slice(1))
        .filter(
          (target) =>
            !files.has(target.endsWith('/') || target === '' ? `${target}index.html` : target),
        )
        .map((target) => `${rel}: /${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('speaks of Alberta, never of all Canada, in its heroes, share images and structured data', () => {
    const home = parse(pages.get('index.html') ?? '');
    expect(textOf(home.querySelector('.hero'))).toContain(
      'Licensed public adjusters across Alberta',
    );
    expect(home.querySelector('title')?.textContent).toBe(
      'Prairie Claim Advocates: Licensed Public Adjusters Across Alberta',
    );
    for (const [rel, html] of pages) {
      const root = parse(html);
      for (const hero of root.querySelectorAll('.hero'))
        expect(textOf(hero), rel).not.toMatch(NATIONWIDE);
      // A share image's words are its alt text (src/share/cards.ts cardAlt).
      const alt = root.querySelector('meta[property="og:image:alt"]')?.getAttribute('content');
      expect(alt ?? '', rel).not.toMatch(NATIONWIDE);
      for (const ld of jsonLdOf(html)) expect(ld, rel).not.toMatch(NATIONWIDE);
    }
    const canada = parse(pages.get('canada/index.html') ?? '');
    expect(canada.querySelector('meta[property="og:image:alt"]')?.getAttribute('content')).toBe(
      'Prairie Claim Advocates. Licensed Public Adjusters Across Alberta. Free Claim Assessment: 403-555-0142 ext. 7',
    );
    const business = JSON.parse(jsonLdOf(pages.get('index.html') ?? '')[0] ?? '{}');
    expect(business.areaServed).toEqual([
      {
        '@type': 'AdministrativeArea',
        name: 'Alberta',
        containedInPlace: { '@type': 'Country', name: 'Canada' },
      },
    ]);
    expect(business.telephone).toBe('+14035550142;ext=7');
    expect(business.openingHours).toEqual(['Mo-Fr 08:30-17:00']);
    expect(business.legalName).toBe(ALBERTA_FIRM.legalName);
  });

  it("lists in sitemap.xml exactly the area's indexable pages", async () => {
    const loaded = await loadSite(path.join(site, 'data'), {
      publicDir: path.join(site, 'public'),
    });
    const indexable = buildPages(loaded)
      .filter((p) => p.sitemap)
      .map((p) => p.path);
    const sitemap = await readFile(path.join(dist, 'sitemap.xml'), 'utf8');
    const listed = [
      ...sitemap.matchAll(/<loc>https:\/\/www\.prairie-claims\.example(\/[^<]*)<\/loc>/g),
    ].map((m) => m[1]);
    expect(listed.sort()).toEqual(indexable.sort());
    // An Alberta city whose data answers the four questions (tests/city-answers.test.ts).
    expect(listed).toContain('/strathcona-county/');
    expect(listed).toContain('/canada/alberta/');
    expect(listed.filter((p) => p === '/toronto/' || p?.startsWith('/fr/'))).toEqual([]);
  });

  it('says who the firm is on About, Contact and in the footer, and names its adjusters', () => {
    const about = pages.get('about/index.html') ?? '';
    const { licence } = ALBERTA_FIRM;
    for (const html of [
      about,
      pages.get('contact/index.html') ?? '',
      pages.get('faq/index.html') ?? '',
    ]) {
      expect(html).toContain(ALBERTA_FIRM.legalName);
      expect(html).toContain('200-1010 8 Avenue SW, Calgary, AB T2P 1J2');
      expect(html).toContain(`Alberta: ${licence.issuedBy} licence ${licence.number}`);
    }
    const aboutRoot = parse(about);
    expect(textOf(aboutRoot.querySelector('#adjusters-title'))).toBe('Our Adjusters');
    const adjusters = aboutRoot.querySelectorAll('.adjusters > li strong').map(textOf);
    expect(adjusters).toEqual([...ALBERTA_FIRM.adjusters]);
    // With her portrait, resized.
    expect(
      aboutRoot.querySelector('.adjusters img.portrait, .adjusters .portrait img'),
    ).not.toBeNull();
    // On the pages of the cities each serves, and not elsewhere.
    const calgary = parse(pages.get('calgary/index.html') ?? '');
    expect(textOf(calgary.querySelector('#adjusters-title'))).toBe('Our adjusters serving Calgary');
    expect(calgary.querySelectorAll('.adjusters > li strong').map(textOf)).toEqual([
      ALBERTA_FIRM.adjusters[0],
    ]);
    expect(pages.get('edmonton/index.html')).toContain(ALBERTA_FIRM.adjusters[1]);
    expect(pages.get('red-deer/index.html')).not.toContain('adjusters-title');
    // Nothing sample is left, so nothing is labelled.
    for (const [rel, html] of pages) expect(html, rel).not.toContain(SAMPLE_LABEL);
  });

  it("offers Alberta's cities on the not-found page, and finds no city outside it", async () => {
    const notFound = parse(pages.get('404.html') ?? '');
    expect(notFound.querySelectorAll('[data-not-found="city"] .chip').map(textOf)).toEqual([
      'Calgary',
      'Edmonton',
      'Red Deer',
      'Strathcona County',
    ]);
    const index =
      notFound.querySelector('[data-city-index]')?.getAttribute('data-city-index') ?? '';
    const cities = (
      JSON.parse(await readFile(path.join(dist, index), 'utf8')) as [string, number][]
    ).map(([slug, population]) => ({ slug, population }));
    expect(resolveNotFound('/toronto/', cities)).toEqual({ screen: 'city', typed: 'toronto' });
    expect(resolveNotFound('/calgry/', cities)).toEqual({ redirect: '/calgary/' });
  });

  it('labels a sample marker put back, and --strict refuses it, naming its file and field', async () => {
    const before = await scanTree(dist);
    const { file, field } = await putSampleFigureBack(site);
    const refused = runCli(['generate', '--strict'], { cwd: site });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Not ready to publish \(1 problem\):/);
    expect(refused.stderr).toContain(
      `${file}, field ${field}: "95% Success Rate" is a sample figure`,
    );
    expect(await scanTree(dist)).toEqual(before);
    const loose = runCli(['generate', '--no-audit'], { cwd: site });
    expect(loose.code, loose.stderr).toBe(0);
    expect(loose.stdout).toContain('content/about.json: figures "95% Success Rate"');
    const about = parse(await readFile(path.join(dist, 'about/index.html'), 'utf8'));
    const stats = about
      .querySelectorAll('.stat')
      .map((s) => [textOf(s.querySelector('dd')), textOf(s.querySelector('dt'))]);
    expect(stats).toEqual([
      [`95% ${SAMPLE_LABEL}`, 'Success Rate'],
      ['24/7', 'Emergency Response'],
    ]);
  }, 120_000);
});

/** A site's pages rendered in process, as a build renders them. */

describe('the bundled demo as it ships', () => {
  it('labels every item its data marks as a sample, in English and in French', async () => {
    const site = await loadSite(BUNDLED_DATA);
    const { render } = pageRenderer(site);
    const about = render('/about/');
    // Each testimonial, each sample figure.
    const cards = about.querySelectorAll('.carousel-list .testimonial');
    expect(cards).toHaveLength(6);
    for (const card of cards)
      expect(textOf(card.querySelector('.sample-label'))).toBe(SAMPLE_LABEL);
    expect(about.querySelectorAll('.stat .sample-label')).toHaveLength(2);
    const home = render('/');
    const badges = home.querySelectorAll('.badge');
    expect(badges.map((b) => b.querySelector('.sample-label') !== null)).toEqual([
      false,
      true,
      false,
    ]);
    // The settings still holding samples (the name, the address, the number) on every page.
    expect(textOf(home.querySelector('.sample-banner'))).toBe(
      `${SAMPLE_LABEL} (site settings: name, web address, e-mail, privacy e-mail and phone number)`,
    );
    const french = render('/fr/a-propos/');
    // The French label as French writes it, a no-break space before the colon.
    const label = 'Exemple\u00a0: à remplacer avant la mise en ligne';
    expect(french.querySelector('.sample-banner .sample-label')?.textContent).toBe(label);
    expect(french.querySelectorAll('.stat .sample-label').map((l) => l.textContent)).toEqual([
      label,
      label,
    ]);
    // No rating of a sample reaches the structured data, nor a sample figure.
    const ld = jsonLdOf(about.toString()).join('\n');
    expect(ld).not.toContain('aggregateRating');
    expect(ld).not.toMatch(/1000\+|95%/);
  });

  it('--strict refuses to publish it, naming every sample marker, and writes nothing', async () => {
    const { dir } = await dataCopy(BUNDLED_DATA);
    const out = path.join(dir, 'dist');
    const r = runCli(['generate', '--data', BUNDLED_DATA, '--out', out, '--strict']);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe('Not ready to publish (17 problems):');
    const named = lines.slice(1).map((l) => l.replace(/: .*$/, ''));
    expect(named).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => `  - data/site.json, field sample.${i}`),
      ...[1, 2, 3, 4, 5, 6].map(
        (i) => `  - data/content/testimonials.json, record #${i}, field sample`,
      ),
      ...['stats.0.sample', 'stats.1.sample', 'badges.1.sample'].map(
        (f) => `  - data/content/about.json, field ${f}`,
      ),
      ...['stats.0.sample', 'stats.1.sample', 'badges.1.sample'].map(
        (f) => `  - data/fr/content/about.json, field ${f}`,
      ),
    ]);
    expect(r.stderr).toContain(
      'data/site.json, field sample.4: "phone" still holds the bundled sample value',
    );
    expect(await readdir(dir)).toEqual(['data']);
  });
});

/** A copy of the bundled data with these settings merged into site.json. */
async function withSettings(settings: Record<string, unknown>) {
  const copy = await dataCopy(BUNDLED_DATA);
  await editJson(copy.data, 'site.json', (s: Record<string, unknown>) => {
    Object.assign(s, settings);
  });
  return copy;
}

describe('a service area', () => {
  it('of cities publishes those cities and their province, named in the pages', async () => {
    const { data } = await withSettings({ serviceArea: { cities: ['calgary', 'edmonton'] } });
    const site = await loadSite(data);
    expect(site.cities.map((c) => c.slug)).toEqual(['calgary', 'edmonton']);
    expect(site.national.name).toBe('Calgary and Edmonton');
    expect(site.national.areas.map((a) => a.slug)).toEqual(['alberta']);
    expect(site.languages.has('fr')).toBe(false);
    const { pages, render } = pageRenderer(site);
    expect(pages.some((p) => p.path === '/red-deer/')).toBe(false);
    const home = render('/');
    expect(textOf(home.querySelector('#cities-title'))).toBe(
      'Public Adjusters in the Cities We Serve',
    );
    expect(textOf(home.querySelector('.hero'))).toContain(
      'Licensed public adjusters across Calgary and Edmonton',
    );
    expect(render('/canada/fire-damage-claims/').querySelector('h1')?.textContent).toBe(
      'Fire Damage Claims in Calgary and Edmonton',
    );
    const alberta = render('/canada/alberta/').toString();
    expect(alberta).toContain('href="/calgary/"');
    expect(alberta).not.toContain('href="/red-deer/"');
  });

  it('in Québec and New Brunswick keeps their French pages, which speak of them in French', async () => {
    const { data } = await withSettings({ serviceArea: { provinces: ['QC', 'NB'] } });
    const site = await loadSite(data);
    const { pages, render } = pageRenderer(site);
    expect(pages.some((p) => p.path === '/toronto/')).toBe(false);
    expect(pages.some((p) => p.path === '/fr/montreal/')).toBe(true);
    expect(pages.some((p) => p.path === '/fr/moncton/')).toBe(true);
    const french = render('/fr/');
    expect(textOf(french.querySelector('.hero'))).toContain(
      'Des experts en sinistre partout au Nouveau-Brunswick et au Québec',
    );
    expect(french.querySelector('title')?.textContent).toContain(
      'Des experts en sinistre partout au Nouveau-Brunswick et au Québec',
    );
    // The national pages name the area with its articles, contracted as French does.
    expect(render('/fr/canada/').querySelector('h1')?.textContent).toBe(
      'Experts en sinistre du Nouveau-Brunswick et du Québec',
    );
    expect(textOf(render('/').querySelector('.hero'))).toContain(
      'Licensed public adjusters across New Brunswick and Quebec',
    );
    const quebec = await withSettings({ serviceArea: { provinces: ['QC'] } });
    const alone = pageRenderer(await loadSite(quebec.data));
    expect(alone.render('/fr/canada/dommages-incendie/').querySelector('h1')?.textContent).toMatch(
      /au Québec$/,
    );
    // Its national pages are Québec's: none promises the rest of Canada's fee.
    for (const page of alone.pages.filter((p) => p.city?.national && !p.area)) {
      expect(`${page.title} ${page.description}`, page.path).not.toMatch(CANADA_FEE_TERMS);
      expect(textOf(alone.render(page.path).querySelector('.hero')), page.path).not.toMatch(
        CANADA_FEE_TERMS,
      );
    }
    // Québec City's own pages keep "à Québec".
    expect(alone.render('/fr/quebec-city/').querySelector('title')?.textContent).toMatch(
      /^Experts en sinistre à Québec/,
    );
  });

  it('outside Québec and New Brunswick has no French pages, and does not check their French', async () => {
    const { data } = await withSettings({ serviceArea: { provinces: ['AB'] } });
    await editJson(data, 'fr/places.json', (p: { cities: Record<string, unknown> }) => {
      delete p.cities.laval;
    });
    const site = await loadSite(data);
    expect(site.languages.has('fr')).toBe(false);
    expect(buildPages(site).some((p) => p.lang === 'fr')).toBe(false);
  });

  it('naming a city or province the data set does not hold is a data error naming the field', async () => {
    const { data } = await withSettings({
      serviceArea: { provinces: ['AB'], cities: ['calgary', 'atlantis'] },
    });
    await editJson(data, 'site.json', (s: { serviceArea: { provinces: string[] } }) => {
      s.serviceArea.provinces.push('XX');
    });
    expect((await dataIssues(data)).map((i) => [i.field, i.message])).toEqual([
      ['serviceArea.provinces.1', expect.stringContaining('must be one of: AB, BC')],
    ]);
    await editJson(data, 'site.json', (s: { serviceArea: { provinces: string[] } }) => {
      s.serviceArea.provinces = ['AB'];
    });
    expect((await dataIssues(data)).map((i) => [i.field, i.message])).toEqual([
      [
        'serviceArea.cities.1',
        '"atlantis" is not a city of the data set (a city\'s slug, as in data/cities/*.json)',
      ],
    ]);
    await editJson(data, 'site.json', (s: { serviceArea: unknown }) => {
      s.serviceArea = {};
    });
    expect((await dataIssues(data)).map((i) => i.field)).toEqual(['serviceArea']);
  });

  it("without its province's licence is a warning at generate, and refused by --strict", async () => {
    const { dir, data } = await dataCopy(BUNDLED_DATA);
    await makeAlbertaFirm(dir);
    await editJson(data, 'site.json', (s: ReturnType<typeof albertaSettings>) => {
      (s.business as { licences: unknown[] }).licences = [];
    });
    const loose = runCli(['validate'], { cwd: dir });
    expect(loose.code, loose.stderr).toBe(0);
    expect(loose.stdout).toContain(
      'business.licences: none for Alberta (AB), in the service area (generate --strict refuses to publish without it)',
    );
    const refused = runCli(['generate', '--strict'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'data/site.json, field business.licences: has no licence for Alberta (AB), which is in serviceArea: Alberta Insurance Council licenses adjusters there',
    );
    expect(await readdir(dir)).not.toContain('dist');
  });
});
