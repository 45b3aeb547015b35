import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { audit, THRESHOLDS } from '../src/audit/audit.js';
import { mainText } from '../src/audit/main-text.js';
import { signature, similarity } from '../src/audit/minhash.js';
import { shingles, words } from '../src/audit/shingles.js';
import { generate } from '../src/generate/generate.js';
import { buildPages } from '../src/pages.js';
import { loadSite } from '../src/site/load.js';
import { BUNDLED_DATA, dataCopy, FIXTURE_DATA, runCli, scanTree, tempDir } from './helpers.js';

/** The exact Jaccard similarity of two texts' five-word phrases. */
function jaccard(a: string, b: string): number {
  const x = new Set(shingles(a));
  const y = new Set(shingles(b));
  let both = 0;
  for (const h of x) if (y.has(h)) both++;
  return both / (x.size + y.size - both);
}

const VOCABULARY =
  'roof water fire storm hail basement claim insurer policy adjuster flood smoke ice wind contents estimate settlement offer repair damage river sewer pipe attic siding'.split(
    ' ',
  );
/** `n` word indices from a seeded generator: texts whose phrases are nearly all distinct. */
function random(n: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 16;
  });
}
const textOf = (indices: number[]) =>
  indices.map((i) => VOCABULARY[i % VOCABULARY.length]).join(' ');

describe('main text', () => {
  it('is what a visitor reads in <main>: no breadcrumbs, forms, scripts, tags or entities', () => {
    const html =
      '<html><body><header>Menu</header><main id="main"><nav class="breadcrumbs" aria-label="Breadcrumb"><a>Home</a></nav>' +
      '<h1>Fire &amp; Smoke</h1><form><label>Your name</label></form><p>It&#x27;s real.</p>' +
      '<script>var x = 1;</script></main><footer>Footer</footer></body></html>';
    expect(words(mainText(html))).toEqual(['fire', 'smoke', "it's", 'real']);
    expect(mainText('<p>No main here</p>')).toBe('');
  });
});

