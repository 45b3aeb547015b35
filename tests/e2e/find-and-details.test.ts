import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_DATA } from '../helpers.js';
import { axeViolations, browserAndSite, openPage, type Page, WIDTHS } from './harness.js';

// The bundled site: six large cities, the provinces, the French pages.
const env = browserAndSite(BUNDLED_DATA);
const strings = async (lang: string) =>
  JSON.parse(await readFile(path.join(BUNDLED_DATA, `i18n/${lang}.json`), 'utf8')).strings;
const en = await strings('en');
const fr = await strings('fr');

/** One page of each kind a visitor meets first, in both languages, and the not-found page. */
const PAGES = [
  '/',
  '/contact/',
  '/about/',
  '/faq/',
  '/toronto/',
  '/toronto/fire-damage-claims/',
  '/canada/',
  '/fr/',
  '/fr/nous-joindre/',
  '/fr/montreal/',
  '/fr/montreal/dommages-incendie/',
  '/blog/no-such-post/',
];

/** The site's number as each language writes it (site.json: 1-888-339-9809). */
const PHONE = { en: '1-888-339-9809', fr: '1\u00a0888\u00a0339-9809' };

/** The lines each phone number on the page takes: its text's boxes, by their top edge. */
function phoneLines(page: Page) {
  return page.evaluate(() => {
    const out: Array<{ text: string; lines: number }> = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      for (const m of text.matchAll(/1\D{1,3}888\D{1,3}339\D{1,3}9809/g)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        if (rects.length === 0) continue; // not shown (a closed menu, a hidden screen)
        out.push({ text: m[0], lines: new Set(rects.map((r) => Math.round(r.top))).size });
      }
    }
    return out;
  });
}

/**
 * Every control drawn as a button (a background or a border around a link or a button): the
 * room between its words (and icon) and its edges, left and right.
 */
function buttonPadding(page: Page) {
  return page.evaluate(() => {
    const out: Array<{ label: string; left: number; right: number }> = [];
    for (const el of document.querySelectorAll<HTMLElement>('a, button')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || !el.checkVisibility({ visibilityProperty: true })) continue;
      const style = getComputedStyle(el);
      const filled = style.backgroundColor !== 'rgba(0, 0, 0, 0)';
      const bordered = parseFloat(style.borderLeftWidth) > 0 && style.borderLeftStyle !== 'none';
      if (!filled && !bordered) continue;
      const rects: DOMRect[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        rects.push(...[...range.getClientRects()].filter((r) => r.width > 1));
      }
      for (const svg of el.querySelectorAll('svg')) rects.push(svg.getBoundingClientRect());
      if (rects.length === 0) continue;
      out.push({
        label: `${el.className || el.tagName} "${el.textContent?.trim().slice(0, 30)}"`,
        left: Math.min(...rects.map((r) => r.left)) - box.left,
        right: box.right - Math.max(...rects.map((r) => r.right)),
      });
    }
    return out;
  });
}

