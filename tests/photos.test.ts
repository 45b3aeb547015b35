import { readFile, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'node-html-parser';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { buildPages } from '../src/pages.js';
import { PHOTO_WIDTHS, planPhotos } from '../src/photos/plan.js';
import { renderPage } from '../src/render/render.js';
import { shareImages } from '../src/share/share-images.js';
import { DataError } from '../src/site/errors.js';
import { loadSite } from '../src/site/load.js';
import { TEMPLATES } from '../templates/pages/index.js';
import {
  BUNDLED_DATA,
  dataCopy,
  editJson,
  FIXTURE_DATA,
  runCli,
  scanTree,
  tempDir,
} from './helpers.js';
import { addPhotos, drawn } from './photo-files.js';

const lastmod = '2026-11-27';

/** The photos' cache the tests share: what one encodes, the next copies (the same pictures). */
const sharedCache = await tempDir('claimsite-photo-cache-');

/** The fixture data with three photos and a portrait, a public folder, and a cache. */
async function photoSite(cacheDir = sharedCache) {
  const { dir, data, out } = await dataCopy(FIXTURE_DATA);
  const publicDir = path.join(dir, 'public');
  await addPhotos(data, publicDir);
  const build = (outDir = out, more: { cacheDir?: string | null; baseUrl?: string } = {}) =>
    generate({ dataDir: data, publicDir, outDir, lastmod, codeVersion: 'test', cacheDir, ...more });
  return { dir, data, out, publicDir, cacheDir, build };
}

const page = async (out: string, rel: string) =>
  parse(await readFile(path.join(out, rel, 'index.html'), 'utf8'));

describe('owner photos', () => {
  it('are resized into AVIF, WebP and JPEG, upright, never wider than they are, without their metadata, and shown as <picture>', async () => {
    // A cache of its own: this build encodes every file.
    const { out, build } = await photoSite(await tempDir());
    const result = await build();
    const files = [...(await scanTree(out)).keys()];
    const of = (name: string) => files.filter((f) => f.startsWith(`assets/${name}-`)).sort();

    // 2400 px wide: every width; 800 px upright (an 800x600 box): the widths below, then 800.
    const widths = (name: string, ext: string) =>
      of(name)
        .filter((f) => f.endsWith(`.${ext}`))
        .map((f) => Number(/-(\d+)\.[0-9a-f]{10}\./.exec(f)?.[1]))
        .sort((a, b) => a - b);
    for (const ext of ['avif', 'webp', 'jpg']) {
      expect(widths('photo-team', ext)).toEqual([...PHOTO_WIDTHS]);
      expect(widths('photo-job', ext)).toEqual([320, 640, 800]);
      expect(widths('portrait-adjuster', ext)).toEqual([96, 192]);
    }
    for (const f of [...of('photo-team'), ...of('photo-job'), ...of('portrait-adjuster')]) {
      const meta = await sharp(path.join(out, f)).metadata();
      expect(meta.format, f).toBe(
        f.endsWith('.avif') ? 'heif' : f.endsWith('.webp') ? 'webp' : 'jpeg',
      );
      // No EXIF (the GPS position), no orientation left to apply: the pixels are upright.
      expect([meta.exif, meta.orientation], f).toEqual([undefined, undefined]);
      // Cropped to shape: a photo 4:3, a portrait square.
      if (f.startsWith('assets/photo-')) expect(meta.height, f).toBe((meta.width * 3) / 4);
      if (f.startsWith('assets/portrait-')) expect(meta.height, f).toBe(meta.width);
      if (f.startsWith('assets/photo-job-')) {
        // Upright: red above blue, as the camera's orientation says.
        const { data, info } = await sharp(path.join(out, f))
          .raw()
          .toBuffer({ resolveWithObject: true });
        const at = (y: number) => {
          const i = (y * info.width + Math.floor(info.width / 2)) * info.channels;
          return [data[i] ?? 0, data[i + 2] ?? 0] as const;
        };
        const [topRed, topBlue] = at(2);
        const [bottomRed, bottomBlue] = at(info.height - 3);
        expect([topRed > 200, topBlue < 60, bottomRed < 60, bottomBlue > 200], f).toEqual([
          true,
          true,
          true,
          true,
        ]);
      }
    }
    // The originals are not published, and no page links them.
    expect(files.filter((f) => f.startsWith('images/'))).toEqual([]);
    for (const f of files.filter((f) => f.endsWith('.html')))
      expect(await readFile(path.join(out, f), 'utf8'), f).not.toContain('/images/');

    const about = await page(out, 'about');
    const pictures = about.querySelectorAll('[aria-labelledby="photos-title"] picture');
    expect(pictures).toHaveLength(3);
    const team = pictures[0];
    expect(team?.querySelectorAll('source').map((s) => s.getAttribute('type'))).toEqual([
      'image/avif',
      'image/webp',
    ]);
    const img = team?.querySelector('img');
    expect(img?.getAttribute('alt')).toBe('Test picture labelled team');
    expect([img?.getAttribute('width'), img?.getAttribute('height')]).toEqual(['1280', '960']);
    expect([img?.getAttribute('loading'), img?.getAttribute('decoding')]).toEqual([
      'lazy',
      'async',
    ]);
    expect(about.querySelector('figcaption')?.textContent).toBe('Test caption');
    // Every file a srcset names is in the output, at the width it claims.
    const named = about
      .querySelectorAll('source, img')
      .flatMap((el) => (el.getAttribute('srcset') ?? '').split(', ').filter(Boolean));
    expect(named.length).toBeGreaterThan(20);
    for (const entry of named) {
      const [url, w] = entry.split(' ');
      const meta = await sharp(path.join(out, String(url).slice(1))).metadata();
      expect(`${meta.width}w`, entry).toBe(w);
    }
    // The home page shows them too; Toronto's adjuster page, the portrait at 96 px.
    expect((await page(out, '')).querySelectorAll('.photo-grid picture')).toHaveLength(3);
    const portrait = (await page(out, 'toronto/top-adjusters')).querySelector('picture img');
    expect([portrait?.getAttribute('width'), portrait?.getAttribute('alt')]).toEqual([
      '96',
      'Test Adjuster',
    ]);
    expect(result.photos.map((p) => [p.src, p.encoded])).toEqual([
      ['/images/team.jpg', 12],
      ['/images/office.png', 12],
      ['/images/job.jpg', 9],
      ['/images/adjuster.jpg', 6],
    ]);
  });

  it("are linked under the site's folder when it is served from one", async () => {
    const { dir, build } = await photoSite();
    const out = path.join(dir, 'sub');
    await build(out, { baseUrl: 'https://example.github.io/claims/' });
    const about = await page(out, 'about');
    const urls = about
      .querySelectorAll('.photo-grid source, .photo-grid img')
      .flatMap((el) => [el.getAttribute('src'), ...(el.getAttribute('srcset') ?? '').split(', ')])
      .filter((u): u is string => Boolean(u));
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u).toMatch(/^\/claims\/assets\//);
  });

  it('are encoded once: a build into a new folder copies them from the cache, the same bytes', async () => {
    const { dir, out, build } = await photoSite(await tempDir());
    const first = await build();
    const again = await build(path.join(dir, 'second'));
    expect(again.photos.every((p) => p.encoded === 0 && p.kept === 0)).toBe(true);
    expect(again.photos.reduce((n, p) => n + p.cached, 0)).toBe(39);
    // And none again into the same folder: its files stay.
    const kept = await build();
    expect(kept.photos.every((p) => p.encoded === 0 && p.cached === 0)).toBe(true);
    const bytes = async (o: string) =>
      new Map(
        [...(await scanTree(o))]
          .filter(([rel]) => rel.startsWith('assets/photo'))
          .map(([r, f]) => [r, f.bytes]),
      );
    expect(await bytes(path.join(dir, 'second'))).toEqual(await bytes(out));
    expect(first.photos.reduce((n, p) => n + p.encoded, 0)).toBe(39);
  });

  it('edited or removed, leave no file behind, and an incremental build equals a full one encoded afresh', async () => {
    const { dir, data, out, publicDir, build } = await photoSite();
    await build();
    const before = [...(await scanTree(out)).keys()];
    // The team photo retaken: other pixels under the same name, site.json as it was.
    await drawn(2000, 1500, 'TEST team again')
      .jpeg()
      .toFile(path.join(publicDir, 'images/team.jpg'));
    await build();
    const after = await scanTree(out);
    const full = path.join(dir, 'full');
    // No cache: every file encoded again, so the comparison also shows the encoder is repeatable.
    await build(full, { cacheDir: null });
    const fresh = await scanTree(full);
    expect([...after.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [rel, f] of after) expect(f.bytes, rel).toBe(fresh.get(rel)?.bytes);
    const gone = before.filter((rel) => !after.has(rel));
    expect(gone.filter((r) => r.startsWith('assets/photo-team-'))).toHaveLength(12);
    expect(gone.filter((r) => r.startsWith('assets/') && !r.includes('photo-team-'))).toEqual([]);

    // The job photo dropped from site.json: its files go, its own file is published again.
    await editJson(data, 'site.json', (s: { photos: Array<{ src: string }> }) => {
      s.photos = s.photos.filter((p) => p.src !== '/images/job.jpg');
    });
    await build();
    const dropped = await scanTree(out);
    expect([...dropped.keys()].filter((r) => r.startsWith('assets/photo-job-'))).toEqual([]);
    expect(dropped.has('images/job.jpg')).toBe(true);
    expect(await readFile(path.join(out, 'about/index.html'), 'utf8')).not.toContain('photo-job');
  });

  it('in French, show the words of their `fr`', async () => {
    const site = await loadSite(BUNDLED_DATA);
    const photos = [
      { src: '/images/a.jpg', alt: 'English words', caption: 'English caption' },
      { src: '/images/b.jpg', alt: 'Only English' },
      { src: '/images/c.jpg', alt: 'Words', fr: { alt: 'Mots français', caption: 'Légende' } },
    ];
    site.settings.photos = photos;
    const plan = planPhotos(
      photos.map((p) => ({
        src: p.src,
        role: 'photo' as const,
        record: 'photos[0]',
        field: 'src',
        bytes: new Uint8Array(),
        digest: p.src.padEnd(64, '0'),
        width: 1600,
        height: 1200,
      })),
      'test',
    );
    const assets = { css: '', js: '', cityIndex: '', fonts: [], photos: plan };
    const french = site.languages.get('fr');
    expect(french).toBeDefined();
    // The French site holds its own settings (the owner's French hours and promise), read at load.
    if (french) french.settings.photos = photos;
    const pages = buildPages(site);
    const about = pages.find((p) => p.path === '/fr/a-propos/');
    expect(about).toBeDefined();
    const root = parse(
      renderPage(
        { site, page: about as never, pages, assets, share: shareImages(site) },
        TEMPLATES,
      ),
    );
    expect(root.querySelectorAll('.photo-grid img').map((i) => i.getAttribute('alt'))).toEqual([
      'English words',
      'Only English',
      'Mots français',
    ]);
    expect(root.querySelector('#photos-title')?.textContent).toBe('Notre équipe et notre travail');
    expect(root.querySelectorAll('figcaption').map((f) => f.textContent)).toEqual([
      'English caption',
      'Légende',
    ]);
  });
});

describe('a photo the build cannot use', () => {
  const cases: Array<[string, (publicDir: string) => Promise<void>, RegExp]> = [
    ['is missing', async () => {}, /no such file in the public folder/],
    [
      'is not an image',
      (p) => writeFile(path.join(p, 'images/bad.jpg'), 'not a picture'),
      /is not an image the build can read/,
    ],
    [
      'is tiny',
      async (p) => {
        await drawn(200, 150, 'x').jpeg().toFile(path.join(p, 'images/bad.jpg'));
      },
      /is 200x150 px: a photo must be at least 320 px wide and 240 px high/,
    ],
    [
      'has too many pixels',
      (p) =>
        writeFile(
          path.join(p, 'images/bad.jpg'),
          '<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="15000"/>',
        ),
      /is 20000x15000 px: a photo must be under 100 megapixels/,
    ],
    [
      'is too large a file',
      async (p) => {
        await writeFile(path.join(p, 'images/bad.jpg'), '');
        await truncate(path.join(p, 'images/bad.jpg'), 60 * 1024 * 1024);
      },
      /is 60 MB: a photo must be under 50 MB/,
    ],
  ];

  for (const [what, make, message] of cases)
    it(`${what}: a data error naming site.json, the record and the field, and the last build left as it was`, async () => {
      const { data, out, publicDir, build } = await photoSite();
      await build();
      const before = await scanTree(out);
      await make(publicDir);
      await editJson(data, 'site.json', (s: { photos: Array<{ src: string; alt: string }> }) => {
        s.photos.push({ src: '/images/bad.jpg', alt: 'A bad one' });
      });
      const error = await build().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataError);
      expect((error as DataError).issues).toEqual([
        expect.objectContaining({
          file: expect.stringMatching(/site\.json$/),
          record: 'photos[3]',
          field: 'src',
          message: expect.stringMatching(message),
        }),
      ]);
      expect(await scanTree(out)).toEqual(before);
    });

  it("an adjuster's, named as business.adjusters[i].photo; generate and validate exit non-zero", async () => {
    const { dir, data, publicDir } = await photoSite();
    await rm(path.join(publicDir, 'images/adjuster.jpg'));
    const r = runCli(
      [
        'generate',
        '--data',
        data,
        '--public',
        publicDir,
        '--out',
        path.join(dir, 'dist'),
        '--no-audit',
      ],
      { env: { CLAIMSITE_CACHE_DIR: await tempDir() } },
    );
    const v = runCli(['validate', '--data', data, '--public', publicDir]);
    for (const run of [r, v]) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /site\.json, record business\.adjusters\[0\], field photo: "\/images\/adjuster\.jpg": no such file/,
      );
    }
  });
});