describe('the audit', () => {
  it("counts exactly the phrases no other page has, and finds a page's near-copy", () => {
    const base = textOf(random(300, 1));
    const other = textOf(random(300, 2));
    const report = audit([
      { path: '/a/', kind: 'city', text: base },
      { path: '/b/', kind: 'city', text: `${base} and one more line of its own here` },
      { path: '/c/', kind: 'post', text: other },
    ]);
    const [a, b, c] = report.pages;
    // /a/ has nothing /b/ lacks; /b/ adds the phrases of its last line; /c/ shares none.
    expect(a?.ownPhrases).toBe(0);
    expect(b?.ownPhrases).toBe(
      shingles(`${base} and one more line of its own here`).length - shingles(base).length,
    );
    expect(c?.ownShare).toBe(1);
    expect(a?.nearest?.path).toBe('/b/');
    expect(a?.nearest?.similarity).toBeGreaterThan(0.9);
    expect(report.clusters).toEqual([['/a/', '/b/']]);
    expect(report.failures.some((f) => f.startsWith('/a/:'))).toBe(true);
    expect(report.failures.some((f) => f.startsWith('/c/:'))).toBe(false);
    expect(report.kinds.find((k) => k.kind === 'city')?.medianOwnShare).toBeLessThan(
      THRESHOLDS.medianOwnShare,
    );
  });

  it('estimates the similarity of two pages within 0.15 of the exact Jaccard similarity', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(200), { minLength: 150, maxLength: 400 }),
        fc.array(fc.nat(200), { minLength: 0, maxLength: 300 }),
        fc.nat(400),
        (common, own, cut) => {
          const a = textOf(common);
          const b = textOf([...common.slice(0, cut), ...own]);
          const exact = jaccard(a, b);
          const estimate = similarity(signature(shingles(a)), signature(shingles(b)));
          expect(Math.abs(estimate - exact)).toBeLessThan(0.15);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the audit of the bundled site', () => {
  it('passes in strict mode, and keeps every city an indexable page of its own', async () => {
    const dir = await tempDir();
    const out = path.join(dir, 'dist');
    const result = await generate({ dataDir: BUNDLED_DATA, outDir: out, audit: 'strict' });
    const report = result.audit;
    expect(report?.failures).toEqual([]);
    const site = await loadSite(BUNDLED_DATA);
    const indexed = new Set(report?.pages.map((p) => p.path));
    for (const city of [site.national, ...site.cities])
      expect(indexed.has(`/${city.slug}/`)).toBe(true);
    // What sitemap.xml lists is what was audited.
    const sitemap = await readFile(path.join(out, 'sitemap.xml'), 'utf8');
    const listed = [...sitemap.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(indexed);
    expect(buildPages(site).filter((p) => p.sitemap).length).toBe(indexed.size);
    const written = JSON.parse(await readFile(path.join(dir, '.dist.audit.json'), 'utf8'));
    expect(written.pages).toHaveLength(indexed.size);
  });
});

describe('the audit of an incremental build', () => {
  it('reads only the pages the build changed, and reports what a full build reports', async () => {
    const dir = await tempDir();
    const { data } = await dataCopy(FIXTURE_DATA);
    const out = path.join(dir, 'dist');
    await generate({ dataDir: data, outDir: out, audit: 'report', codeVersion: 'audit' });
    const index = path.join(dir, '.dist.audit-phrases.json');
    const kept = JSON.parse(await readFile(index, 'utf8')).pages as Record<string, unknown>;
    // Every audited page's phrases are kept beside the output for the next build.
    const site = await loadSite(data);
    const indexable = buildPages(site).filter((p) => p.sitemap);
    expect(Object.keys(kept).sort()).toEqual(indexable.map((p) => p.file).sort());

    const file = path.join(data, 'cities/on.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    cities[0].description = `${cities[0].description} A spring ice storm downed lines across the east end in 2013.`;
    await writeFile(file, JSON.stringify(cities));
    // A page kept from the last build whose phrases were lost would be read again: so that
    // the test sees the cache used, an unchanged page's kept phrases are made wrong on purpose.
    const bin = path.join(dir, '.dist.audit-phrases.bin');
    const bytes = await readFile(bin);
    const [offset, count] = kept['about/index.html'] as [number, number];
    bytes.fill(0x7f, offset, offset + 4 * count);
    await writeFile(bin, bytes);
    const incremental = await generate({
      dataDir: data,
      outDir: out,
      audit: 'report',
      codeVersion: 'audit',
    });
    const full = await generate({
      dataDir: data,
      outDir: path.join(dir, 'full'),
      audit: 'report',
      codeVersion: 'audit',
    });
    const score = (r: typeof full.audit, p: string) => r?.pages.find((s) => s.path === p);
    // The edited city's page was read again: it scores as in the full build.
    expect(incremental.rendered).toBeLessThan(full.rendered);
    expect(score(incremental.audit, `/${cities[0].slug}/`)).toEqual(
      score(full.audit, `/${cities[0].slug}/`),
    );
    // The About page was not: it has the phrases it was given, all one phrase.
    expect(score(incremental.audit, '/about/')?.ownPhrases).toBe(1);
    expect(score(full.audit, '/about/')?.ownPhrases).toBeGreaterThan(100);

    // Without the tampering, the two reports are the same; a build without the audit leaves
    // no phrases behind, since it may change what they describe.
    await generate({ dataDir: data, outDir: out, codeVersion: 'audit' });
    await expect(readFile(index)).rejects.toThrow();
    const again = await generate({
      dataDir: data,
      outDir: out,
      audit: 'report',
      codeVersion: 'audit',
    });
    expect(again.audit).toEqual(full.audit);
    const twice = await generate({
      dataDir: data,
      outDir: out,
      audit: 'report',
      codeVersion: 'audit',
    });
    expect(twice.rendered).toBe(0);
    expect(twice.audit).toEqual(full.audit);
  });
});

describe('claimsite generate --strict', () => {
  it('fails on near-duplicate cities, naming them, and leaves the last output as it was', async () => {
    const dir = await tempDir();
    const { data } = await dataCopy(FIXTURE_DATA);
    const out = path.join(dir, 'dist');
    expect(runCli(['generate', '--data', data, '--out', out, '--quiet']).code).toBe(0);
    const before = await scanTree(out);
    // Ottawa's page made Toronto's in all but a word.
    const file = path.join(data, 'cities/on.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    const long = Array.from(
      { length: 12 },
      (_, i) =>
        `Spring flood ${i} reached the basements along the river before the storm drains backed up.`,
    ).join(' ');
    cities[0].description = long;
    cities[1].description = `${long} Ottawa.`;
    await writeFile(file, JSON.stringify(cities, null, 2));
    const r = runCli(['generate', '--data', data, '--out', out, '--strict']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the content audit found \d+ pages? breaking its thresholds/);
    expect(r.stderr).toContain('/ottawa/:');
    expect(await scanTree(out)).toEqual(before);
    // Without --strict the same data builds, and the summary says what is wrong.
    const loose = runCli(['generate', '--data', data, '--out', out]);
    expect(loose.code).toBe(0);
    expect(loose.stdout).toMatch(/thresholds? broken/);
  });
});
