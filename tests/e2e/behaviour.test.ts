import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DATA, tempDir } from '../helpers.js';
import { browserAndSite, openPage, startSite, WIDTHS } from './harness.js';

const env = browserAndSite();

for (const width of WIDTHS) {
  describe(`at ${width}px`, () => {
    it('FAQ accordion: one answer open per group, the open one closes, keyboard works', async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/faq`);
      const group = page.locator('#general ~ .accordion');
      const buttons = group.locator('[data-accordion-button]');
      const expanded = () =>
        buttons.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-expanded')));
      const visible = () =>
        group
          .locator('.accordion-panel')
          .evaluateAll((ps) => ps.map((p) => !(p as HTMLElement).hidden));
      const n = await buttons.count();
      expect(await expanded()).toEqual(Array(n).fill('false'));
      expect(await visible()).toEqual(Array(n).fill(false));
      await buttons.nth(0).click();
      expect(await expanded()).toEqual(['true', ...Array(n - 1).fill('false')]);
      expect((await visible())[0]).toBe(true);
      await buttons.nth(2).click();
      expect(await expanded()).toEqual(['false', 'false', 'true', ...Array(n - 3).fill('false')]);
      // Another group is independent.
      await page.locator('#process ~ .accordion [data-accordion-button]').first().click();
      expect((await expanded())[2]).toBe('true');
      await buttons.nth(2).click();
      expect(await expanded()).toEqual(Array(n).fill('false'));
      await buttons.nth(1).focus();
      await page.keyboard.press('Enter');
      expect((await expanded())[1]).toBe('true');
      await page.keyboard.press('Space');
      expect((await expanded())[1]).toBe('false');
      expect(errors).toEqual([]);
      await context.close();
    });

    it("testimonial strip holds still until moved by hand, on the heading's column, no card cut", async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/toronto/about`);
      const strip = page.locator('[data-carousel]');
      await strip.scrollIntoViewIfNeeded();
      const pos = () => strip.evaluate((el) => el.scrollLeft);
      const a = await pos();
      await page.waitForTimeout(600);
      expect(await pos()).toBe(a);
      // No Pause button: nothing moves by itself (WCAG 2.2.2 asks for none).
      expect(
        await page
          .locator('#main button')
          .filter({ hasText: /testimonials/i })
          .count(),
      ).toBe(0);
      // Its first card starts where the heading does, and every card shown is shown whole.
      const geometry = await page.evaluate(() => {
        const heading = document.getElementById('testimonials-title')?.getBoundingClientRect();
        const box = document.querySelector('[data-carousel]')?.getBoundingClientRect();
        const cards = [...document.querySelectorAll('[data-carousel] li')].map((li) =>
          li.getBoundingClientRect(),
        );
        return { heading, box, cards };
      });
      const { heading, box, cards } = geometry;
      expect(Math.abs((cards[0]?.left ?? 0) - (heading?.left ?? 0))).toBeLessThanOrEqual(2);
      for (const c of cards) {
        const inside = c.left >= (box?.left ?? 0) - 1 && c.right <= (box?.right ?? 0) + 1;
        const outside = c.left >= (box?.right ?? 0) - 1 || c.right <= (box?.left ?? 0) + 1;
        expect(inside || outside, `card at ${c.left}-${c.right}`).toBe(true);
      }
      // Moved by hand, it stays where it is put, a card at its start.
      await strip.evaluate((el) => {
        el.scrollLeft = (el.querySelector('li')?.getBoundingClientRect().width ?? 0) + 20;
      });
      await page.waitForTimeout(400);
      const b = await pos();
      expect(b).toBeGreaterThan(a);
      await page.waitForTimeout(400);
      expect(await pos()).toBe(b);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('not-found page: redirects to the matching city, or shows the right screen', async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/torontoo/public-adjusters`);
      await page.waitForURL('**/toronto/public-adjusters/');
      expect(await page.locator('h1').textContent()).toBe('Public Adjusters in Toronto');

      await page.goto(`${env.site.url}/VANCOUVER/services`);
      await page.waitForURL('**/vancouver/services/');

      const res = await page.goto(`${env.site.url}/atlantis`);
      expect(res?.status()).toBe(404);
      await expect.poll(() => page.locator('[data-typed-slug]').textContent()).toBe('"atlantis"');
      // One screen shows at a time, each with its heading.
      expect(await page.locator('h1:visible').textContent()).toBe('City Not Found');
      // The spec's four quick cities that the data has: the fixture has no Montréal or Calgary.
      expect(
        await page
          .locator('[data-not-found="city"] .chips a')
          .evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ).toEqual(['/toronto/', '/vancouver/']);

      await page.goto(`${env.site.url}/toronto/meteor-damage-claims`);
      await expect.poll(() => page.locator('[data-not-found="service"]').isVisible()).toBe(true);
      expect(await page.locator('[data-not-found="city"]').isVisible()).toBe(false);
      expect(await page.locator('[data-not-found="service"]').textContent()).toContain(
        'The requested service could not be found.',
      );

      await page.goto(`${env.site.url}/atlantis/top-adjusters`);
      await expect.poll(() => page.locator('[data-not-found="plain"]').isVisible()).toBe(true);
      expect(await page.locator('[data-not-found="plain"]').textContent()).toBe('City not found');

      // Unknown city on a page that uses the national fallback.
      await page.goto(`${env.site.url}/atlantis/fire-damage-claims`);
      await page.waitForURL('**/canada/fire-damage-claims/');

      // A claim type typed short lands on the claim type's page, whose form starts with it.
      await page.goto(`${env.site.url}/toronto/fire-damage`);
      await page.waitForURL('**/toronto/fire-damage-claims/');
      expect(await page.locator('#main form').getByLabel('Fire').isChecked()).toBe(true);
      expect(await page.locator('#main form').getByLabel('Water').isChecked()).toBe(false);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('blog cards and form choices keep clear of the screen edges and of their own padding', async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/blog/`);
      const cards = await page
        .locator('.post-list > li')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
      expect(cards.length).toBeGreaterThan(0);
      const view = page.viewportSize()?.width ?? width;
      for (const r of cards) {
        expect(r.left).toBeGreaterThanOrEqual(16);
        expect(view - r.right).toBeGreaterThanOrEqual(16);
      }
      await page.goto(`${env.site.url}/toronto/fire-damage-claims/`);
      const overflows = await page.locator('#main form .choice').evaluateAll((labels) =>
        labels.flatMap((label) => {
          const box = label.getBoundingClientRect();
          // Only the step on screen: the others are hidden until reached.
          if (box.width === 0) return [];
          const text = label.querySelector('span')?.getBoundingClientRect();
          const pad = Number.parseFloat(getComputedStyle(label).paddingRight);
          return text && text.right > box.right - pad + 0.5 ? [label.textContent] : [];
        }),
      );
      expect(overflows).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("the header's assessment button scrolls to the form on a page that has one", async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/toronto/fire-damage-claims/`);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      if (width < 900) await page.locator('[data-menu-toggle]').click();
      await page.locator('.site-header .button-accent').click();
      await page.waitForURL('**/toronto/fire-damage-claims/#claim-form');
      await expect
        .poll(() => page.locator('#claim-form').evaluate((f) => f.getBoundingClientRect().top))
        .toBeLessThan(page.viewportSize()?.height ?? 0);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('mobile menu: opens, locks scroll, closes on Escape and on a link', async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/toronto`);
      const toggle = page.locator('[data-menu-toggle]');
      if (width >= 1200) {
        // The desktop header shows the links in line and no toggle.
        expect(await toggle.isVisible()).toBe(false);
        expect(await page.locator('#site-menu a[href="/faq/"]').isVisible()).toBe(true);
        await context.close();
        return;
      }
      const menu = page.locator('#site-menu');
      expect(await menu.isVisible()).toBe(false);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => menu.evaluate((m) => m.getBoundingClientRect().top)).toBe(65);
      expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden');
      await page.keyboard.press('Escape');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe(
        'hidden',
      );
      expect(
        await page.evaluate(() => document.activeElement?.hasAttribute('data-menu-toggle')),
      ).toBe(true);
      await toggle.click();
      await Promise.all([page.waitForURL('**/faq/'), menu.locator('a[href="/faq/"]').click()]);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

describe('confirmation page', () => {
  it('shows the city from the URL as text, never as markup, and goes back one step', async () => {
    const { page, context, errors } = await openPage(env.browser, 375);
    await page.goto(`${env.site.url}/toronto/claims-offices`);
    const evil = '<img src=x onerror="window.pwned=1">Toronto';
    await page.goto(`${env.site.url}/confirmation/?city=${encodeURIComponent(evil)}`);
    expect(await page.locator('[data-confirmation-city]').textContent()).toBe(evil);
    expect(await page.locator('[data-confirmation-city] img').count()).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { pwned?: number }).pwned),
    ).toBeUndefined();
    await Promise.all([
      page.waitForURL('**/toronto/claims-offices/'),
      page.getByText('Return to Previous Page').click(),
    ]);
    await page.goto(`${env.site.url}/confirmation/`);
    expect(await page.locator('[data-confirmation-city]').textContent()).toBe('your city');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('analytics', () => {
  it('makes no third-party request and shows no consent banner when no measurement id is configured', async () => {
    const { page, context } = await openPage(env.browser, 1280);
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(env.site.url)) external.push(r.url());
    });
    await page.goto(`${env.site.url}/toronto`);
    await page.waitForLoadState('networkidle');
    expect(external).toEqual([]);
    // Nothing of the consent banner or its footer link: there is nothing to consent to.
    expect(await page.locator('[data-consent], [data-consent-settings]').count()).toBe(0);
    expect(await page.content()).not.toContain('Cookie settings');
    await context.close();
  });

  it('loads the GA4 tag and sends page_view with page_path when an id is configured and the visitor accepted', async () => {
    const data = path.join(await tempDir(), 'data');
    await cp(FIXTURE_DATA, data, { recursive: true });
    const settings = JSON.parse(await readFile(path.join(data, 'site.json'), 'utf8'));
    await writeFile(
      path.join(data, 'site.json'),
      JSON.stringify({ ...settings, analyticsId: 'G-TEST12345' }),
    );
    const tagged = await startSite(data);
    const { page, context } = await openPage(env.browser, 1280);
    // The visitor accepted on an earlier page: the tag loads as the page does.
    await page.addInitScript(() =>
      localStorage.setItem(
        'claimsite-consent',
        JSON.stringify({ analytics: true, ads: true, at: new Date().toISOString() }),
      ),
    );
    const tags: string[] = [];
    await page.route('https://www.googletagmanager.com/**', (route) => {
      tags.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
    });
    await page.goto(`${tagged.url}/ottawa/about?ref=x`);
    await expect
      .poll(() => tags)
      .toEqual(['https://www.googletagmanager.com/gtag/js?id=G-TEST12345']);
    const events = await page.evaluate(() =>
      (window as unknown as { dataLayer: IArguments[] }).dataLayer.map((a) => Array.from(a)),
    );
    expect(events).toContainEqual([
      'event',
      'page_view',
      expect.objectContaining({ page_path: '/ottawa/about/?ref=x' }),
    ]);
    await context.close();
    await tagged.close();
  });
});
