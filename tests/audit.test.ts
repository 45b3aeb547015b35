import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  audit,
  auditTables,
  type PageChange,
  THRESHOLDS,
  updateTables,
} from '../src/audit/audit.js';
import { buildAudits } from '../src/audit/build-audit.js';
import { mainText } from '../src/audit/main-text.js';
import { BINS, signature, similarity } from '../src/audit/minhash.js';
import { nearestSiblings, renewNearest } from '../src/audit/nearest.js';
import { shingles, words } from '../src/audit/shingles.js';
import { filesRead } from '../src/audit/site-audit.js';
import { Topics } from '../src/audit/topics.js';
import { generate } from '../src/generate/generate.js';
import { buildPages } from '../src/pages.js';
import { answersAll, cityAnswers } from '../src/site/city-answers.js';
import { loadSite } from '../src/site/load.js';
import {
  BUNDLED_DATA,
  dataCopy,
  editJson,
  FIXTURE_DATA,
  runCli,
  scanTree,
  tempDir,
} from './helpers.js';

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

describe('relevance', () => {
  const topics = new Topics({ en: ['flood', 'insur', 'claim', 'storm'], fr: ['inond'] });
  const onTopic =
    'A storm flooded the basement on Main Street last spring. The insurer paid the claim for the wet carpet and the furnace. Heavy rain flooded the laundry room again in June of that year.';
  const offTopic =
    'The town was founded by settlers who built a mill on the river in 1850. Its church and school stand on the old market square beside the town hall. Farmers brought grain to the mill by wagon every autumn.';

  it("counts the share of a page's own text in sentences about damage, claims, insurance, risk or recovery", () => {
    const report = audit(
      [
        { path: '/a/', kind: 'city', text: `Our City ${onTopic}` },
        { path: '/b/', kind: 'city', text: `Our City ${offTopic}` },
        {
          path: '/c/',
          kind: 'city',
          text: 'Our City A storm flooded cellars across the east end in the summer of 2020. The harbour was dredged for larger ships in the nineteenth century by the navy. Two bridges cross the narrows to the old fort and the lighthouse on the point. The museum keeps maps of the old shoreline and photographs of the shipyards.',
        },
      ],
      topics,
    );
    const score = (path: string) => report.pages.find((p) => p.path === path)?.relevance;
    expect(score('/a/')).toBe(1);
    expect(score('/b/')).toBe(0);
    expect(score('/c/')).toBeGreaterThan(0);
    expect(score('/c/')).toBeLessThan(0.5);
    expect(report.kinds[0]?.leastRelevant).toBe('/b/');
    expect(report.failures).toContain(
      '/b/: 0% of its own text is about damage, claims, insurance, risk or recovery (at least 35%)',
    );
    expect(report.failures.some((f) => f.startsWith('city: the median page has'))).toBe(true);
  });

  it('counts no heading or name in a list for or against a page, and French after an elision', () => {
    // Runs of fewer than six words are no sentences: a page of headings has no relevance to count.
    const headings = audit(
      [{ path: '/h/', kind: 'x', text: 'Neighbourhoods\nThe Annex\nYorkville\n' }],
      topics,
    );
    expect(headings.pages[0]?.relevance).toBe(0);
    const french = audit(
      [
        {
          path: '/f/',
          kind: 'x',
          text: "La rue a connu l'inondation de mai dernier après trois jours de pluie.",
        },
      ],
      topics,
    );
    expect(french.pages[0]?.relevance).toBe(1);
  });

  it('holds no legal page to it, and measures nothing without a lexicon', () => {
    const legal = audit([{ path: '/privacy/', kind: 'privacy', text: offTopic }], topics);
    expect(legal.pages[0]?.relevance).toBe(0);
    expect(legal.failures.filter((f) => f.includes('about damage'))).toEqual([]);
    const none = audit([{ path: '/b/', kind: 'city', text: offTopic }]);
    expect(none.pages[0]?.relevance).toBeNull();
    expect(none.kinds[0]?.medianRelevance).toBeNull();
    expect(THRESHOLDS.medianRelevance).toBe(0.6);
    expect(THRESHOLDS.minRelevance).toBe(0.35);
  });
});

