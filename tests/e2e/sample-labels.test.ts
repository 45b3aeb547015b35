import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_DATA, dataCopy, editJson } from '../helpers.js';
import {
  launchBrowser,
  openPage,
  type Site,
  startSite,
  axeViolations as violations,
  WIDTHS,
} from './harness.js';

// The bundled demo's samples, in a site of one city with French pages (Montréal): small to build.
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let site: Site;
beforeAll(async () => {
  const { data } = await dataCopy(BUNDLED_DATA);
  await editJson(data, 'site.json', (s: Record<string, unknown>) => {
    s.serviceArea = { cities: ['montreal'] };
  });
  [browser, site] = await Promise.all([launchBrowser(), startSite(data)]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const PAGES = ['/', '/about/', '/montreal/', '/fr/', '/fr/a-propos/'];

for (const width of WIDTHS) {
  describe(`sample labels at ${width}px`, () => {
    it('are seen on every sample item, below the header, and pass axe-core', async () => {
      const { page, context, errors } = await openPage(browser, width, { reducedMotion: 'reduce' });
      const found: string[] = [];
      for (const p of PAGES) {
        await page.goto(site.url + p);
        await page.waitForLoadState('networkidle');
        // The settings' note: under the sticky header at the top of the page, on one screen's width.
        const header = await page.locator('.site-header').boundingBox();
        const note = await page.locator('.sample-banner').boundingBox();
        expect(note, p).not.toBeNull();
        expect(note?.y, p).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0) - 1);
        expect((note?.x ?? 0) + (note?.width ?? 0), p).toBeLessThanOrEqual(width);
        // Every label of the page's own list is shown.
        const labels = await page.locator('.sample-label').evaluateAll((els) =>
          els.map((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
          }),
        );
        expect(labels.length, p).toBeGreaterThan(0);
        expect(labels.every(Boolean), p).toBe(true);
        found.push(...(await violations(page, p)));
      }
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }, 180_000);
  });
}
