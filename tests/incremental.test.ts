import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { manifestFile } from '../src/generate/manifest.js';
import { plannedUnits } from '../src/generate/plan.js';
import { NEARBY } from '../src/routes.js';
import { loadSite } from '../src/site/load.js';
import { nearbyCities } from '../src/site/model.js';
import { dataCopy, FIXTURE_DATA, scanTree } from './helpers.js';

describe('incremental builds', () => {
  it('write exactly the files whose bytes change, keep the rest as they were, and equal a full build', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const lastmod = '2026-11-22';
    await generate({ dataDir: data, outDir: out, lastmod, codeVersion: 'test' });
    const before = await scanTree(out);

    // Nothing changed: nothing is written.
    const again = await generate({ dataDir: data, outDir: out, lastmod, codeVersion: 'test' });
    expect(again.changed).toBe(0);
    expect(again.rendered).toBe(0);
    expect(again.bytes).toBe(
      [...before.values()].reduce((n, f) => n + Buffer.from(f.bytes, 'base64').length, 0),
    );
    const same = await scanTree(out);
    for (const [rel, f] of same)
      expect([rel, f.ino, f.mtimeMs]).toEqual([
        rel,
        before.get(rel)?.ino,
        before.get(rel)?.mtimeMs,
      ]);

    // One city's description edited.
    const file = path.join(data, 'cities/bc.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    cities[0].description =
      'Vancouver sits between the mountains and the sea. Atmospheric rivers bring days of rain.';
    await writeFile(file, JSON.stringify(cities));
    const result = await generate({ dataDir: data, outDir: out, lastmod, codeVersion: 'test' });
    const after = await scanTree(out);

    const full = path.join(dir, 'full');
    await generate({ dataDir: data, outDir: full, lastmod });
    const fresh = await scanTree(full);
    expect([...after.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [rel, f] of after) expect(f.bytes, rel).toBe(fresh.get(rel)?.bytes);

    const differing = [...after]
      .filter(([rel, f]) => f.bytes !== before.get(rel)?.bytes)
      .map(([rel]) => rel);
    expect(differing.length).toBeGreaterThan(0);
    expect(
      differing.every((rel) => rel.startsWith('vancouver/') || rel === 'sitemap/index.html'),
    ).toBe(true);
    expect(result.changed).toBe(differing.length);
    // Only the pages that show Vancouver's description were rendered again: its landing and area
    // pages and the HTML sitemap, not its About, Services or claim-type pages.
    expect(result.rendered).toBe(differing.length);
    expect(differing).toContain('vancouver/index.html');
    expect(differing).toContain('vancouver/kitsilano/index.html');
    expect(differing).not.toContain('vancouver/fire-damage-claims/index.html');
    for (const [rel, f] of after) {
      const old = before.get(rel);
      if (differing.includes(rel)) expect(f.ino, rel).not.toBe(old?.ino);
      else expect([rel, f.ino, f.mtimeMs]).toEqual([rel, old?.ino, old?.mtimeMs]);
    }
  });

  it('render again what a changed setting or a new top city touches, and equal a full build', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const opts = { dataDir: data, outDir: out, lastmod: '2026-11-22', codeVersion: 'test' };
    const first = await generate(opts);
    // Whitehorse outgrows Toronto: the home page and every footer change.
    const file = path.join(data, 'cities/yt.json');
    const yt = JSON.parse(await readFile(file, 'utf8'));
    yt[0].population = 3000000;
    await writeFile(file, JSON.stringify(yt));
    const second = await generate(opts);
    expect(second.rendered).toBe(first.pages);
    const full = path.join(dir, 'full');
    await generate({ ...opts, outDir: full });
    const [a, b] = [await scanTree(out), await scanTree(full)];
    for (const [rel, f] of b) expect(a.get(rel)?.bytes, rel).toBe(f.bytes);
    // A different code version renders everything again.
    expect((await generate({ ...opts, codeVersion: 'other' })).rendered).toBe(first.pages);
  });

  it('take the nearby cities from the last build while no city moved, and measure again once one did', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const opts = { dataDir: data, outDir: out, lastmod: '2026-11-22', codeVersion: 'test' };
    await generate(opts);
    const nearbyOf = async (rel: string) =>
      [...(await readFile(path.join(out, rel), 'utf8')).matchAll(/>Public adjusters in ([^<]+)</g)]
        .map((m) => m[1])
        .filter((name) => name !== 'Toronto');
    const area = 'toronto/scarborough/index.html';
    expect(await nearbyOf(area)).toEqual(['Ottawa', 'Vancouver', 'Whitehorse']);

    // The lists are kept beside the output: a build that finds the cities where they were uses
    // them as they are, here one changed by hand, when Toronto's pages render again.
    // Its first line is the header (src/generate/manifest.ts), a line per file follows.
    const manifestFile = path.join(dir, '.dist.manifest.json');
    const [head, ...files] = (await readFile(manifestFile, 'utf8')).split('\n');
    const manifest = JSON.parse(head ?? '');
    expect(manifest.nearby.lists.toronto).toEqual(['ottawa', 'vancouver', 'whitehorse']);
    manifest.nearby.lists.toronto = ['whitehorse', 'vancouver', 'ottawa'];
    await writeFile(manifestFile, [JSON.stringify(manifest), ...files].join('\n'));
    const file = path.join(data, 'cities/on.json');
    const on = JSON.parse(await readFile(file, 'utf8'));
    on[0].description = `${on[0].description} Lake-effect storms flood basements every spring.`;
    await writeFile(file, JSON.stringify(on));
    await generate(opts);
    expect(await nearbyOf(area)).toEqual(['Whitehorse', 'Vancouver', 'Ottawa']);

    // Whitehorse moves next to Toronto: every list is measured again, and the output is a full
    // build's.
    const ytFile = path.join(data, 'cities/yt.json');
    const yt = JSON.parse(await readFile(ytFile, 'utf8'));
    yt[0].coordinates = { lat: 43.7, lng: -79.4 };
    await writeFile(ytFile, JSON.stringify(yt));
    const moved = await generate(opts);
    expect(await nearbyOf(area)).toEqual(['Whitehorse', 'Ottawa', 'Vancouver']);
    expect(moved.rendered).toBeLessThan(moved.pages);
    const full = path.join(dir, 'full');
    await generate({ ...opts, outDir: full });
    const [a, b] = [await scanTree(out), await scanTree(full)];
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [rel, f] of b) expect(a.get(rel)?.bytes, rel).toBe(f.bytes);
  });

  it('put back a file deleted from the output, and delete one the data no longer makes', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const opts = { dataDir: data, outDir: out, lastmod: '2026-11-22', codeVersion: 'test' };
    await generate(opts);
    const before = await scanTree(out);
    await rm(path.join(out, 'toronto/about/index.html'));
    await rm(path.join(out, 'robots.txt'));
    const again = await generate(opts);
    expect(again.rendered).toBe(1);
    const after = await scanTree(out);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [rel, f] of before) expect(after.get(rel)?.bytes, rel).toBe(f.bytes);
    expect(again.bytes).toBe(
      [...after.values()].reduce((n, f) => n + Buffer.from(f.bytes, 'base64').length, 0),
    );

    // Toronto loses an area: its page goes, and nothing else is left behind.
    const file = path.join(data, 'cities/on.json');
    const on = JSON.parse(await readFile(file, 'utf8'));
    const toronto = on.find((c: { slug: string }) => c.slug === 'toronto');
    const gone = toronto.areas.pop();
    await writeFile(file, JSON.stringify(on));
    await generate(opts);
    const slug = gone.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    expect((await scanTree(out)).has(`toronto/${slug}/index.html`)).toBe(false);
    await expect(readdir(path.join(out, 'toronto', slug))).rejects.toThrow();
    const full = path.join(dir, 'full');
    await generate({ ...opts, outDir: full });
    expect([...(await scanTree(out)).keys()].sort()).toEqual(
      [...(await scanTree(full)).keys()].sort(),
    );
  });

  it('take a city whose pages read nothing that changed from the last manifest, without making them', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const opts = { dataDir: data, outDir: out, lastmod: '2026-11-22', codeVersion: 'test' };
    await generate(opts);
    const file = path.join(data, 'cities/bc.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    cities[0].description = 'Vancouver sits between the mountains and the sea.';
    await writeFile(file, JSON.stringify(cities));

    const site = await loadSite(data);
    const vancouver = site.cities.find((c) => c.slug === 'vancouver');
    // Made again: the site's own pages, the national entry's, Vancouver's, and those of the
    // cities that list Vancouver among their nearby cities. Every other city is copied.
    const neighbours = site.cities.filter(
      (c) => c !== vancouver && nearbyCities(site, c, NEARBY).some((n) => n.slug === 'vancouver'),
    );
    const before = { ...plannedUnits };
    await generate(opts);
    expect(plannedUnits.made - before.made).toBe(3 + neighbours.length);
    expect(plannedUnits.copied - before.copied).toBe(site.cities.length - 1 - neighbours.length);

    const full = path.join(dir, 'full');
    await generate({ ...opts, outDir: full });
    const fresh = await scanTree(full);
    const expectSame = async () => {
      const now = await scanTree(out);
      expect([...now.keys()].sort()).toEqual([...fresh.keys()].sort());
      for (const [rel, f] of now) expect(f.bytes, rel).toBe(fresh.get(rel)?.bytes);
    };
    await expectSame();
    // Its manifest has the lines a full build writes, copied or made (the same day, here).
    const lines = async (folder: string) =>
      (await readFile(manifestFile(folder), 'utf8')).split('\n').slice(1).sort();
    expect(await lines(out)).toEqual(await lines(full));
    // The sitemap and the audit took the copied pages from the manifest as a full build has them.
    expect(await readFile(path.join(out, 'sitemap.xml'), 'utf8')).toBe(
      await readFile(path.join(full, 'sitemap.xml'), 'utf8'),
    );

    // A copied city's share image deleted: drawn (or taken from the cache) again.
    const torontoPage = await readFile(path.join(out, 'toronto/index.html'), 'utf8');
    const image = /og:image" content="[^"]*\/(assets\/share-[^"]+\.png)"/.exec(torontoPage)?.[1];
    expect(image).toBeDefined();
    await rm(path.join(out, image as string));
    const mid = { ...plannedUnits };
    await generate(opts);
    expect(plannedUnits.made - mid.made).toBe(2);
    await expectSame();

    // A manifest line edited by hand is not trusted: that city's pages are made again.
    const manifest = await readFile(manifestFile(out), 'utf8');
    const edited = manifest.replace(/^(\["toronto\/index\.html",\d+,)"\d+"/m, '$1"x"');
    expect(edited).not.toBe(manifest);
    await writeFile(manifestFile(out), edited);
    const last = { ...plannedUnits };
    await generate(opts);
    expect(plannedUnits.made - last.made).toBe(3);
    await expectSame();

    // So is a unit's place among the lines: one line short, Toronto is made, and no page lost.
    const [head, ...rest] = (await readFile(manifestFile(out), 'utf8')).split('\n');
    const header = JSON.parse(head as string);
    header.units.toronto[2] -= 1;
    await writeFile(manifestFile(out), [JSON.stringify(header), ...rest].join('\n'));
    const shorter = { ...plannedUnits };
    await generate(opts);
    expect(plannedUnits.made - shorter.made).toBe(3);
    await expectSame();
  });

  it('make nothing again for data files written again in another layout, and a city again for a space in its text', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    const opts = { dataDir: data, outDir: out, lastmod: '2026-11-22', codeVersion: 'test' };
    await generate(opts);
    const before = await scanTree(out);
    // As an editor that formats on save, or a script, might write them: minified, with tabs, with
    // Windows line breaks.
    const layouts = [
      (v: unknown) => JSON.stringify(v),
      (v: unknown) => JSON.stringify(v, null, '\t'),
      (v: unknown) => JSON.stringify(v, null, 4).replace(/\n/g, '\r\n'),
    ];
    const dir = path.join(data, 'cities');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
    for (const [i, name] of files.entries()) {
      const file = path.join(dir, name);
      const layout = layouts[i % layouts.length] as (v: unknown) => string;
      await writeFile(file, layout(JSON.parse(await readFile(file, 'utf8'))));
    }
    const units = { ...plannedUnits };
    const again = await generate(opts);
    expect(plannedUnits.made - units.made).toBe(2);
    expect([again.rendered, again.changed]).toEqual([0, 0]);
    for (const [rel, f] of await scanTree(out))
      expect(f.mtimeMs, rel).toBe(before.get(rel)?.mtimeMs);

    // A space inside a string is the record's own: Vancouver's pages are made again.
    const file = path.join(dir, 'bc.json');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"Vancouver is ', '"Vancouver  is '));
    const edited = await generate(opts);
    expect(edited.rendered).toBeGreaterThan(0);
    expect((await scanTree(out)).get('vancouver/index.html')?.bytes).not.toBe(
      before.get('vancouver/index.html')?.bytes,
    );
  });
});