describe('the audit of the bundled site', () => {
  it('passes in strict mode, and keeps every city that answers the four questions an indexable page', async () => {
    const dir = await tempDir();
    const out = path.join(dir, 'dist');
    const result = await generate({ dataDir: BUNDLED_DATA, outDir: out, audit: 'strict' });
    const report = result.audit;
    expect(report?.failures).toEqual([]);
    const site = await loadSite(BUNDLED_DATA);
    const indexed = new Set(report?.pages.map((p) => p.path));
    // Every city whose data answers a homeowner's four questions is indexed; one that does not
    // points search engines at its province's page (see hasSubstance in src/routes.ts).
    expect(indexed.has('/canada/')).toBe(true);
    const answering = site.cities.filter((c) => answersAll(cityAnswers(site.facts, c)));
    expect(answering.length).toBeGreaterThanOrEqual(9);
    for (const city of site.cities)
      expect(indexed.has(`/${city.slug}/`), city.slug).toBe(answering.includes(city));
    // Its province's page, or the national page where that one is itself consolidated (no chain).
    for (const page of buildPages(site).filter((p) => p.route === 'city-home' && !p.sitemap)) {
      expect(page.canonical, page.path).toMatch(/^(\/fr)?\/canada\/([a-z-]+\/)?$/);
      expect(indexed.has(page.canonical ?? ''), page.path).toBe(true);
    }
    for (const kind of report?.kinds ?? [])
      if (!['privacy', 'terms'].includes(kind.kind))
        expect(kind.medianRelevance, kind.kind).toBeGreaterThanOrEqual(0.6);
    // What sitemap.xml lists is what was audited.
    const sitemap = await readFile(path.join(out, 'sitemap.xml'), 'utf8');
    const listed = [...sitemap.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(indexed);
    expect(buildPages(site).filter((p) => p.sitemap).length).toBe(indexed.size);
    const written = JSON.parse(await readFile(path.join(dir, '.dist.audit.json'), 'utf8'));
    expect(written.pages).toHaveLength(indexed.size);
    // A whole build of the bundled site with its audit: more than the default minute on a busy machine.
  }, 180_000);
});

describe('the tables of an incremental audit', () => {
  /** Pages made of a few shared texts with a little of their own: buckets fuller than a window. */
  const site = fc
    .tuple(
      fc.array(fc.uniqueArray(fc.nat(3000), { minLength: 20, maxLength: 120 }), {
        minLength: 1,
        maxLength: 3,
      }),
      fc.array(fc.tuple(fc.nat(), fc.uniqueArray(fc.nat(3000), { maxLength: 30 })), {
        minLength: 2,
        maxLength: 40,
      }),
    )
    .map(([texts, pages]) =>
      pages.map(([text, own]) => phraseSet([...(texts[text % texts.length] as number[]), ...own])),
    );
  const phraseSet = (values: number[]) => Uint32Array.from(new Set(values)).sort();

  it('updated with the pages that changed, equal the tables made anew of the site as it is', () => {
    fc.assert(
      fc.property(
        site,
        fc.array(
          fc.record({
            page: fc.nat(),
            // A copy of another page, exact or near (a duplicate made), new text, or none.
            like: fc.option(fc.nat()),
            text: fc.uniqueArray(fc.nat(3000), { maxLength: 80 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (pages, edits) => {
          const tables = auditTables(pages);
          const now = [...pages];
          const changes: PageChange[] = [];
          for (const { page, like, text } of edits) {
            const p = page % now.length;
            const after =
              like === null
                ? phraseSet(text)
                : phraseSet([
                    ...(now[like % now.length] as Uint32Array),
                    ...text.slice(0, text.length % 2 ? 3 : 0),
                  ]);
            changes.push({ page: p, before: now[p] as Uint32Array, after });
            now[p] = after;
          }
          updateTables(tables, changes);
          const fresh = auditTables(now);
          expect(tables.phrases).toEqual(fresh.phrases);
          expect(tables.own).toEqual(fresh.own);
          // Phrases carry their topic bits (see shingles): the own text on topic is kept alike.
          expect(tables.ownSentences).toEqual(fresh.ownSentences);
          expect(tables.ownTopic).toEqual(fresh.ownTopic);
          expect(tables.signatures).toEqual(fresh.signatures);
          expect(tables.nearest).toEqual(fresh.nearest);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('find again the pages as far as a window on either side of a page that left or joined a run of copies', () => {
    const copy = shingles(textOf(random(300, 4)));
    const other = shingles(textOf(random(300, 5)));
    const pages = Array.from({ length: 30 }, () => copy);
    const tables = auditTables(pages);
    // Each copy's nearest is the first copy in its window, which page 10 was, until it leaves.
    for (const [page, before, after] of [
      [10, copy, other],
      [10, other, copy],
      [3, copy, other],
      [25, copy, other],
    ] as const) {
      updateTables(tables, [{ page, before, after }]);
      pages[page] = after;
      expect(tables.nearest).toEqual(auditTables(pages).nearest);
    }
  });

  it("find again a page whose nearest, a window's width after it, changed", () => {
    // Ten pages alike in their first band only, so that each is the others' candidate there and
    // nowhere else; page 8 shares most of bins 4 to 63 with page 0, but no whole band.
    const signatures = new Uint16Array(10 * BINS);
    for (let page = 0; page < 10; page++)
      for (let bin = 0; bin < BINS; bin++)
        signatures[page * BINS + bin] = bin < 4 ? 7 : page * 1000 + bin;
    for (let bin = 4; bin < 64; bin++) if (bin % 4 !== 3) signatures[8 * BINS + bin] = bin;
    for (let bin = 4; bin < 64; bin++) if (bin % 4 !== 3) signatures[bin] = bin;
    const nearest = nearestSiblings(signatures);
    expect(nearest.page[0]).toBe(8);
    const before = signatures.slice(8 * BINS, 9 * BINS);
    for (let bin = 4; bin < BINS; bin++) signatures[8 * BINS + bin] = 8000 + bin;
    renewNearest(signatures, nearest, new Map([[8, before]]));
    expect(nearest).toEqual(nearestSiblings(signatures));
    expect(nearest.page[0]).toBe(1);
  });

  it('find again the nearest pages of a few pages only, on a site of a thousand', () => {
    const texts = [random(400, 7), random(400, 8), random(400, 9)].map((t) => shingles(textOf(t)));
    const pages = Array.from({ length: 1000 }, (_, i) =>
      phraseSet([...(texts[i % 3] as Uint32Array), ...random(3, i + 100)]),
    );
    const tables = auditTables(pages);
    const after = phraseSet([...(texts[1] as Uint32Array), 1, 2, 3]);
    const renewed = updateTables(tables, [{ page: 500, before: pages[500] as Uint32Array, after }]);
    pages[500] = after;
    expect(tables.nearest).toEqual(auditTables(pages).nearest);
    // The page's window in each bucket it left or joined, not the site.
    expect(renewed).toBeGreaterThan(1);
    expect(renewed).toBeLessThan(100);
  });
});

describe('the audit of an incremental build', () => {
  it('reads only the pages the build changed, and reports what a full build reports', async () => {
    const dir = await tempDir();
    const { data } = await dataCopy(FIXTURE_DATA);
    const out = path.join(dir, 'dist');
    const build = (outDir: string, audit?: 'report') =>
      generate({ dataDir: data, outDir, audit, codeVersion: 'audit' });
    const read = filesRead.count;
    await build(out, 'report');
    // The pages were split into phrases as they were rendered, not read back.
    expect(filesRead.count).toBe(read);
    // What the next audit starts from is kept beside the output.
    const state = path.join(dir, '.dist.audit-state.bin');
    expect((await stat(state)).size).toBeGreaterThan(0);
    expect((await stat(path.join(dir, '.dist.audit-phrases.bin'))).size).toBeGreaterThan(0);

    // A page the next build keeps is not read again: so that the test sees it, the About page's
    // file is given other words (the build keeps a file whose inputs did not change).
    const about = path.join(out, 'about', 'index.html');
    const html = await readFile(about, 'utf8');
    const other = textOf(random(400, 3));
    await writeFile(
      about,
      html.replace(/<main([^>]*)>[\s\S]*<\/main>/, `<main$1><p>${other}</p></main>`),
    );
    const file = path.join(data, 'cities/on.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    cities[0].description = `${cities[0].description} A spring ice storm downed lines across the east end in 2013.`;
    await writeFile(file, JSON.stringify(cities));
    const updated = buildAudits.updated;
    const incremental = await build(out, 'report');
    expect(buildAudits.updated).toBe(updated + 1);
    expect(filesRead.count).toBe(read);
    const full = await build(path.join(dir, 'full'), 'report');
    expect(incremental.rendered).toBeLessThan(full.rendered);
    // The edited city's page was read again, the About page was not: the report is the full
    // build's, to the last page.
    expect(incremental.audit).toEqual(full.audit);
    const written = JSON.parse(await readFile(path.join(dir, '.dist.audit.json'), 'utf8'));
    expect(written.pages).toEqual(full.audit?.pages);

    // A build without the audit leaves no state behind, since it may change what it describes;
    // the next audit reads every page, the About page's other words too.
    await build(out);
    await expect(stat(state)).rejects.toThrow();
    const made = buildAudits.made;
    const again = await build(out, 'report');
    expect(buildAudits.made).toBe(made + 1);
    const score = (r: typeof full.audit, p: string) => r?.pages.find((s) => s.path === p);
    expect(score(again.audit, '/about/')?.phrases).toBe(shingles(other).length);
    // Nothing changed since: nothing rendered, and the same report from the updated tables.
    const twice = await build(out, 'report');
    expect(twice.rendered).toBe(0);
    expect(buildAudits.updated).toBe(updated + 2);
    expect(twice.audit).toEqual(again.audit);
  });
});

describe('the audit state beside the output', () => {
  it('is made anew from the pages when it does not add up, and the report is still right', async () => {
    const dir = await tempDir();
    const { data } = await dataCopy(FIXTURE_DATA);
    const out = path.join(dir, 'dist');
    const build = (outDir: string) =>
      generate({ dataDir: data, outDir, audit: 'report', codeVersion: 'audit' });
    await build(out);
    // Every phrase's page count set to none: the first phrase the update takes out is missing.
    const state = path.join(dir, '.dist.audit-state.bin');
    const bytes = await readFile(state);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + bytes.readUInt32LE(0)));
    const capacity = header.table.capacity as number;
    bytes.fill(0, bytes.length - 8 * capacity, bytes.length - 4 * capacity);
    await writeFile(state, bytes);
    const file = path.join(data, 'cities/on.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    cities[0].description = `${cities[0].description} Freezing rain closed the 401 in 2013.`;
    await writeFile(file, JSON.stringify(cities));
    const made = buildAudits.made;
    const incremental = await build(out);
    expect(buildAudits.made).toBe(made + 1);
    expect(incremental.audit).toEqual((await build(path.join(dir, 'full'))).audit);
  });
});

describe('claimsite generate --strict', () => {
  it('fails on near-duplicate cities, naming them, and leaves the last output as it was', async () => {
    const dir = await tempDir();
    const { data } = await dataCopy(FIXTURE_DATA);
    // No sample figures (the fixture has none of its own), which --strict would refuse first.
    await editJson(data, 'content/about.json', (a: { stats?: unknown[] }) => {
      a.stats = [];
    });
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
