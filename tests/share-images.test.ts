import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { buildPages } from '../src/pages.js';
import { cardFor } from '../src/share/cards.js';
import { CardPainter } from '../src/share/draw.js';
import { defaultCacheDir, ImageCache, PRUNE_AFTER_DAYS } from '../src/share/image-cache.js';
import {
  cardBrandOf,
  drawingIdentity,
  SHARE_HEIGHT,
  SHARE_WIDTH,
  shareImages,
} from '../src/share/share-images.js';
import { loadSite } from '../src/site/load.js';
import { ALBERTA_LOGO } from './alberta-firm.js';
import {
  BUNDLED_DATA,
  dataCopy,
  FIXTURE_DATA,
  ROOT,
  runCli,
  scanTree,
  tempDir,
} from './helpers.js';
import { pngPixels } from './png.js';

/** A PNG's size, from its header (IHDR). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const b = Buffer.from(bytes);
  expect(b.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  expect(b.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

const ogImage = (html: string) => html.match(/<meta property="og:image" content="([^"]+)"/)?.[1];

describe('share images: which page shows which', async () => {
  const site = await loadSite(BUNDLED_DATA);
  const pages = buildPages(site);
  const images = shareImages(site);

  it("gives every page one; a city's pages share their city's, provinces and site pages their own", () => {
    const byPath = new Map(pages.map((p) => [p.path, images.of(p)]));
    const toronto = byPath.get('/toronto/');
    for (const p of ['/toronto/about/', '/toronto/fire-damage-claims/', '/toronto/the-annex/'])
      expect(byPath.get(p), p).toBe(toronto);
    expect(toronto?.card).toMatchObject({ title: 'Toronto', detail: 'Ontario' });
    expect(toronto?.alt).toBe(
      'ClaimRight Canada. Public adjusters in Toronto, Ontario. Free Claim Assessment: 1-888-339-9809',
    );
    expect(byPath.get('/canada/ontario/')?.card.title).toBe('Ontario');
    expect(byPath.get('/faq/')?.file).toMatch(/^assets\/share-page-faq\.[0-9a-f]{10}\.png$/);
    expect(byPath.get('/')?.card.title).toBe('Licensed Public Adjusters Across Canada');
    // Pages nobody shares (the confirmation, not found) show the home page's.
    expect(byPath.get('/404.html')).toBe(byPath.get('/'));
    // One per city, province, site page and post: 169 + 13 + 8 + the posts; in French, one per
    // Québec and New Brunswick city, the national entry, those two provinces' pages and the 7
    // site pages with a translation.
    const all = images.all(pages);
    expect(new Set(all.map((i) => i.file)).size).toBe(all.length);
    const english = all.filter((i) => !i.card.id.startsWith('fr-'));
    expect(english.length).toBe(169 + 13 + 8 + site.content.posts.length);
    const inFrench = site.cities.filter((c) => ['QC', 'NB'].includes(c.provinceCode ?? '')).length;
    expect(all.length - english.length).toBe(inFrench + 1 + 2 + 7);
    // A French page shows its French card, in its own file.
    const montreal = byPath.get('/fr/montreal/');
    expect(montreal?.card).toMatchObject({
      id: 'fr-city-montreal',
      kicker: 'Experts en sinistre à',
      title: 'Montréal',
    });
    expect(montreal?.alt).toBe(
      'ClaimRight Canada. Experts en sinistre à Montréal, Québec. Évaluation gratuite\u00a0: 1\u00a0888\u00a0339-9809',
    );
  });

  it('names an image by what it shows and the code that draws it', async () => {
    const again = shareImages(await loadSite(BUNDLED_DATA));
    const page = pages.find((p) => p.path === '/toronto/');
    if (!page) throw new Error('no /toronto/');
    expect(again.of(page).file).toBe(images.of(page).file);
    // The compiled CLI names them by the same hash of the drawing code as the sources do.
    const cli = await readFile(path.join(ROOT, 'lib', 'cli.cjs'), 'utf8');
    expect(cli).toContain(JSON.stringify(drawingIdentity(ROOT)));
    const renamed = await loadSite(BUNDLED_DATA);
    const city = renamed.bySlug.get('toronto');
    if (!city) throw new Error('no toronto');
    city.name = 'Toronto Renamed';
    const moved = buildPages(renamed).find((p) => p.path === '/toronto/');
    if (!moved) throw new Error('no /toronto/');
    expect(shareImages(renamed).of(moved).file).not.toBe(images.of(page).file);
  });

  it('draws every card of the bundled site, in its own letters, at 1200 x 630', () => {
    const painter = CardPainter.load();
    const brand = { ...cardBrandOf(site), footer: 'Free Claim Assessment: 1' };
    // Every letter of every name has an outline (a missing one throws, naming it).
    for (const image of images.all(pages))
      expect(painter.svg(image.card, image.brand)).toContain('<path');
    const home = pages.find((p) => p.route === 'home');
    if (!home) throw new Error('no home page');
    const png = painter.png(cardFor(home, site), brand);
    expect(pngSize(png)).toEqual({ width: SHARE_WIDTH, height: SHARE_HEIGHT });
    expect(() =>
      painter.svg({ id: 'x', kicker: null, title: '東京', detail: null }, brand),
    ).toThrow(/no letter "東"/);
  });
});

describe("an owner's SVG logo on a share image", () => {
  it('has its lettering drawn, in the theme font, not left blank', async () => {
    const dir = await tempDir();
    const site = await loadSite(BUNDLED_DATA);
    const painter = CardPainter.load();
    const card = {
      id: 'page-home',
      kicker: null,
      title: 'Licensed Public Adjusters',
      detail: null,
    };
    // The logo's name in the same dark green, to the right of its mark (x 76 to 320 of 320).
    const darkInName = (svg: string, name: string) => {
      const file = path.join(dir, name);
      writeFileSync(file, svg);
      const brand = {
        ...cardBrandOf(site),
        logo: { file, type: 'image/svg+xml', width: 320, height: 64, digest: name },
      };
      const png = pngPixels(painter.png(card, brand));
      let dark = 0;
      // Drawn 64 px tall at (80, 64): the name is at x 156 to 400.
      for (let y = 66; y < 126; y++)
        for (let x = 160; x < 396; x++) {
          const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(png.at(x, y).slice(i, i + 2), 16));
          if ((r ?? 0) + (g ?? 0) + (b ?? 0) < 300) dark++;
        }
      return dark;
    };
    expect(darkInName(ALBERTA_LOGO, 'lettered.svg')).toBeGreaterThan(1000);
    expect(darkInName(ALBERTA_LOGO.replace(/<text.*<\/text>/, ''), 'plain.svg')).toBe(0);
  });
});

describe('drawing many share images', () => {
  it('keeps memory bounded: the pixels of each image are let go (3 MB each, unseen by V8)', async () => {
    const painter = CardPainter.load();
    const brand = {
      ...cardBrandOf(await loadSite(FIXTURE_DATA)),
      footer: 'Free Claim Assessment: 1',
    };
    const card = (i: number) => ({ id: `c${i}`, kicker: null, title: `City ${i}`, detail: null });
    painter.png(card(0), brand);
    await painter.release();
    const before = process.memoryUsage().rss;
    for (let i = 1; i <= 200; i++) {
      painter.png(card(i), brand);
      if (i % 16 === 0) await painter.release();
    }
    await painter.release();
    // Here about 30 MB with the releases, about 240 MB without.
    expect((process.memoryUsage().rss - before) / 1048576).toBeLessThan(100);
  }, 60_000);
});

describe('share images in a build', () => {
  it('are drawn once, then copied from the cache into a new folder, then kept as they are', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const cacheDir = path.join(dir, 'cache');
    const first = await generate({ dataDir: data, outDir: out, cacheDir, codeVersion: 't' });
    const count = first.shareImages.drawn;
    expect(count).toBe(27);
    expect(first.shareImages).toEqual({ kept: 0, cached: 0, drawn: count });
    expect(readdirSync(cacheDir).filter((n) => n.endsWith('.png'))).toHaveLength(count);

    // Every indexable page links to its image, which is there, 1200 x 630.
    const tree = await scanTree(out);
    let pagesSeen = 0;
    for (const [rel, f] of tree) {
      if (!rel.endsWith('.html')) continue;
      const html = Buffer.from(f.bytes, 'base64').toString('utf8');
      if (html.includes('name="robots" content="noindex"')) continue;
      const url = ogImage(html);
      expect(url, rel).toMatch(
        /^https:\/\/www\.claimright\.ca\/assets\/share-[a-z0-9-]+\.[0-9a-f]{10}\.png$/,
      );
      const file = tree.get(new URL(url ?? '').pathname.slice(1));
      expect(file, `${rel} -> ${url}`).toBeDefined();
      expect(pngSize(Buffer.from(file?.bytes ?? '', 'base64'))).toEqual({
        width: 1200,
        height: 630,
      });
      pagesSeen++;
    }
    expect(pagesSeen).toBeGreaterThan(20);

    // A new folder: copied from the cache, the same bytes.
    const second = path.join(dir, 'second');
    const copied = await generate({ dataDir: data, outDir: second, cacheDir, codeVersion: 't' });
    expect(copied.shareImages).toEqual({ kept: 0, cached: count, drawn: 0 });
    const secondTree = await scanTree(second);
    for (const [rel, f] of tree)
      if (rel.includes('share-')) expect(secondTree.get(rel)?.bytes).toBe(f.bytes);

    // The same folder again: left as they are, not even read from the cache.
    const again = await generate({ dataDir: data, outDir: out, cacheDir, codeVersion: 't' });
    expect(again.shareImages).toEqual({ kept: count, cached: 0, drawn: 0 });
    const after = await scanTree(out);
    for (const [rel, f] of tree)
      if (rel.includes('share-')) expect(after.get(rel)?.mtimeMs, rel).toBe(f.mtimeMs);

    // A city renamed: its image alone is drawn again, and the old one leaves the output.
    const file = path.join(data, 'cities/bc.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    const oldName = cities[0].name;
    cities[0].name = `${oldName} City`;
    cities[0].slug = `${cities[0].slug}-city`;
    cities[0].id = `${cities[0].id}-city`;
    await writeFile(file, JSON.stringify(cities));
    const renamed = await generate({ dataDir: data, outDir: out, cacheDir, codeVersion: 't' });
    expect(renamed.shareImages).toEqual({ kept: count - 1, cached: 0, drawn: 1 });
    const renamedTree = await scanTree(out);
    const gone = [...tree.keys()].filter((rel) => rel.includes('share-') && !renamedTree.has(rel));
    expect(gone).toEqual([expect.stringMatching(/^assets\/share-city-vancouver\./)]);
  });

  it('are drawn by the compiled CLI on a thread of its own: the same images as drawn here', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const cli = runCli(['generate', '--data', data, '--out', out, '--no-audit'], {
      env: { CLAIMSITE_CACHE_DIR: path.join(dir, 'cli-cache') },
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/Drew 27 share images/);
    const here = path.join(dir, 'here');
    const inline = await generate({ dataDir: data, outDir: here, cacheDir: null });
    expect(inline.shareImages.drawn).toBe(27);
    const images = async (folder: string) =>
      [...(await scanTree(folder))]
        .filter(([rel]) => rel.includes('share-'))
        .map(([rel, f]) => [rel, f.bytes]);
    const drawn = await images(out);
    expect(drawn).toHaveLength(27);
    expect(drawn).toEqual(await images(here));
  });

  it('builds without a cache, or with one it cannot write', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const none = await generate({ dataDir: data, outDir: out, cacheDir: null });
    expect(none.shareImages.drawn).toBe(27);
    const locked = path.join(dir, 'locked');
    mkdirSync(locked);
    await chmod(locked, 0o500);
    try {
      const r = await generate({ dataDir: data, outDir: path.join(dir, 'b'), cacheDir: locked });
      expect(r.shareImages.drawn).toBe(27);
      // Root may write anyway; otherwise nothing was.
      if (process.getuid?.() !== 0) expect(readdirSync(locked)).toEqual([]);
    } finally {
      await chmod(locked, 0o700);
    }
  });
});

describe('the share image cache', () => {
  it('returns what was put, ignores what is not a PNG, and removes only its own old files', async () => {
    const dir = path.join(await tempDir(), 'share-images');
    const cache = new ImageCache(dir);
    const key = 'a'.repeat(64);
    expect(cache.get(key)).toBeNull();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0]);
    cache.put(key, png);
    expect(Buffer.from(cache.get(key) ?? [])).toEqual(Buffer.from(png));
    writeFileSync(path.join(dir, `${'b'.repeat(64)}.png`), 'half a file');
    expect(cache.get('b'.repeat(64))).toBeNull();

    // Old files: ours go, the owner's stay, whatever they are called.
    const old = (Date.now() - (PRUNE_AFTER_DAYS + 1) * 86_400_000) / 1000;
    const oldOurs = path.join(dir, `${'c'.repeat(64)}.png`);
    const theirs = ['notes.txt', 'photo.png', `${'d'.repeat(63)}.png`].map((n) =>
      path.join(dir, n),
    );
    for (const f of [oldOurs, ...theirs]) {
      writeFileSync(f, 'x');
      utimesSync(f, old, old);
    }
    cache.prune();
    expect(existsSync(oldOurs)).toBe(false);
    for (const f of theirs) expect(existsSync(f), f).toBe(true);
    expect(cache.get(key)).not.toBeNull();
  });

  it("lives in CLAIMSITE_CACHE_DIR, or the project's node_modules/.cache, or the system cache folder; an empty one means none", async () => {
    expect(defaultCacheDir({ CLAIMSITE_CACHE_DIR: '/x/y' })).toBe(
      path.resolve('/x/y/share-images'),
    );
    expect(defaultCacheDir({ CLAIMSITE_CACHE_DIR: '' })).toBeNull();
    // Where hosts keep caches between builds: the project's node_modules/.cache, from any of its
    // folders.
    const site = await tempDir();
    await writeFile(path.join(site, 'package.json'), '{}');
    await mkdir(path.join(site, 'data', 'cities'), { recursive: true });
    const system = defaultCacheDir({}, site);
    expect(system).toMatch(/claimsite[/\\]share-images$/);
    expect(system?.startsWith(site)).toBe(false);
    await mkdir(path.join(site, 'node_modules'));
    const ours = path.join(site, 'node_modules', '.cache', 'claimsite', 'share-images');
    expect(defaultCacheDir({}, site)).toBe(ours);
    expect(defaultCacheDir({}, path.join(site, 'data', 'cities'))).toBe(ours);
    // Tests never write into the user's own cache folder.
    expect(process.env.CLAIMSITE_CACHE_DIR).toMatch(/claimsite-test-cache-/);
  });
});
