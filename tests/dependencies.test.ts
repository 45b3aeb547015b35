import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAudits } from '../src/audit/build-audit.js';
import { generate } from '../src/generate/generate.js';
import { buildPages } from '../src/pages.js';
import { FragmentCache } from '../src/render/fragments.js';
import { renderPage } from '../src/render/render.js';
import { shareImages } from '../src/share/share-images.js';
import { loadSite } from '../src/site/load.js';
import { TEMPLATES } from '../templates/pages/index.js';
import { type Edit, editOf, everyEdit } from './data-edits.js';
import { BUNDLED_DATA, FIXTURE_DATA, scanTree, tempDir } from './helpers.js';

/**
 * What a page depends on is declared by its route (reads) and shared by all pages (the build
 * key); shared fragments are keyed by their component and props. These tests derive whether
 * those are right from what the pages show: after an edit of any field of the data, a build
 * that reuses the last one must write exactly what a build from nothing writes, and touch no
 * file whose bytes stayed the same. A missing dependency serves a stale page and fails them.
 */
const lastmod = '2026-11-22';
/**
 * Random edits in a row: 30 for a pull request, 60 in the full run (`npm test -- --full`, which
 * sets CLAIMSITE_TEST_FULL). Every kind of edit is built on its own in every run.
 */
const RANDOM_EDITS = process.env.CLAIMSITE_TEST_FULL === '1' ? 60 : 30;
const reuse = { lastmod, codeVersion: 'test' };

/**
 * The build after an edit equals a build from nothing, and rewrote only what changed; with the
 * audit, its report is the same too.
 */
async function expectIncrementalEqualsFull(
  data: string,
  out: string,
  fresh: string,
  what: string,
  audit?: 'report',
) {
  const before = await scanTree(out);
  const incremental = await generate({ dataDir: data, outDir: out, audit, ...reuse });
  const full = await generate({ dataDir: data, outDir: fresh, audit, ...reuse });
  expect(incremental.audit, `after ${what}: the audit's report`).toEqual(full.audit);
  const after = await scanTree(out);
  const made = await scanTree(fresh);
  const stale = [...new Set([...after.keys(), ...made.keys()])].filter(
    (rel) => after.get(rel)?.bytes !== made.get(rel)?.bytes,
  );
  expect(stale, `after ${what}: files that differ from a full build`).toEqual([]);
  const touched = [...after].filter(([rel, f]) => {
    const old = before.get(rel);
    return old?.bytes === f.bytes && (old.ino !== f.ino || old.mtimeMs !== f.mtimeMs);
  });
  expect(
    touched.map(([rel]) => rel),
    `after ${what}: files rewritten with the same bytes`,
  ).toEqual([]);
}

describe('dependencies derived from what pages show', () => {
  it('every kind of edit: an incremental build writes what a full build writes', async () => {
    const root = await tempDir('claimsite-deps-');
    const pristine = path.join(root, 'pristine');
    await generate({ dataDir: FIXTURE_DATA, outDir: pristine, ...reuse });
    let n = 0;
    for (const [name, edit] of everyEdit()) {
      n++;
      // Each edit on its own copy of the data and of the last build (and its manifest).
      const dir = path.join(root, `edit-${n}`);
      await mkdir(dir);
      const data = path.join(dir, 'data');
      await cp(FIXTURE_DATA, data, { recursive: true });
      const out = path.join(dir, 'dist');
      await cp(pristine, out, { recursive: true, preserveTimestamps: true });
      await cp(path.join(root, '.pristine.manifest.json'), path.join(dir, '.dist.manifest.json'));
      const what = `${name}: ${await edit(data, n)}`;
      await expectIncrementalEqualsFull(data, out, path.join(dir, 'fresh'), what);
    }
    expect(n).toBeGreaterThan(50);
  }, 600_000);

  it('random edits one after another: each incremental build writes and audits what a full build does', async () => {
    const root = await tempDir('claimsite-random-');
    const data = path.join(root, 'data');
    await cp(FIXTURE_DATA, data, { recursive: true });
    const out = path.join(root, 'dist');
    await generate({ dataDir: data, outDir: out, audit: 'report', ...reuse });
    const updated = buildAudits.updated;
    let step = 0;
    const edits = fc.array(
      fc.record({ kind: fc.nat(), pick: fc.nat() }).map(({ kind, pick }) => editOf(kind, pick)),
      { minLength: RANDOM_EDITS, maxLength: RANDOM_EDITS },
    );
    await fc.assert(
      fc.asyncProperty(edits, async (list: Edit[]) => {
        for (const edit of list) {
          step++;
          const what = `edit ${step}: ${await edit(data, 1000 + step)}`;
          const full = path.join(root, `full-${step}`);
          await expectIncrementalEqualsFull(data, out, full, what, 'report');
        }
      }),
      // One run of edits in a row; a failure names the edit, and the seed replays it.
      { numRuns: 1, endOnFailure: true },
    );
    // Many edits change a few pages of the same set: the audit's tables were updated, not made
    // anew. About half of random edits do (27 of 60 in one run, over 30 in others); the others
    // add or remove pages, change most of them, or find the phrases file due for compaction. A
    // quarter is far enough below that half to hold for any seed, and far above none.
    expect(buildAudits.updated - updated).toBeGreaterThanOrEqual(Math.floor(RANDOM_EDITS / 4));
  }, 300_000);

  it('every bundled page is the same bytes rendered with and without its shared fragments', async () => {
    const site = await loadSite(BUNDLED_DATA);
    const pages = buildPages(site);
    const assets = {
      css: '/assets/site.css',
      js: '/assets/app.js',
      cityIndex: '/assets/c.json',
      fonts: [],
    };
    const fragments = new FragmentCache();
    const differ: string[] = [];
    for (const page of pages) {
      const ctx = { site, page, pages, assets, share: shareImages(site) };
      if (renderPage(ctx, TEMPLATES, fragments) !== renderPage(ctx, TEMPLATES))
        differ.push(page.path);
    }
    expect(differ).toEqual([]);
    expect(pages.length).toBeGreaterThan(3000);
  }, 120_000);
});
