import { describe, expect, it } from 'vitest';
import { BUNDLED_DATA } from '../helpers.js';
import { browserAndSite, openPage } from './harness.js';

// The bundled site: its described neighbourhoods and Québec's pages are page kinds of their own.
const env = browserAndSite(BUNDLED_DATA);

/** One page of each kind that has the shared layout. */
const PAGES = [
  '/',
  '/about/',
  '/services/',
  '/faq/',
  '/contact/',
  '/privacy/',
  '/terms/',
  '/sitemap/',
  '/blog/',
  '/blog/after-a-house-fire/',
  '/toronto/',
  '/toronto/about/',
  '/toronto/services/',
  '/toronto/public-adjusters/',
  '/toronto/fire-damage-claims/',
  '/toronto/the-annex/',
  '/toronto/scarborough/',
  '/canada/ontario/',
  '/montreal/',
  // The not-found page, as an unknown address shows it.
  '/atlantis',
];

describe('on a phone (375x667)', () => {
  it('every page kind shows a tap to call and a way to the form in its first screen', async () => {
    const { page, context, errors } = await openPage(env.browser, 375, {
      viewport: { width: 375, height: 667 },
    });
    for (const path of PAGES) {
      await page.goto(`${env.site.url}${path}`);
      await page.waitForLoadState('load');
      const inFirstScreen = (selector: string) =>
        page.locator(selector).evaluateAll((els) =>
          els.some((el) => {
            const r = el.getBoundingClientRect();
            const style = getComputedStyle(el);
            return (
              r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && style.visibility !== 'hidden'
            );
          }),
        );
      expect(await inFirstScreen('a[href^="tel:"]'), path).toBe(true);
      const form = (await page.locator('#claim-form').count()) > 0;
      const formLink = form ? 'a[href="#claim-form"]' : 'a[href$="/free-consultation/"]';
      expect(await inFirstScreen(`.call-bar ${formLink}`), path).toBe(true);
      if (form) {
        // The form's first field within the first screen and a half.
        const top = await page
          .locator('#claim-form input:not([type=hidden]):not([tabindex="-1"])')
          .first()
          .evaluate((el) => el.getBoundingClientRect().top + scrollY);
        expect(top, path).toBeLessThan(667 * 1.5);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the call bar never covers a focused control: the form, the footer, the last link', async () => {
    const { page, context, errors } = await openPage(env.browser, 375, {
      viewport: { width: 375, height: 667 },
    });
    for (const path of ['/toronto/', '/faq/', '/toronto/fire-damage-claims/']) {
      await page.goto(`${env.site.url}${path}`);
      const targets = [
        '#claim-form input[name="claimType"]',
        '.site-footer a >> nth=-1',
        '.footer-legal a >> nth=-1',
      ];
      for (const target of targets) {
        const el = page.locator(target).first();
        if ((await el.count()) === 0) continue;
        await el.focus();
        const barTop = await page
          .locator('.call-bar')
          .evaluate((e) => e.getBoundingClientRect().top);
        // Focus scrolls the control into view (smoothly, so it is read once it has settled).
        await expect
          .poll(() => el.evaluate((e) => e.getBoundingClientRect().bottom), {
            message: `${path} ${target}`,
          })
          .toBeLessThanOrEqual(barTop);
      }
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('on a desktop (1280)', () => {
  it('shows no call bar: the header holds the phone and the form button', async () => {
    const { page, context } = await openPage(env.browser, 1280);
    await page.goto(`${env.site.url}/toronto/`);
    expect(await page.locator('.call-bar').isVisible()).toBe(false);
    expect(await page.locator('.site-header a[href^="tel:"]').isVisible()).toBe(true);
    await context.close();
  });
});

describe('no text against the screen edge', () => {
  for (const width of [375, 1280]) {
    it(`on any page kind at ${width} px`, async () => {
      const { page, context } = await openPage(env.browser, width);
      const touching: string[] = [];
      for (const path of PAGES) {
        await page.goto(`${env.site.url}${path}`);
        await page.waitForLoadState('load');
        const found = await page.evaluate(() => {
          const out: string[] = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          const range = document.createRange();
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent?.trim()) continue;
            const el = node.parentElement;
            // The moving testimonial strip scrolls past both edges by design.
            if (!el || el.closest('[data-carousel], [hidden], .visually-hidden, .skip-link'))
              continue;
            range.selectNodeContents(node);
            for (const r of range.getClientRects()) {
              // Off the screen altogether (the closed menu slides in from the right): not touching.
              if (r.width === 0 || r.right <= 0 || r.left >= innerWidth) continue;
              if (r.left < 8 || r.right > innerWidth - 8)
                out.push(
                  `${node.textContent.trim().slice(0, 40)} (${Math.round(r.left)}-${Math.round(r.right)})`,
                );
            }
          }
          return out;
        });
        touching.push(...found.map((f) => `${path}: ${f}`));
      }
      expect(touching).toEqual([]);
      await context.close();
    });
  }
});

describe('shared links', () => {
  it('every page kind names a share image that loads at 1200 x 630, with words for it', async () => {
    const { page, context, errors } = await openPage(env.browser, 1280);
    for (const path of PAGES) {
      await page.goto(`${env.site.url}${path}`);
      const meta = (property: string) =>
        page.locator(`meta[property="${property}"]`).getAttribute('content');
      const image = await meta('og:image');
      // Absolute, on the site's own address; served here from the same path.
      expect(image, path).toMatch(/^https:\/\/www\.claimright\.ca\/assets\/share-/);
      const local = `${env.site.url}${new URL(image ?? '').pathname}`;
      const loaded = await page.evaluate(async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      }, local);
      expect(loaded, path).toEqual([1200, 630]);
      expect([await meta('og:image:width'), await meta('og:image:height')], path).toEqual([
        '1200',
        '630',
      ]);
      expect(await meta('og:image:alt'), path).toMatch(
        /^ClaimRight Canada\. .+\. Free Claim Assessment: 1-888-339-9809$/,
      );
      const card = await page.locator('meta[name="twitter:card"]').getAttribute('content');
      expect(card, path).toBe('summary_large_image');
    }
    // A city's pages share its image; a site page has its own.
    const imageOf = async (path: string) => {
      await page.goto(`${env.site.url}${path}`);
      return page.locator('meta[property="og:image"]').getAttribute('content');
    };
    const toronto = await imageOf('/toronto/');
    expect(await imageOf('/toronto/fire-damage-claims/')).toBe(toronto);
    expect(await imageOf('/toronto/the-annex/')).toBe(toronto);
    expect(await imageOf('/faq/')).not.toBe(toronto);
    expect(errors).toEqual([]);
    await context.close();
  });
});
