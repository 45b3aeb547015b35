import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_DATA } from '../helpers.js';
import { launchBrowser, openPage, type Page, type Site, startSite } from './harness.js';
import { gridProblems, offColumn, runsOfOneGround } from './layout-measures.js';

// The layout as a visitor sees it, measured in Chromium on the bundled site, English and French.
const env = {} as { browser: Browser; site: Site };
beforeAll(async () => {
  [env.browser, env.site] = await Promise.all([launchBrowser(), startSite(BUNDLED_DATA)]);
  // The bundled site's build, on a busy machine, takes more than the default minute.
}, 300_000);
afterAll(async () => {
  await env.browser?.close();
  await env.site?.close();
});

/** One page of each kind with the claim form. */
const FORM_PAGES = [
  '/',
  '/toronto/',
  '/toronto/public-adjusters/',
  '/toronto/top-adjusters/',
  '/toronto/claims-offices/',
  '/toronto/free-consultation/',
  '/toronto/fire-damage-claims/',
  '/toronto/the-annex/',
  '/canada/free-consultation/',
  '/fr/',
  '/fr/montreal/',
  '/fr/montreal/consultation-gratuite/',
  '/fr/montreal/dommages-incendie/',
  '/fr/montreal/outremont/',
];

/** One page of each kind without it. */
const OTHER_PAGES = [
  '/about/',
  '/services/',
  '/faq/',
  '/contact/',
  '/blog/',
  '/toronto/about/',
  '/toronto/services/',
  '/fr/a-propos/',
  '/fr/montreal/services/',
];

