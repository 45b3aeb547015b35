// Before-and-after pictures of built pages, for looking at a change of the site's look.
//   node scripts/contact-sheet.mjs shoot <dist> <outDir> [/path ...]
//     the first screen (375 x 667, 1280 x 800) and the whole page (at 375 and 1280) of each path
//   node scripts/contact-sheet.mjs sheet <beforeDir> <afterDir> <out.png> [first|full] [375|1280]
//     each page's before and after side by side, one row per page and width
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { launchChromium } from './chromium.mjs';

const PAGES = [
  '/',
  '/toronto/',
  '/toronto/free-consultation/',
  '/toronto/fire-damage-claims/',
  '/toronto/north-york/',
  '/canada/free-consultation/',
  '/about/',
  '/services/',
  '/fr/',
  '/fr/montreal/',
  '/fr/montreal/consultation-gratuite/',
  '/fr/montreal/dommages-incendie/',
  '/fr/a-propos/',
];
const SIZES = [
  [375, 667],
  [1280, 800],
];
const nameOf = (p) => p.replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'home';

async function shoot(dir, out, paths) {
  const { startServer } = await import('../lib/cli.cjs');
  await mkdir(out, { recursive: true });
  const { server, url } = await startServer({ dir, port: 0, host: '127.0.0.1' });
  const browser = await launchChromium();
  try {
    for (const [width, height] of SIZES) {
      const page = await browser.newPage({ viewport: { width, height } });
      for (const p of paths) {
        await page.goto(url + p, { waitUntil: 'load' });
        await page.evaluate(() => document.fonts.ready);
        const base = path.join(out, `${nameOf(p)}-${width}`);
        await page.screenshot({ path: `${base}.png` });
        await page.screenshot({ path: `${base}-full.png`, fullPage: true });
        console.log(base);
      }
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
}

/** One row per page and width: its name, then before and after, each scaled to `cell` wide. */
async function sheet(before, after, out, kind = 'first', only = '') {
  const files = (await readdir(after))
    .filter((f) => (kind === 'full' ? f.endsWith('-full.png') : /-\d+\.png$/.test(f)))
    .filter((f) => !only || f.includes(`-${only}`))
    .sort();
  const rows = [];
  for (const f of files) {
    const wide = /-1280/.test(f);
    const cell = wide ? 640 : 375;
    const maxH = kind === 'full' ? 2400 : 700;
    const pics = [];
    for (const dir of [before, after]) {
      const img = sharp(path.join(dir, f)).resize({ width: cell });
      const buf = await img
        .png()
        .toBuffer({ resolveWithObject: true })
        .catch(() => null);
      if (!buf) continue;
      const h = Math.min(buf.info.height, maxH);
      pics.push({
        input: await sharp(buf.data)
          .extract({ left: 0, top: 0, width: cell, height: h })
          .png()
          .toBuffer(),
        h,
        w: cell,
      });
    }
    rows.push({ name: f.replace(/\.png$/, ''), pics });
  }
  const gap = 16;
  const label = 28;
  const width = Math.max(...rows.map((r) => r.pics.reduce((s, p) => s + p.w + gap, gap)));
  const height = rows.reduce((s, r) => s + label + Math.max(0, ...r.pics.map((p) => p.h)) + gap, 0);
  const composites = [];
  let y = 0;
  for (const r of rows) {
    const text = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${label}"><text x="${gap}" y="20" font-family="sans-serif" font-size="18">${r.name}: before | after</text></svg>`;
    composites.push({ input: Buffer.from(text), top: y, left: 0 });
    y += label;
    let x = gap;
    for (const p of r.pics) {
      composites.push({ input: p.input, top: y, left: x });
      x += p.w + gap;
    }
    y += Math.max(0, ...r.pics.map((p) => p.h)) + gap;
  }
  await sharp({ create: { width, height, channels: 3, background: '#bbbbbb' } })
    .composite(composites)
    .png()
    .toFile(out);
  console.log(out, `${width}x${height}`);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'shoot') {
  const [dir, out, ...paths] = args;
  await shoot(dir, out, paths.length ? paths : PAGES);
} else if (mode === 'sheet') {
  const [before, after, out, kind, width] = args;
  await sheet(before, after, out, kind, width);
} else {
  console.error(
    'usage: contact-sheet.mjs shoot <dist> <outDir> [/path ...] | sheet <before> <after> <out.png> [first|full]',
  );
  process.exit(2);
}
