import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FONT_CHOICES,
  FONT_WEIGHTS,
  FONTS,
  fontFile,
  themeCss,
  themeOf,
  type WebFont,
} from '../../src/site/theme.js';
import { launchBrowser } from './harness.js';

const require = createRequire(import.meta.url);

/** Text of the site, English and French, set as the pages set it. */
const TEXT =
  "A licensed public adjuster works for you, not your insurer, to document your loss and negotiate the full settlement your policy promises. Un expert en sinistre titulaire d'un permis travaille pour vous, pas pour votre assureur : il documente vos pertes et négocie le plein règlement.";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/**
 * The fallback face the stylesheet shows until the font arrives must take the font's room, or
 * the text moves when it swaps in (layout shift). Measured in Chromium: the width of a line and
 * the height of a paragraph, in the font, in its fallback, and in the bare local face.
 */
describe('a bundled font and its fallback', () => {
  const fonts = FONT_CHOICES.map((c) => [c, FONTS[c] as WebFont | null] as const).filter(
    (e): e is readonly [(typeof FONT_CHOICES)[number], WebFont] => e[1] !== null,
  );

  for (const [choice, font] of fonts)
    it(`${font.family}: its fallback takes within 2% of its room, much closer than the bare local face`, async () => {
      const { theme } = themeOf({ font: choice });
      const data = (weight: number) =>
        `data:font/woff2;base64,${readFileSync(require.resolve(fontFile(font, weight, 'woff2'))).toString('base64')}`;
      const css = themeCss(theme, (weight) => data(weight));
      expect(FONT_WEIGHTS).toContain(400);
      const bare = font.fallback === 'serif' ? 'Liberation Serif' : 'Liberation Sans';
      const page = await browser.newPage();
      await page.setContent(
        `<style>${css} p{width:360px;margin:0;font-size:16px;line-height:normal} span{white-space:nowrap;font-size:16px}</style>` +
          ['a', 'b', 'c']
            .map((id) => `<p id="p${id}">${TEXT}</p><span id="s${id}">${TEXT.slice(0, 90)}</span>`)
            .join(''),
      );
      const measured = await page.evaluate(
        async ({ family, bare }) => {
          await document.fonts.load(`400 16px "${family}"`);
          const set = (id: string, f: string) => {
            for (const el of [document.getElementById(`p${id}`), document.getElementById(`s${id}`)])
              if (el) el.style.fontFamily = f;
          };
          set('a', `"${family}"`);
          set('b', `"${family} Fallback"`);
          set('c', `"${bare}"`);
          const size = (id: string) => ({
            width: document.getElementById(`s${id}`)?.getBoundingClientRect().width ?? 0,
            height: document.getElementById(`p${id}`)?.getBoundingClientRect().height ?? 0,
          });
          return {
            loaded: document.fonts.check(`400 16px "${family}"`),
            font: size('a'),
            fallback: size('b'),
            bare: size('c'),
          };
        },
        { family: font.family, bare },
      );
      await page.close();
      expect(measured.loaded).toBe(true);
      const off = (a: number, b: number) => Math.abs(a - b) / b;
      expect(off(measured.fallback.width, measured.font.width), 'line width').toBeLessThan(0.02);
      expect(off(measured.fallback.height, measured.font.height), 'paragraph height').toBeLessThan(
        0.1,
      );
      expect(off(measured.fallback.width, measured.font.width)).toBeLessThan(
        off(measured.bare.width, measured.font.width),
      );
    });
});
