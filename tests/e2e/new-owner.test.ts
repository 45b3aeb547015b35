import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadService } from '../../src/lead/handler.js';
import { startServer } from '../../src/serve/server.js';
import { checkedPhone } from '../../src/site/phone.js';
import { DEFAULT_THEME, INK, THEME_PROPERTIES, themeOf, WHITE } from '../../src/site/theme.js';
import { readSite } from '../checks/site-files.js';
import { BUNDLED_DATA, dataCopy, editJson, runCli } from '../helpers.js';
import { pngPixels } from '../png.js';
import { axeViolations, launchBrowser, openPage, WIDTHS } from './harness.js';

/**
 * A new owner, as the README tells one to make the site theirs: a copy of the bundled data with
 * only site.json changed (name, number, addresses, colours, font, logo, and the URL of a GitHub
 * Pages project site) and a logo in public/. Nothing of the bundled brand may be left anywhere
 * the site shows or serves.
 */
const OWNER = {
  siteName: 'Harbour Loss Advocates',
  baseUrl: 'https://harbour.github.io/claims/',
  phone: '(416) 555-0123 ext. 22',
  email: 'hello@harbourloss.ca',
  privacyEmail: 'privacy@harbourloss.ca',
  theme: { colors: { primary: '#1d4d2b', accent: '#b5179e' }, font: 'atkinson-hyperlegible' },
  logo: 'public/brand/logo.svg',
};
const FOLDER = '/claims';
const TEL = 'tel:+14165550123;ext=22';
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 60"><rect width="60" height="60" rx="12" fill="#1d4d2b"/><path d="M14 32l10 10 22-24" fill="none" stroke="#fff" stroke-width="7"/></svg>';

/** Every colour the bundled theme put in pages, stylesheets and images, and the ones it typed in before. */
const OLD_COLOURS = [
  ...new Set([
    ...Object.values(THEME_PROPERTIES).map((field) => themeOf({}).theme[field]),
    '#072a45',
    '#c99700',
    '#e6eef6',
    '#e3ebf3',
    '#e8eef4',
    '#d5e3ef',
    'rgb(11 59 96',
  ]),
].filter((c) => c !== INK && c !== WHITE);

/** The bundled brand, number and addresses in every form a page could write them. */
const OLD_TEXTS = [/claimright/i, /888\D{0,2}339\D{0,2}9809/, /18883399809/];

let dir: string;
let dist: string;
let server: Server;
let url: string;
let browser: Browser;
const leads: Array<{ path: string; body: string }> = [];

