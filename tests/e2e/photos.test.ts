import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { createStaticHandler } from '../../src/serve/static.js';
import { dataCopy, FIXTURE_DATA, tempDir } from '../helpers.js';
import { addPhotos } from '../photo-files.js';
import { launchBrowser, openPage, WIDTHS } from './harness.js';

/** The fixture site with the test photos (tests/photo-files.ts), on loopback. */
let browser: Browser;
let server: Server;
let url: string;

beforeAll(async () => {
  const { dir, data, out } = await dataCopy(FIXTURE_DATA);
  const publicDir = path.join(dir, 'public');
  await addPhotos(data, publicDir);
  await generate({ dataDir: data, publicDir, outDir: out, cacheDir: await tempDir() });
  const serve = createStaticHandler(out);
  server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => server?.close(() => r()));
});

describe('owner photos in Chromium', () => {
  for (const width of WIDTHS)
    it(`at ${width} px: lazy below the fold, loaded in AVIF once scrolled to, the same shape in a row, moving nothing`, async () => {
      const { page, context, errors } = await openPage(browser, width);
      try {
        for (const at of ['/about/', '/']) {
          await page.goto(`${url}${at}`, { waitUntil: 'load' });
          const gallery = page.locator('.photo-grid');
          const first = gallery.locator('img').first();
          // Below the first screen, and not loaded while there.
          const start = await first.evaluate((img: HTMLImageElement) => ({
            top: img.getBoundingClientRect().top,
            screen: window.innerHeight,
            loaded: img.complete && img.naturalWidth > 0,
            loading: img.loading,
          }));
          expect(start.top, at).toBeGreaterThan(start.screen);
          expect(start.loading, at).toBe('lazy');
          // Chromium fetches a lazy image once it is within 1250 to 2500 px of the screen (the
          // home page's are the About page's, in its cache by then).
          if (at === '/about/' && start.top > start.screen + 2500)
            expect(start.loaded, at).toBe(false);
          // Where what follows the gallery sits before its pictures arrive.
          const nextTop = () =>
            page.evaluate(() => {
              const next = document.querySelector('.photo-grid')?.closest('section')
                ?.nextElementSibling as HTMLElement | null;
              return next ? next.getBoundingClientRect().top + window.scrollY : null;
            });
          const before = await nextTop();
          expect(before, at).not.toBeNull();
          await page.evaluate(() => {
            new PerformanceObserver((list) => {
              const w = window as unknown as { shift: number };
              for (const e of list.getEntries() as Array<PerformanceEntry & { value: number }>)
                w.shift = (w.shift ?? 0) + e.value;
            }).observe({ type: 'layout-shift' });
          });
          await gallery.scrollIntoViewIfNeeded();
          const imgs = await gallery.locator('img').evaluateAll((list) =>
            Promise.all(
              (list as HTMLImageElement[]).map(async (img) => {
                await img.decode();
                const box = img.getBoundingClientRect();
                return {
                  natural: img.naturalWidth,
                  src: img.currentSrc,
                  attrs: Number(img.getAttribute('width')) / Number(img.getAttribute('height')),
                  shown: box.width / box.height,
                  decoding: img.decoding,
                };
              }),
            ),
          );
          expect(imgs, at).toHaveLength(3);
          // Nothing moved as they arrived.
          expect(await nextTop(), at).toBe(before);
          expect(
            await page.evaluate(() => (window as unknown as { shift?: number }).shift ?? 0),
            at,
          ).toBe(0);
          for (const img of imgs) {
            expect(img.natural, at).toBeGreaterThan(0);
            expect(img.src, at).toMatch(/\/assets\/photo-[a-z]+-\d+\.[0-9a-f]{10}\.avif$/);
            expect(img.decoding).toBe('async');
            // 4:3, cropped so at build: the shape the page kept room for.
            expect(img.attrs, at).toBeCloseTo(4 / 3, 2);
            expect(img.shown, at).toBeCloseTo(4 / 3, 2);
          }
        }
        // An adjuster's portrait: square, at 96 px, loaded once in view.
        await page.goto(`${url}/toronto/top-adjusters/`, { waitUntil: 'load' });
        const portrait = page.locator('.adjusters picture img');
        await portrait.scrollIntoViewIfNeeded();
        const p = await portrait.evaluate(async (img: HTMLImageElement) => {
          await img.decode();
          const box = img.getBoundingClientRect();
          return [img.naturalWidth > 0, Math.round(box.width), Math.round(box.height)];
        });
        expect(p).toEqual([true, 96, 96]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
});
