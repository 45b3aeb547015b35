import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_DATA } from '../helpers.js';
import { launchBrowser, openPage, type Page, type Site, startSite } from './harness.js';

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
 * Every grid of cards on the page: lined up with its section's heading (no stray list padding),
 * its rows full or its last one centred, and the cards of a row of one height.
 */
async function gridProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const grids = [...document.querySelectorAll('main ul, main ol, main dl')].filter((g) => {
      const d = getComputedStyle(g).display;
      return (
        (d === 'grid' || d === 'flex') &&
        g.children.length > 1 &&
        !g.closest('form, [data-carousel], nav')
      );
    });
    for (const g of grids) {
      const name = `${g.tagName.toLowerCase()}.${[...g.classList].join('.')}`;
      const box = g.getBoundingClientRect();
      if (box.width === 0) continue;
      const cs = getComputedStyle(g);
      const inner = {
        left: box.left + Number.parseFloat(cs.paddingLeft),
        right: box.right - Number.parseFloat(cs.paddingRight),
      };
      // Lined up with the section's heading.
      const section = g.closest('section');
      const heading = [...(section?.querySelectorAll('h2') ?? [])].find((h) => !g.contains(h));
      if (heading) {
        const h = heading.getBoundingClientRect();
        if (Math.abs(h.left - inner.left) > 1)
          out.push(
            `${name}: starts at ${Math.round(inner.left)}, its heading at ${Math.round(h.left)}`,
          );
      }
      const items = [...g.children].map((c) => c.getBoundingClientRect()).filter((r) => r.width);
      const rows: DOMRect[][] = [];
      for (const r of items) {
        const row = rows.find((x) => Math.abs((x[0]?.top ?? 0) - r.top) < 2);
        if (row) row.push(r);
        else rows.push([r]);
      }
      const perRow = rows[0]?.length ?? 0;
      // A grid of chips or links may wrap as its words do, and a list set in columns is no row
      // of cards; a grid of cards (each with a border, a shadow or a ground) fills its rows.
      const card = (el: Element): boolean => {
        const c = getComputedStyle(el);
        return (
          Number.parseFloat(c.borderTopWidth) > 0 ||
          c.boxShadow !== 'none' ||
          c.backgroundColor !== 'rgba(0, 0, 0, 0)' ||
          (el.firstElementChild !== null && el.children.length === 1 && card(el.firstElementChild))
        );
      };
      if (cs.display !== 'grid' || !card(g.children[0] as Element)) continue;
      rows.forEach((row, i) => {
        const heights = row.map((r) => Math.round(r.height));
        if (Math.max(...heights) - Math.min(...heights) > 1)
          out.push(`${name}: row ${i + 1} has cards of heights ${heights.join(', ')}`);
        if (i < rows.length - 1 && row.length !== perRow)
          out.push(`${name}: row ${i + 1} has ${row.length} of ${perRow}`);
      });
      const last = rows.at(-1) ?? [];
      if (rows.length > 1 && last.length < perRow) {
        const before = (last[0]?.left ?? 0) - inner.left;
        const after = inner.right - (last.at(-1)?.right ?? 0);
        if (Math.abs(before - after) > 2)
          out.push(`${name}: last row of ${last.length} (of ${perRow}) is not centred`);
      }
    }
    return out;
  });
}

describe('one grid (375 and 1280)', () => {
  for (const width of [375, 1280]) {
    it(`lines up, fills and evens every grid of cards at ${width} px`, async () => {
      const { page, context } = await openPage(env.browser, width);
      const found: string[] = [];
      for (const path of [...FORM_PAGES, ...OTHER_PAGES]) {
        await page.goto(`${env.site.url}${path}`);
        await page.waitForLoadState('load');
        found.push(...(await gridProblems(page)).map((f) => `${path}: ${f}`));
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }
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

describe('the heading first on a phone (375)', () => {
  it('sets every H1 at least 1.5 times the size of the form title', async () => {
    const { page, context } = await openPage(env.browser, 375);
    const found: string[] = [];
    for (const path of FORM_PAGES) {
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
      for (const path of EVERY_PAGE) {
        await page.goto(`${env.site.url}${path}`);
        found.push(...(await smallTargets(page)).map((f) => `${path}: ${f}`));
      }
      expect(found).toEqual([]);
      await context.close();
    });
  }

  it('keeps every text block, lists included, at most 75 characters a line (1280)', async () => {
    const { page, context } = await openPage(env.browser, 1280);
    const found: string[] = [];
    for (const path of [...EVERY_PAGE, '/calgary/', '/canada/alberta/']) {
      await page.goto(`${env.site.url}${path}`);
      found.push(...(await longLines(page)).map((f) => `${path}: ${f}`));
    }
    expect(found).toEqual([]);
    await context.close();
  });

  it('gives the calls to action of a page one width on a phone (375)', async () => {
    const { page, context } = await openPage(env.browser, 375);
    const found: string[] = [];
    for (const path of EVERY_PAGE) {
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
      for (const path of EVERY_PAGE) {
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
