import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { plannedUnits } from '../src/generate/plan.js';
import { ROUTES, type Route } from '../src/routes.js';
import { BUNDLED_DATA, dataCopy, FIXTURE_DATA, scanTree } from './helpers.js';

/** The routes, but `from`'s About page is at `onto`'s own page: two pages of one file. */
function colliding(from: string, onto: string): Route[] {
  return ROUTES.map((r) => {
    if (r.id !== 'city-about' || !('cityPages' in r)) return r;
    return {
      ...r,
      cityPages: (city, site) => {
        const page = r.cityPages(city, site);
        return city.slug === from && !Array.isArray(page) ? { ...page, path: `/${onto}/` } : page;
      },
    };
  });
}

/** Each file of a folder, by path: its inode and modification time (which a write changes). */
async function stamps(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    const s = await stat(full);
    out[path.relative(dir, full)] = `${s.ino}:${s.mtimeMs}`;
  }
  return out;
}

/** Rewrites one city's description; returns what puts it back. */
async function edit(data: string, slug: string): Promise<() => Promise<void>> {
  const file = path.join(data, `cities/${slug === 'toronto' ? 'on' : 'nu'}.json`);
  const text = await readFile(file, 'utf8');
  const cities = JSON.parse(text) as Array<Record<string, unknown>>;
  const city = cities.find((c) => c.slug === slug) as Record<string, unknown>;
  city.description = `${String(city.description)} Edited.`;
  await writeFile(file, JSON.stringify(cities));
  return () => writeFile(file, text);
}

describe('two pages of one file', () => {
  const lastmod = '2026-11-22';
  // The bundled data set, built once: each rebuild below fails, leaves the output as it was
  // (which it checks), and puts the data back as it was.
  let built: Promise<{ data: string; out: string }> | null = null;
  const builtOnce = () =>
    (built ??= dataCopy(BUNDLED_DATA).then(async (copy) => {
      await generate({ dataDir: copy.data, outDir: copy.out, lastmod, codeVersion: 'test' });
      return copy;
    }));

  it('stop a first build, whatever the order of the pages', async () => {
    for (const [from, onto] of [
      ['toronto', 'ottawa'],
      ['ottawa', 'toronto'],
    ] as const) {
      const { out } = await dataCopy(FIXTURE_DATA);
      await expect(
        generate({ dataDir: FIXTURE_DATA, outDir: out, lastmod, routes: colliding(from, onto) }),
      ).rejects.toThrow(`Two pages would write ${onto}/index.html`);
      expect((await scanTree(out)).size).toBe(0);
    }
  });

  // An edited city's pages are made, and its neighbours'; every other city's are copied from
  // the last manifest, without a table of paths: the manifest's marks find a made page on a
  // copied page's file, in either order (Toronto's unit comes first, Iqaluit's late, and
  // neither is near the other). Under new code every page is made, and marked.
  it.each([
    ['toronto', 'iqaluit', 'test'],
    ['iqaluit', 'toronto', 'test'],
    ['toronto', 'iqaluit', 'new code'],
    ['iqaluit', 'toronto', 'new code'],
  ])(
    'stop a rebuild where %s is made onto %s (%s), and leave the output as it was',
    async (from, onto, code) => {
      const { data, out } = await builtOnce();
      const before = await stamps(out);
      const restore = await edit(data, from);
      const planned = { ...plannedUnits };
      await expect(
        generate({
          dataDir: data,
          outDir: out,
          lastmod,
          codeVersion: code,
          routes: colliding(from, onto),
        }),
      ).rejects.toThrow(`Two pages would write ${onto}/index.html: `);
      // Under the same code the city it collides with was copied, not made: most were.
      if (code === 'test')
        expect(plannedUnits.copied - planned.copied).toBeGreaterThan(
          plannedUnits.made - planned.made,
        );
      else expect(plannedUnits.copied).toBe(planned.copied);
      expect(await stamps(out)).toEqual(before);
      await restore();
    },
  );
});
