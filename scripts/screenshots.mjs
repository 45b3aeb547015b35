// Screenshots of built pages at phone and desktop width, for looking at what we build.
// Usage: node scripts/screenshots.mjs [dist] [outDir] [/path ...]
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startServer } from '../lib/cli.cjs';
import { launchChromium } from './chromium.mjs';

const [dir = 'dist', out = '.shots', ...paths] = process.argv.slice(2);
const pages = paths.length ? paths : ['/', '/toronto/', '/toronto/fire-damage-claims/', '/faq/'];
await mkdir(out, { recursive: true });
const { server, url } = await startServer({ dir, port: 0, host: '127.0.0.1' });
const browser = await launchChromium();
try {
  for (const width of [375, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: width === 375 ? 812 : 900 } });
    for (const p of pages) {
      await page.goto(url + p);
      // Full pages are too tall to read as one picture: take them in viewport-sized slices.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      const view = page.viewportSize()?.height ?? 900;
      for (let y = 0, i = 1; y < height; y += view, i++) {
        const file = path.join(
          out,
          `${p.replace(/\W+/g, '_').replace(/^_/, '') || 'home'}-${width}-${i}.png`,
        );
        await page.screenshot({
          path: file,
          fullPage: true,
          clip: { x: 0, y, width, height: Math.min(view, height - y) },
        });
        console.log(file);
      }
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