describe('the details, in Chromium', () => {
  for (const width of WIDTHS)
    it(`each phone number on one line, written one way per language, at ${width}px`, async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      for (const p of PAGES) {
        await page.goto(`${env.site.url}${p}`);
        const found = await phoneLines(page);
        expect(found.length, p).toBeGreaterThan(0);
        const written = p.startsWith('/fr/') ? PHONE.fr : PHONE.en;
        for (const f of found) {
          expect(f.text, p).toBe(written);
          expect(f.lines, `${p} ${f.text}`).toBe(1);
        }
      }
      expect(errors).toEqual([]);
      await context.close();
    });

  it('shows a phone the way back on one line, each item a link and no separator after the last', async () => {
    const { page, context, errors } = await openPage(env.browser, 375);
    const found: string[] = [];
    for (const p of [
      '/canada/free-consultation/',
      '/toronto/fire-damage-claims/',
      '/toronto/the-annex/',
      '/fr/montreal/dommages-incendie/',
      '/fr/montreal/consultation-gratuite/',
    ]) {
      await page.goto(`${env.site.url}${p}`);
      const trail = await page.evaluate(() => {
        const shown = [...document.querySelectorAll<HTMLElement>('.breadcrumbs li')].filter(
          (li) => li.getClientRects().length > 0,
        );
        const last = shown.at(-1);
        const tops = new Set(shown.map((li) => Math.round(li.getBoundingClientRect().top)));
        return {
          items: shown.length,
          links: shown.filter((li) => li.querySelector('a[href]')).length,
          after: last ? getComputedStyle(last, '::after').content : 'none',
          lines: tops.size,
          heading: document.querySelector('h1')?.textContent ?? '',
        };
      });
      // The page's own name is the heading just below; the trail keeps only the links back.
      if (trail.items < 1 || trail.links !== trail.items)
        found.push(`${p}: ${JSON.stringify(trail)}`);
      if (trail.after !== 'none' || trail.lines !== 1) found.push(`${p}: ${JSON.stringify(trail)}`);
      if (!trail.heading.trim()) found.push(`${p}: no heading`);
    }
    expect(found).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of WIDTHS)
    it(`every button keeps room either side of its words at ${width}px`, async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      let seen = 0;
      for (const p of PAGES) {
        await page.goto(`${env.site.url}${p}`);
        for (const b of await buttonPadding(page)) {
          seen++;
          expect(b.left, `${p} ${b.label}`).toBeGreaterThanOrEqual(8);
          expect(b.right, `${p} ${b.label}`).toBeGreaterThanOrEqual(8);
        }
      }
      expect(seen).toBeGreaterThan(PAGES.length * 2);
      expect(errors).toEqual([]);
      await context.close();
    });

  for (const [lang, home, t] of [
    ['en', '/', en],
    ['fr', '/fr/', fr],
  ] as const)
    it(`the menu's toggle becomes its close control over a dimmed page (${lang})`, async () => {
      const { page, context, errors } = await openPage(env.browser, 375);
      await page.goto(`${env.site.url}${home}`);
      const toggle = page.locator('[data-menu-toggle]');
      const main = page.locator('#main h1');
      const behind = () =>
        page.evaluate(() => {
          const el = document.elementFromPoint(20, innerHeight / 2);
          return {
            tag: el?.tagName,
            dim: getComputedStyle(document.body, '::after').backgroundColor,
          };
        });
      expect(await toggle.getAttribute('aria-label')).toBeNull();
      expect(await toggle.textContent()).toBe(t.layout.menu);
      expect((await behind()).tag).not.toBe('BODY');

      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      // Its name and its look say close: the three bars cross.
      expect(await toggle.textContent()).toBe(t.layout.closeMenu);
      const bars = await toggle
        .locator('.menu-icon')
        .evaluate((el) => [
          getComputedStyle(el, '::before').transform,
          getComputedStyle(el).backgroundColor,
        ]);
      expect(bars[0]).not.toBe('none');
      expect(bars[1]).toBe('rgba(0, 0, 0, 0)');
      // The page behind is dimmed and taps on it reach the dimmer, not the page.
      const dimmed = await behind();
      expect(dimmed.tag).toBe('BODY');
      expect(dimmed.dim).toMatch(/^rgba\(0, 0, 0, 0\.[1-9]/);
      expect(await page.locator('#site-menu').isVisible()).toBe(true);
      if (lang === 'en') {
        const blog = page.locator('#site-menu ul a', { hasText: t.layout.footerBlog });
        expect(await blog.getAttribute('href')).toBe('/blog/');
        expect(await blog.isVisible()).toBe(true);
      }
      expect(await axeViolations(page, `${home} menu open`)).toEqual([]);

      // A tap on the dimmed page closes it, and the toggle is the menu's again.
      await page.mouse.click(20, 400);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.textContent()).toBe(t.layout.menu);
      await page.waitForTimeout(300);
      expect(await main.isVisible()).toBe(true);
      expect((await behind()).tag).not.toBe('BODY');
      expect(errors).toEqual([]);
      await context.close();
    });

  it('the footer folds into columns on a phone, a third of its old 1,246 px at most', async () => {
    for (const width of WIDTHS) {
      const { page, context } = await openPage(env.browser, width);
      for (const p of ['/', '/fr/', '/toronto/', '/fr/montreal/']) {
        await page.goto(`${env.site.url}${p}`);
        const footer = await page.locator('.site-footer').evaluate((el) => ({
          height: el.getBoundingClientRect().height,
          lefts: [...el.querySelectorAll('.footer-grid > section')].map((s) =>
            Math.round(s.getBoundingClientRect().left),
          ),
          overflow: el.scrollWidth > el.clientWidth,
        }));
        expect(footer.overflow, p).toBe(false);
        expect(footer.lefts, p).toHaveLength(4);
        if (width === 375) {
          expect(footer.height, p).toBeLessThanOrEqual(430);
          expect(new Set(footer.lefts).size, p).toBe(2);
        } else {
          expect(new Set(footer.lefts).size, p).toBe(4);
        }
      }
      await context.close();
    }
  });
});

