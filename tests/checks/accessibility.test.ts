import { describe, expect, it } from 'vitest';
import { browserAndSite, openPage, axeViolations as violations, WIDTHS } from '../e2e/harness.js';

const PAGES = [
  '/',
  '/about/',
  '/services/',
  '/faq/',
  '/contact/',
  '/privacy/',
  '/terms/',
  '/blog/',
  '/blog/public-adjuster-fees-explained/',
  '/sitemap/',
  '/confirmation/?city=Toronto',
  '/form-error/',
  '/atlantis/',
  '/toronto/meteor-damage-claims/',
  '/toronto/',
  '/toronto/about/',
  '/toronto/public-adjusters/',
  '/toronto/services/',
  '/toronto/fire-damage-claims/',
  '/toronto/scarborough/',
  '/canada/ontario/',
];

const env = browserAndSite();

for (const width of WIDTHS) {
  describe(`accessibility at ${width}px`, () => {
    it('every page kind has no WCAG A/AA violation', async () => {
      const { page, context } = await openPage(env.browser, width, { reducedMotion: 'reduce' });
      const found: string[] = [];
      for (const p of PAGES) {
        await page.goto(env.site.url + p);
        await page.waitForLoadState('networkidle');
        found.push(...(await violations(page, p)));
      }
      expect(found).toEqual([]);
      await context.close();
    }, 120_000);

    it('the open menu and every questionnaire step have no violation', async () => {
      const { page, context } = await openPage(env.browser, width);
      const found: string[] = [];
      await page.goto(`${env.site.url}/toronto/public-adjusters`);
      if (width < 1200) {
        await page.locator('[data-menu-toggle]').click();
        await page.waitForTimeout(300);
        found.push(...(await violations(page, 'menu open')));
        await page.keyboard.press('Escape');
      }
      found.push(...(await violations(page, 'step 1')));
      await page.getByLabel('Residential').check();
      await page.getByLabel('Fire').check();
      await page.locator('[data-next]').click();
      found.push(...(await violations(page, 'step 2')));
      await page.getByLabel('Estimated value of the damage').selectOption('50k_100k');
      await page.getByLabel('What happened?').fill('Kitchen fire.');
      await page.locator('[data-next]').click();
      found.push(...(await violations(page, 'step 3')));
      env.site.lead.mode = 'fail';
      await page.getByLabel('Full name').fill('Al Roy');
      await page.getByRole('textbox', { name: 'Email' }).fill('al@example.ca');
      await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('416 555 0101');
      await page.getByLabel('Property address').fill('1 Bay St');
      await page.getByRole('radio', { name: 'Email' }).check();
      await page.locator('[data-submit]').click();
      await page.locator('[data-form-error][role="alert"]:not(:empty)').waitFor();
      found.push(...(await violations(page, 'error message')));
      env.site.lead.mode = 'ok';
      expect(found).toEqual([]);
      await context.close();
    }, 60_000);
  });
}