beforeAll(async () => {
  const copy = await dataCopy(BUNDLED_DATA);
  dir = copy.dir;
  dist = copy.out;
  await editJson(copy.data, 'site.json', (s: Record<string, unknown>) => {
    Object.assign(s, OWNER);
    delete s.sample;
  });
  await mkdir(path.join(dir, 'public/brand'), { recursive: true });
  await writeFile(path.join(dir, 'public/brand/logo.svg'), LOGO);
  const built = runCli([
    'generate',
    '--data',
    copy.data,
    '--out',
    dist,
    '--public',
    path.join(dir, 'public'),
    '--no-audit',
  ]);
  expect(built.code, built.stderr).toBe(0);
  // The site as its host serves it, under its folder, with a lead endpoint that records.
  ({ server, url } = await startServer({
    dir: dist,
    port: 0,
    host: '127.0.0.1',
    log: () => {},
    // An endpoint that records what the page posted and where: the path is what is tested.
    leads: {
      handle: async (request: Request) => {
        leads.push({ path: new URL(request.url).pathname, body: await request.text() });
        return new Response('{"ok":true}', {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      },
    } as unknown as LeadService,
  }));
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

describe('a new owner who changed site.json only', () => {
  it('finds none of the old brand, number, addresses or colours in any page, stylesheet or file served', async () => {
    const files = (await readSite(dist)).filter((f) => !/\.(png|woff2)$/.test(f.rel));
    expect(files.length).toBeGreaterThan(3000);
    const found: string[] = [];
    for (const f of files) {
      for (const old of OLD_TEXTS) if (old.test(f.text)) found.push(`${f.rel}: ${old}`);
      const lower = f.text.toLowerCase();
      for (const colour of OLD_COLOURS)
        if (lower.includes(colour)) found.push(`${f.rel}: ${colour}`);
    }
    expect(found.slice(0, 20), `${found.length} found`).toEqual([]);
    // What replaced them is there.
    const home = files.find((f) => f.rel === 'index.html')?.text ?? '';
    expect(home).toContain('Harbour Loss Advocates');
    expect(home).toContain('(416) 555-0123 ext. 22');
    expect(home).toContain(
      `<img src="${FOLDER}/brand/logo.svg" alt="Harbour Loss Advocates" width="240" height="60"/>`,
    );
    const privacy = files.find((f) => f.rel === 'privacy/index.html')?.text ?? '';
    expect(privacy).toContain('mailto:privacy@harbourloss.ca');
    const french = files.find((f) => f.rel === 'fr/confidentialite/index.html')?.text ?? '';
    expect(french).toContain('416\u00a0555-0123\u00a0poste\u00a022');
    const css = files.find((f) => /^assets\/site\.[0-9a-f]+\.css$/.test(f.rel))?.text ?? '';
    expect(css).toContain('--color-primary:#1d4d2b;');
    expect(css).toContain('--color-accent:#b5179e;');
    expect(css).toContain('--color-on-accent:#ffffff;');
    expect(css).toContain('font-family:"Atkinson Hyperlegible"');
    expect(css).not.toContain('Source Sans 3');
    // Both faces asked for with the stylesheet, and used only if there by the first paint: a
    // face swapped in later moves the lines it rewraps.
    const preloads = [...home.matchAll(/<link rel="preload" href="([^"]+)" as="font"/g)].map(
      (m) => m[1] ?? '',
    );
    expect(preloads).toEqual([
      expect.stringMatching(/^\/claims\/assets\/atkinson-hyperlegible-400\.[0-9a-f]+\.woff2$/),
      expect.stringMatching(/^\/claims\/assets\/atkinson-hyperlegible-700\.[0-9a-f]+\.woff2$/),
    ]);
    for (const href of preloads)
      expect(existsSync(path.join(dist, href.slice(FOLDER.length))), href).toBe(true);
    expect(css.match(/font-display:optional/g)?.length).toBe(2);
    expect(css).not.toContain('font-display:swap');
  });

  it('calls the new number, with its extension, from every tel: link of every page', async () => {
    const files = (await readSite(dist)).filter((f) => f.rel.endsWith('.html'));
    const tels = new Set<string>();
    let count = 0;
    for (const f of files)
      for (const m of f.text.matchAll(/href="(tel:[^"]*)"/g)) {
        tels.add(m[1] ?? '');
        count++;
      }
    // Besides the owner's, only the insurers' own claims lines (the data's, not a brand's).
    const insurers = JSON.parse(
      await readFile(path.join(BUNDLED_DATA, 'insurers.json'), 'utf8'),
    ) as {
      phone: string;
    }[];
    const theirs = new Set(insurers.map((i) => `tel:${checkedPhone(i.phone).e164}`));
    expect([...tels].filter((t) => !theirs.has(t))).toEqual([TEL]);
    expect(count).toBeGreaterThan(files.length);
    const home = files.find((f) => f.rel === 'index.html')?.text ?? '';
    // Its extension too (issue 44): without it, a caller reaches the switchboard.
    expect(home).toContain('"telephone":"+14165550123;ext=22"');
    expect(home).toContain('"logo":"https://harbour.github.io/claims/brand/logo.svg"');
  });

  it('shares images drawn in the new colours and named and described with the new brand', async () => {
    const home = await readFile(path.join(dist, 'index.html'), 'utf8');
    const og = /<meta property="og:image" content="([^"]+)"/.exec(home)?.[1] ?? '';
    expect(og).toMatch(
      /^https:\/\/harbour\.github\.io\/claims\/assets\/share-page-home\.[0-9a-f]{10}\.png$/,
    );
    expect(/<meta property="og:image:alt" content="([^"]+)"/.exec(home)?.[1]).toBe(
      'Harbour Loss Advocates. Licensed Public Adjusters Across Canada. Free Claim Assessment: (416) 555-0123 ext. 22',
    );
    for (const rel of ['index.html', 'toronto/index.html', 'fr/montreal/index.html']) {
      const html = await readFile(path.join(dist, rel), 'utf8');
      const image =
        /<meta property="og:image" content="[^"]+\/(assets\/[^"]+)"/.exec(html)?.[1] ?? '';
      const png = pngPixels(await readFile(path.join(dist, image)));
      expect(png.at(1190, 10), rel).toBe(OWNER.theme.colors.primary);
      expect(png.at(1190, 620), rel).toBe(OWNER.theme.colors.accent);
      const old = new Set([DEFAULT_THEME.primary, DEFAULT_THEME.accent]);
      let stale = 0;
      for (let y = 0; y < png.height; y += 2)
        for (let x = 0; x < png.width; x += 2) if (old.has(png.at(x, y) as never)) stale++;
      expect(stale, `${rel}: pixels of the old colours`).toBe(0);
    }
  });
});