describe('finding a city, in Chromium', () => {
  for (const width of WIDTHS)
    it(`the home page's search finds a mistyped city, in English and French, at ${width}px`, async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/`);
      // The six cities and the province pages instead of the wall of links: one screen or two.
      const finder = await page
        .locator('.city-finder')
        .evaluate((el) => el.getBoundingClientRect().height);
      expect(finder).toBeLessThan(width === 375 ? 1400 : 800);
      await page.locator('#city-search').fill('torono');
      await page.locator('#city-search').press('Enter');
      await page.waitForURL('**/toronto/');

      await page.goto(`${env.site.url}/`);
      await page.locator('#city-search').fill('Atlantis Lost');
      await page
        .locator('.city-finder')
        .getByRole('button', { name: en.home.searchButton, exact: true })
        .click();
      await expect
        .poll(() => page.locator('.city-finder [data-city-search-none]').isVisible())
        .toBe(true);
      expect(page.url()).toBe(`${env.site.url}/`);

      await page.goto(`${env.site.url}/fr/`);
      await page.locator('#city-search').fill('Montral');
      await page.locator('#city-search').press('Enter');
      await page.waitForURL('**/fr/montreal/');
      // A city with no French pages opens in English.
      await page.goto(`${env.site.url}/fr/`);
      await page.locator('#city-search').fill('Vancover');
      await page.locator('#city-search').press('Enter');
      await page.waitForURL('**/vancouver/');
      expect(errors).toEqual([]);
      await context.close();
    });

  it('the 404 page: Page not found, a mistyped city and claim sent to their pages', async () => {
    const { page, context, errors } = await openPage(env.browser, 375);
    const res = await page.goto(`${env.site.url}/blog/no-such-post/`);
    expect(res?.status()).toBe(404);
    await expect.poll(() => page.locator('[data-not-found="page"]').isVisible()).toBe(true);
    expect(await page.locator('[data-not-found="city"]').isVisible()).toBe(false);
    expect(await page.locator('h1:visible').textContent()).toBe('Page not found');
    expect(await axeViolations(page, '404 page')).toEqual([]);
    // Its search works as the home page's.
    await page.locator('#not-found-search').fill('calgray');
    await page.locator('#not-found-search').press('Enter');
    await page.waitForURL('**/calgary/');

    await page.goto(`${env.site.url}/torono/`);
    await page.waitForURL('**/toronto/');
    await page.goto(`${env.site.url}/toronto/water-damage/`);
    await page.waitForURL('**/toronto/flood-damage-claims/');
    await page.goto(`${env.site.url}/fr/mont-real/`);
    await page.waitForURL('**/fr/montreal/');

    // The spec's City Not Found stays for a city's page under an unknown name.
    await page.goto(`${env.site.url}/atlantis/public-adjusters/`);
    await expect.poll(() => page.locator('[data-typed-slug]').textContent()).toBe('"atlantis"');
    expect(await page.locator('h1:visible').textContent()).toBe('City Not Found');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('/canada/ lists the provinces and territories, each a link to its page', async () => {
    const { page, context, errors } = await openPage(env.browser, 1280);
    await page.goto(`${env.site.url}/canada/`);
    const links = page.locator('section[aria-labelledby="provinces-title"] a');
    expect(await links.count()).toBe(13);
    await links.filter({ hasText: 'Nova Scotia' }).click();
    await page.waitForURL('**/canada/nova-scotia/');
    expect(errors).toEqual([]);
    await context.close();
  });
});