describe('the form in the first screen (375 x 667)', () => {
  it('shows the first question whole above the call bar on every page with the form', async () => {
    const { page, context, errors } = await openPage(env.browser, 375, {
      viewport: { width: 375, height: 667 },
    });
    const late: string[] = [];
    for (const path of FORM_PAGES) {
      await page.goto(`${env.site.url}${path}`);
      await page.waitForLoadState('load');
      const [bottom, limit] = await page.evaluate(() => {
        // The first question: the property type's fieldset, both its choices.
        const first = document.querySelector('#claim-form fieldset');
        const bar = document.querySelector('.call-bar');
        return [
          first?.getBoundingClientRect().bottom ?? Number.POSITIVE_INFINITY,
          bar?.getBoundingClientRect().top ?? innerHeight,
        ];
      });
      if (bottom > limit) late.push(`${path}: ends at ${Math.round(bottom)} > ${limit}`);
    }
    expect(late).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/**
 * The hero's two halves at 1280: each holds content over at least 60% of the hero's inner
 * height, so that neither is a tall empty block beside the other.
 */
async function emptyHeroHalves(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const hero = document.querySelector('main .hero .container');
    if (!hero) return ['no hero'];
    const box = hero.getBoundingClientRect();
    const style = getComputedStyle(hero);
    const left = box.left + Number.parseFloat(style.paddingLeft);
    const right = box.right - Number.parseFloat(style.paddingRight);
    const middle = (left + right) / 2;
    const rects: DOMRect[] = [];
    const range = document.createRange();
    const walker = document.createTreeWalker(hero, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim() || n.parentElement?.closest('.visually-hidden, [hidden]'))
        continue;
      range.selectNodeContents(n);
      // Each line as tall as its line box: the words' own boxes leave out the leading.
      const style = getComputedStyle(n.parentElement as Element);
      const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
      for (const r of range.getClientRects()) {
        const extra = Math.max(0, line - r.height) / 2;
        rects.push(new DOMRect(r.left, r.top - extra, r.width, r.height + 2 * extra));
      }
    }
    for (const el of hero.querySelectorAll('img, svg, picture, .hero-form-card, .chip, .button'))
      rects.push(el.getBoundingClientRect());
    const cover = (from: number, to: number) => {
      const spans = rects
        .filter((r) => r.width > 0 && Math.min(r.right, to) - Math.max(r.left, from) > 24)
        .map((r) => [r.top, r.bottom] as const)
        .sort((a, b) => a[0] - b[0]);
      let total = 0;
      let end = Number.NEGATIVE_INFINITY;
      for (const [top, bottom] of spans) {
        if (bottom <= end) continue;
        total += bottom - Math.max(top, end);
        end = bottom;
      }
      return total;
    };
    const height = box.height;
    return [
      ['left', cover(left, middle)],
      ['right', cover(middle, right)],
    ]
      .filter(([, h]) => (h as number) < height * 0.6)
      .map(([side, h]) => `${side} half: ${Math.round(h as number)} of ${Math.round(height)} px`);
  });
}

describe('no empty hero half (1280)', () => {
  it('fills both halves of every page kind with content', async () => {
    const { page, context } = await openPage(env.browser, 1280);
    const found: string[] = [];
    for (const path of [...FORM_PAGES, ...OTHER_PAGES]) {
      await page.goto(`${env.site.url}${path}`);
      await page.waitForLoadState('load');
      found.push(...(await emptyHeroHalves(page)).map((f) => `${path}: ${f}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });
});

/**
 * A page on a slow network arrives in pieces (a label may be cut in two), and Chromium paints what
 * it has between them. A server of the test's own sends each page 2 KB at a time, 120 ms apart
 * (its stylesheet at once, its script a second late); the layout shifts are the ones the browser
 * reports.
 */
async function slowNetwork(origin: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const answer = await fetch(origin + (req.url ?? '/'));
    const body = Buffer.from(await answer.arrayBuffer());
    const type = answer.headers.get('content-type') ?? '';
    res.writeHead(answer.status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    // The script last, a second after the rest, as a phone may get it over a second connection:
    // what it changes must be in place before it runs.
    if (type.includes('javascript')) await new Promise((r) => setTimeout(r, 1000));
    if (!type.startsWith('text/html')) return void res.end(body);
    for (let at = 0; at < body.length; at += 2048) {
      res.write(body.subarray(at, at + 2048));
      await new Promise((r) => setTimeout(r, 120));
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// A phone's first screen, and Lighthouse's (412 x 823), where more of each page shows.
describe.each([
  [375, 667],
  [412, 823],
])('a page arriving piece by piece (%i x %i)', (width, height) => {
  it('never moves what it has already painted, on every page kind', async () => {
    const slow = await slowNetwork(env.site.url);
    const { page, context, errors } = await openPage(env.browser, width, {
      viewport: { width, height },
    });
    const moved: string[] = [];
    for (const path of [...FORM_PAGES, ...OTHER_PAGES]) {
      await page.goto(`${slow.url}${path}`);
      await page.waitForLoadState('load');
      const shifts = await page.evaluate(
        () =>
          new Promise<string[]>((resolve) => {
            type Shift = PerformanceEntry & { value: number; sources?: { node?: Node }[] };
            new PerformanceObserver((list) => {
              resolve(
                (list.getEntries() as Shift[])
                  .filter((e) => e.value > 0)
                  .map((e) => {
                    const node = e.sources?.[0]?.node;
                    const el = node instanceof Element ? node : node?.parentElement;
                    return `${e.value.toFixed(3)} (${el?.className || el?.tagName || 'unknown'})`;
                  }),
              );
            }).observe({ type: 'layout-shift', buffered: true });
            // With no entry at all, the observer is never called.
            setTimeout(() => resolve([]), 500);
          }),
      );
      if (shifts.length) moved.push(`${path}: ${shifts.join(', ')}`);
    }
    await context.close();
    await slow.close();
    expect(moved).toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);
});

const EVERY_PAGE = [...FORM_PAGES, ...OTHER_PAGES];

/**
 * Every page kind in both languages, for the measures of the layout: the pages above and a
 * province, the national page, a city with its neighbourhoods, a guide, the privacy policy,
 * and the French contact, services, FAQ, national, province and privacy pages.
 */
const LAYOUT_PAGES = [
  ...EVERY_PAGE,
  '/canada/',
  '/canada/alberta/',
  '/calgary/',
  '/blog/basement-flood-first-steps/',
  '/privacy/',
  '/fr/canada/',
  '/fr/canada/quebec/',
  '/fr/nous-joindre/',
  '/fr/services/',
  '/fr/faq/',
  '/fr/confidentialite/',
];

describe('no loose ends (375 and 1280)', () => {
  for (const width of [375, 1280]) {
    it(`fills, evens and lines up every grid at ${width} px: rows full or the last one at the grid's start, cards of a row one height, their links on one line, checklists in columns that divide them`, async () => {
      const { page, context } = await openPage(env.browser, width);
      const found: string[] = [];
      for (const path of LAYOUT_PAGES) {
        await page.goto(`${env.site.url}${path}`);
        found.push(...(await gridProblems(page)).map((f) => `${path}: ${f}`));
      }
      expect(found).toEqual([]);
      await context.close();
    });

    it(`keeps every container, grid and divider on the content column at ${width} px`, async () => {
      const { page, context } = await openPage(env.browser, width);
      const found: string[] = [];
      for (const path of LAYOUT_PAGES) {
        await page.goto(`${env.site.url}${path}`);
        found.push(...(await offColumn(page)).map((f) => `${path}: ${f}`));
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }

  it("alternates the grounds of the main part's bands: no two of one ground in a row (1280)", async () => {
    const { page, context } = await openPage(env.browser, 1280);
    const found: string[] = [];
    for (const path of LAYOUT_PAGES) {
      await page.goto(`${env.site.url}${path}`);
      found.push(...(await runsOfOneGround(page)).map((f) => `${path}: ${f}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });
});

describe('the heading first on a phone (375)', () => {
  it('sets every H1 at least 1.5 times the size of the form title', async () => {
    const { page, context } = await openPage(env.browser, 375);
    const found: string[] = [];
    for (const path of [...FORM_PAGES, '/calgary/', '/canada/', '/canada/alberta/']) {
      await page.goto(`${env.site.url}${path}`);
      const [h1, form] = await page.evaluate(() =>
        ['main h1', '#claim-form .form-title'].map((s) => {
          const el = document.querySelector(s);
          return el ? Number.parseFloat(getComputedStyle(el).fontSize) : 0;
        }),
      );
      if (!((h1 ?? 0) >= 1.5 * (form ?? 0)))
        found.push(`${path}: H1 ${h1} px, form title ${form} px`);
    }
    expect(found).toEqual([]);
    await context.close();
  });
});

/**
 * What a finger or a pointer aims at, smaller than 24 x 24 px (WCAG 2.2's target size): links
 * and controls, but for a link inside a sentence (the criterion's inline exception); a radio or
 * check box is aimed at by its label.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('a, button, input, select, textarea')) {
      if (el.closest('[hidden], .visually-hidden, .skip-link, [aria-hidden="true"]')) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || (el as HTMLInputElement).type === 'hidden') continue;
      const parent = el.parentElement;
      const inSentence =
        cs.display === 'inline' &&
        [...(parent?.childNodes ?? [])].some(
          (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
        );
      if (inSentence) continue;
      const box =
        el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox')
          ? (el.closest('label') ?? el)
          : el;
      const r = box.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width < 23.5 || r.height < 23.5)
        out.push(
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`,
        );
    }
    return out;
  });
}

/** Text blocks (paragraphs and list items, in the main part) of more than 75 characters a line. */
async function longLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const ctx = document.createElement('canvas').getContext('2d');
    if (!ctx) return ['no canvas'];
    for (const el of document.querySelectorAll<HTMLElement>('main p, main li, main dd')) {
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text.length <= 75 || el.closest('[hidden], form, .visually-hidden')) continue;
      const cs = getComputedStyle(el);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const perChar = ctx.measureText(text).width / text.length;
      const width =
        el.getBoundingClientRect().width -
        Number.parseFloat(cs.paddingLeft) -
        Number.parseFloat(cs.paddingRight);
      const chars = width / perChar;
      if (chars > 75)
        out.push(`${el.tagName.toLowerCase()} "${text.slice(0, 30)}…" ${Math.round(chars)} a line`);
    }
    return out;
  });
}

describe('targets, measure and calls to action', () => {
  for (const width of [375, 1280]) {
    it(`makes every link and control at least 24 x 24 px at ${width} px`, async () => {
      const { page, context } = await openPage(env.browser, width);
      const found: string[] = [];
      for (const path of LAYOUT_PAGES) {
        await page.goto(`${env.site.url}${path}`);
        found.push(...(await smallTargets(page)).map((f) => `${path}: ${f}`));
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }

  for (const width of [375, 1280]) {
    it(`keeps every text block, lists included, at most 75 characters a line (${width})`, async () => {
      const { page, context } = await openPage(env.browser, width);
      const found: string[] = [];
      for (const path of LAYOUT_PAGES) {
        await page.goto(`${env.site.url}${path}`);
        found.push(...(await longLines(page)).map((f) => `${path}: ${f}`));
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }

  it('gives the calls to action of a page one width on a phone (375)', async () => {
    const { page, context } = await openPage(env.browser, 375);
    const found: string[] = [];
    for (const path of LAYOUT_PAGES) {
      await page.goto(`${env.site.url}${path}`);
      const widths = await page
        .locator('.hero-actions .button, .cta-actions .button')
        .evaluateAll((els) => [
          ...new Set(els.map((el) => Math.round(el.getBoundingClientRect().width))),
        ]);
      if (widths.length > 1) found.push(`${path}: ${widths.join(', ')} px`);
    }
    expect(found).toEqual([]);
    await context.close();
  });
});

describe('the city finder from anywhere', () => {
  for (const width of [375, 1280]) {
    it(`is in the menu of every page kind at ${width} px`, async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      const found: string[] = [];
      for (const path of LAYOUT_PAGES) {
        await page.goto(`${env.site.url}${path}`);
        const toggle = page.locator('[data-menu-toggle]');
        if (await toggle.isVisible()) await toggle.click();
        const field = page.locator('#site-menu form[data-city-search] input');
        await field.waitFor({ state: 'visible', timeout: 2000 }).catch(() => {});
        if (!(await field.isVisible())) found.push(`${path}: no finder in the menu`);
      }
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("is in the home page's first two screens on a phone (375 x 667)", async () => {
    const { page, context } = await openPage(env.browser, 375, {
      viewport: { width: 375, height: 667 },
    });
    for (const path of ['/', '/fr/']) {
      await page.goto(`${env.site.url}${path}`);
      const bottom = await page
        .locator('main form[data-city-search] input')
        .first()
        .evaluate((el) => el.getBoundingClientRect().bottom + scrollY);
      expect(bottom, path).toBeLessThanOrEqual(2 * 667);
    }
    await context.close();
  });

  it('finds a neighbourhood by its name: Beltline (Calgary), Chomedey (Laval, in French)', async () => {
    for (const [width, from, typed, to] of [
      [375, '/toronto/', 'Beltline', '/calgary/beltline/'],
      [1280, '/fr/', 'Chomedey', '/fr/laval/chomedey/'],
      [1280, '/about/', 'calgry', '/calgary/'],
    ] as const) {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}${from}`);
      const toggle = page.locator('[data-menu-toggle]');
      if (await toggle.isVisible()) await toggle.click();
      const field = page.locator('#site-menu form[data-city-search] input');
      await field.fill(typed);
      await Promise.all([page.waitForURL(`**${to}`), field.press('Enter')]);
      expect(new URL(page.url()).pathname, typed).toBe(to);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe('dividers on the content column', () => {
  for (const width of [375, 1280]) {
    it(`lines the footer's divider up with the footer's content at ${width} px`, async () => {
      const { page, context } = await openPage(env.browser, width);
      const found: string[] = [];
      for (const path of ['/', '/fr/', '/toronto/', '/about/']) {
        await page.goto(`${env.site.url}${path}`);
        const [line, content] = await page.evaluate(() => {
          const legal = document.querySelector('.footer-legal') as HTMLElement;
          const box = legal.getBoundingClientRect();
          const before = getComputedStyle(legal, '::before');
          const cs = getComputedStyle(legal);
          const drawn =
            before.content !== 'none' && Number.parseFloat(before.borderTopWidth) > 0
              ? [
                  box.left + Number.parseFloat(before.left),
                  box.right - Number.parseFloat(before.right),
                ]
              : [box.left, box.right];
          return [
            drawn,
            [
              box.left + Number.parseFloat(cs.paddingLeft),
              box.right - Number.parseFloat(cs.paddingRight),
            ],
          ];
        });
        if (
          Math.abs((line?.[0] ?? 0) - (content?.[0] ?? 0)) > 2 ||
          Math.abs((line?.[1] ?? 0) - (content?.[1] ?? 0)) > 2
        )
          found.push(`${path}: divider ${line?.join('-')}, content ${content?.join('-')}`);
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
});