describe('the site served from its folder, in Chromium', () => {
  it('serves the site under its folder and nothing outside it', async () => {
    const get = (p: string) => fetch(url + p, { redirect: 'manual' });
    expect((await get(`${FOLDER}/`)).status).toBe(200);
    expect((await get(FOLDER)).headers.get('location')).toBe(`${FOLDER}/`);
    const slashless = await get(`${FOLDER}/toronto?ref=ad`);
    expect(slashless.status).toBe(308);
    expect(slashless.headers.get('location')).toBe(`${FOLDER}/toronto/?ref=ad`);
    expect((await get('/toronto/')).status).toBe(404);
    // _headers is written for the folder, and applies there.
    const page = await get(`${FOLDER}/faq/`);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const css =
      /href="(\/claims\/assets\/site\.[0-9a-f]+\.css)"/.exec(await page.text())?.[1] ?? '';
    expect((await get(css)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
  });

  for (const width of WIDTHS)
    it(`shows the home page at ${width}px in the new theme, its font loaded, every request answered, readable`, async () => {
      const { page, context, errors } = await openPage(browser, width);
      const failed: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      });
      page.on('requestfailed', (r) => failed.push(`failed ${r.url()}`));
      await page.goto(`${url}${FOLDER}/`);
      await page.waitForLoadState('networkidle');
      expect(
        await page.evaluate(() => document.fonts.check('700 16px "Atkinson Hyperlegible"')),
      ).toBe(true);
      const button = page.locator('.hero .button-accent').first();
      expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
        'rgb(181, 23, 158)',
      );
      expect(await button.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
      expect(await page.locator('h1').evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(
        /^"Atkinson Hyperlegible", "Atkinson Hyperlegible Fallback"/,
      );
      const logo = page.locator('.site-header .logo img');
      expect(await logo.getAttribute('alt')).toBe('Harbour Loss Advocates');
      expect(await logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(
        0,
      );
      expect(await axeViolations(page, `home at ${width}px`)).toEqual([]);
      await page.screenshot({ path: path.join(dir, `home-${width}.png`) });
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

  it('sends a mistyped city to its page under the folder, in English and in French', async () => {
    const { page, context, errors } = await openPage(browser, 1280);
    await page.goto(`${url}${FOLDER}/torontoo/public-adjusters/`);
    await page.waitForURL(`${url}${FOLDER}/toronto/public-adjusters/`);
    await page.goto(`${url}${FOLDER}/fr/montreal/nulle-part/`);
    await page.waitForURL(`${url}${FOLDER}/fr/montreal/`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('posts the questionnaire to the endpoint under the folder and lands on the confirmation there', async () => {
    const { page, context, errors } = await openPage(browser, 1280);
    await page.goto(`${url}${FOLDER}/toronto/public-adjusters/`);
    const form = page.locator('#main form[data-questionnaire]');
    expect(await form.getAttribute('action')).toBe(`${FOLDER}/api/lead`);
    await page.getByLabel('Residential').check();
    await page.getByLabel('Water').check();
    await form.locator('[data-next]').click();
    await page.getByLabel('Estimated value of the damage').selectOption('100k_250k');
    await page.getByLabel('What happened?').fill('A burst pipe flooded the basement.');
    await form.locator('[data-next]').click();
    await page.getByLabel('Full name').fill('Marie-Claire van der Berg');
    await page.getByRole('textbox', { name: 'Email' }).fill('marie@example.ca');
    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('416-555-0199');
    await page.getByLabel('Property address').fill('12 King St W, Toronto, ON');
    await page.getByLabel('Both').check();
    await form.locator('[data-submit]').click();
    await page.waitForURL(`${url}${FOLDER}/confirmation/?city=Toronto&*`);
    // The endpoint is mounted at the site's /api/lead, which the browser requested under the folder.
    expect(leads.at(-1)?.path).toBe('/api/lead');
    expect(JSON.parse(leads.at(-1)?.body ?? '{}')).toMatchObject({
      page: '/toronto/public-adjusters/',
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
