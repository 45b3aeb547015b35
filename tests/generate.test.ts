import { spawn } from 'node:child_process';
import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleClient, readPrebuiltClient } from '../src/generate/client-bundle.js';
import { recoverOutput } from '../src/generate/commit.js';
import { generate } from '../src/generate/generate.js';
import { packageRoot } from '../src/root.js';
import { TEMPLATES } from '../templates/pages/index.js';
import {
  BIN,
  BUNDLED_DATA,
  dataCopy,
  FIXTURE_DATA,
  runCli,
  scanTree,
  tempDir,
  treeBytes,
} from './helpers.js';

describe('generate', () => {
  it('writes every page as {path}/index.html plus 404.html, sitemap.xml and robots.txt', async () => {
    const out = path.join(await tempDir(), 'dist');
    const result = await generate({ dataDir: FIXTURE_DATA, outDir: out, lastmod: '2026-11-22' });
    expect(result.pages).toBe(103);
    for (const f of [
      'index.html',
      'toronto/index.html',
      'toronto/about/index.html',
      'canada/ontario/index.html',
      '404.html',
      'sitemap.xml',
      'robots.txt',
    ]) {
      expect((await stat(path.join(out, f))).isFile()).toBe(true);
    }
    const html = await readFile(path.join(out, 'toronto/about/index.html'), 'utf8');
    expect(html.startsWith('<!DOCTYPE html><html lang="en-CA"')).toBe(true);
    // A city's About page says what every city's does: indexed as its city's page.
    expect(html).toContain(
      '<meta name="robots" content="noindex"/><link rel="canonical" href="https://www.claimright.ca/toronto/"/>',
    );
    expect(html).toContain(
      '<title>About Our Public Adjusters in Toronto | ClaimRight Canada</title>',
    );
    const robots = await readFile(path.join(out, 'robots.txt'), 'utf8');
    expect(robots).toContain('Sitemap: https://www.claimright.ca/sitemap.xml');
    // Nothing is left beside the output folder.
    expect((await readdir(path.dirname(out))).sort()).toEqual(['.dist.manifest.json', 'dist']);
  });

  it('takes the base URL from the option', async () => {
    const out = path.join(await tempDir(), 'dist');
    await generate({ dataDir: FIXTURE_DATA, outDir: out, baseUrl: 'https://claims.example.org/' });
    const html = await readFile(path.join(out, 'faq/index.html'), 'utf8');
    expect(html).toContain('<link rel="canonical" href="https://claims.example.org/faq/"/>');
    expect(await readFile(path.join(out, 'sitemap.xml'), 'utf8')).toContain(
      '<loc>https://claims.example.org/</loc>',
    );
  });

  it('leaves the previous output byte for byte as it was when a template throws on one page', async () => {
    const out = path.join(await tempDir(), 'dist');
    await generate({ dataDir: FIXTURE_DATA, outDir: out });
    const before = await treeBytes(out);
    const throwing = {
      ...TEMPLATES,
      'claim-type': (ctx: Parameters<(typeof TEMPLATES)['claim-type']>[0]) => {
        if (ctx.page.path === '/vancouver/flood-damage-claims/') throw new Error('boom');
        return TEMPLATES['claim-type'](ctx);
      },
    };
    await expect(
      generate({ dataDir: FIXTURE_DATA, outDir: out, templates: throwing }),
    ).rejects.toThrow('Failed to render page /vancouver/flood-damage-claims/: boom');
    expect(await treeBytes(out)).toEqual(before);
    expect((await readdir(path.dirname(out))).sort()).toEqual(['.dist.manifest.json', 'dist']);
  });

  it('leaves no output, or the whole new one, when the first build into a new folder is killed', async () => {
    const dir = await tempDir();
    const out = path.join(dir, 'dist');
    const lastmod = '2026-11-22';
    const expected = await treeBytes(
      (await generate({ dataDir: FIXTURE_DATA, outDir: path.join(dir, 'reference'), lastmod }))
        .outDir,
    );
    const none = async () => {
      await rm(out, { recursive: true, force: true });
      await rm(path.join(dir, '.dist.manifest.json'), { force: true });
      await rm(path.join(dir, '.dist.audit.json'), { force: true });
      await rm(path.join(dir, '.dist.valid-records.json'), { force: true });
    };
    // Kill the real CLI at different moments. What the next build finds, once it has cleared
    // what the kill left (recoverOutput, its first step), is no folder or the whole new site.
    for (const delay of [100, 200, 300, 450, 600]) {
      await none();
      const now = await killedAt(delay, out, lastmod);
      if (now.size > 0) expect(now).toEqual(expected);
    }
    await none();
    await generate({ dataDir: FIXTURE_DATA, outDir: out, lastmod });
    expect((await readdir(dir)).sort()).toEqual([
      '.dist.manifest.json',
      '.reference.manifest.json',
      'dist',
      'reference',
    ]);
    expect(await treeBytes(out)).toEqual(expected);
  });

  it("clears what a killed build was writing beside the output, and not a running build's", async () => {
    const dir = await tempDir();
    const out = path.join(dir, 'dist');
    // A process that has exited: its pid names a build that is no longer running.
    const done = spawn(process.execPath, ['-e', '']);
    const dead = done.pid as number;
    await new Promise((r) => done.on('exit', r));
    const running = process.ppid;
    const aside = (pid: number) =>
      ['manifest.json', 'audit-state.bin', 'valid-records.json'].map(
        (name) => `.dist.${name}.${pid}.tmp`,
      );
    const others = ['.dist.valid-records.json', '.dist.manifest.json', '.dist.notes.1.tmp'];
    for (const name of [...aside(dead), ...aside(running), ...others])
      await writeFile(path.join(dir, name), 'x');
    recoverOutput(out);
    expect((await readdir(dir)).sort()).toEqual([...aside(running), ...others].sort());
  });

  it('leaves the previous output, or the whole new one, when an incremental build is killed', async () => {
    const { data, out, lastmod, before, after } = await editedSite();
    for (const delay of [100, 200, 300, 450, 600]) {
      const now = await killedAt(delay, out, lastmod, data);
      if (now.get('vancouver/index.html') === before.get('vancouver/index.html')) {
        expect(now).toEqual(before);
      } else {
        expect(now).toEqual(after);
        break;
      }
    }
  });

  it('completes a decided incremental commit that was cut short', async () => {
    const { dir, data, out, lastmod, before, after } = await editedSite();
    // A file where the commit needs a folder stops it after its journal was written and some
    // of its files were moved: as a kill at that moment would.
    await rm(path.join(out, 'vancouver/about'), { recursive: true });
    await writeFile(path.join(out, 'vancouver/about'), 'in the way');
    await expect(generate({ dataDir: data, outDir: out, lastmod })).rejects.toThrow();
    expect((await readdir(dir)).some((n) => n === '.dist.journal')).toBe(true);
    await rm(path.join(out, 'vancouver/about'));
    const cut = await treeBytes(out);
    const moved = [...cut].filter(([rel, b]) => before.get(rel) !== b);
    expect(moved.length).toBeGreaterThan(0); // partly applied
    expect(moved.every(([rel, b]) => after.get(rel) === b)).toBe(true);
    // The next build completes the commit before anything else (recoverOutput), the new
    // manifest too, which the journal puts in place once the files are; then finds nothing to do.
    recoverOutput(out);
    const manifest = await readFile(path.join(dir, '.dist.manifest.json'), 'utf8');
    expect(JSON.parse(manifest.slice(0, manifest.indexOf('\n'))).nearby?.lists).toHaveProperty(
      'vancouver',
    );
    const next = await generate({ dataDir: data, outDir: out, lastmod });
    expect(next.changed).toBe(0);
    expect(await treeBytes(out)).toEqual(after);
    expect((await readdir(dir)).sort()).toEqual([
      '.dist.manifest.json',
      '.reference.manifest.json',
      'data',
      'dist',
      'reference',
    ]);
    expect(next.files).toBe(after.size);
  });
});

/**
 * Runs the real CLI into `out`, SIGKILLs it after `delay` ms (a build may end first), then
 * does what the next build does first (recoverOutput) and returns what is left.
 */
async function killedAt(delay: number, out: string, lastmod: string, data = FIXTURE_DATA) {
  const child = spawn(
    process.execPath,
    [BIN, 'generate', '--data', data, '--out', out, '--quiet'],
    {
      env: { ...process.env, SOURCE_DATE_EPOCH: String(Date.parse(`${lastmod}T12:00:00Z`) / 1000) },
    },
  );
  // Listened for at once: a build that ends before the kill has already exited by then.
  const exited = new Promise((r) => child.on('exit', r));
  await new Promise((r) => setTimeout(r, delay));
  child.kill('SIGKILL');
  await exited;
  recoverOutput(out);
  return treeBytes(out);
}

/**
 * A fixture site built into `out` (`before`), then Vancouver's description edited: `after` is a
 * full build of the edited data, made beside it in `reference`.
 */
async function editedSite() {
  const dir = await tempDir();
  const data = path.join(dir, 'data');
  await cp(FIXTURE_DATA, data, { recursive: true });
  const out = path.join(dir, 'dist');
  const lastmod = '2026-11-22';
  await generate({ dataDir: data, outDir: out, lastmod });
  const before = await treeBytes(out);
  await editVancouver(data);
  const after = await treeBytes(
    (await generate({ dataDir: data, outDir: path.join(dir, 'reference'), lastmod })).outDir,
  );
  return { dir, data, out, lastmod, before, after };
}

/** Vancouver's description edited: its pages, and the pages that list it, change. */
async function editVancouver(data: string) {
  const file = path.join(data, 'cities/bc.json');
  const cities = JSON.parse(await readFile(file, 'utf8'));
  cities[0].description =
    'Vancouver sits between the mountains and the sea. Atmospheric rivers bring days of rain.';
  await writeFile(file, JSON.stringify(cities));
}

describe('threaded builds', () => {
  // The bundled site is large enough for the compiled CLI to write on a thread of its own.
  const generate = (data: string, out: string, ...args: string[]) => {
    const r = runCli(['generate', '--data', data, '--out', out, ...args], {
      env: { SOURCE_DATE_EPOCH: String(Date.parse('2026-11-22T12:00:00Z') / 1000) },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Built [\d,]+ pages \(([\d,]+) rendered\)/);
    return r.stdout;
  };

  it('writes the same bytes with a writer thread and render workers as on one thread', async () => {
    const dir = await tempDir();
    const modes = [['--workers', '0'], [], ['--workers', '2']];
    for (const [name, data] of [
      ['fixture', FIXTURE_DATA],
      ['bundled', BUNDLED_DATA],
    ] as const) {
      const outs = modes.map((_, i) => path.join(dir, `${name}-${i}`));
      for (const [i, args] of modes.entries()) generate(data, outs[i] ?? '', ...args);
      const [serial, ...threaded] = await Promise.all(outs.map((o) => treeBytes(o)));
      expect(serial?.size).toBeGreaterThan(100);
      for (const t of threaded) expect(differing(t, serial)).toEqual([]);
      // The audit too: of pages split as this thread rendered them, or read back from the
      // workers' files.
      const reports = await Promise.all(
        modes.map((_, i) => readFile(path.join(dir, `.${name}-${i}.audit.json`), 'utf8')),
      );
      expect(reports[1]).toBe(reports[0]);
      expect(reports[2]).toBe(reports[0]);
    }
    // Six whole builds, three of the bundled site: a time limit for a machine shared with others.
  }, 300_000);

  // Three whole builds of the bundled site each (the next two tests): a time limit for a machine
  // shared with others.
  it('updates an output through the writer thread: changed files only, equal to a full build', async () => {
    const { dir, data, out } = await dataCopy(BUNDLED_DATA);
    generate(data, out);
    const before = await scanTree(out);
    // A new site name is on every page: every page is rendered and compared, on the writer thread.
    await renameSite(data);
    // Its share images too (about 200 files), which show the name.
    const counts = /Built ([\d,]+) pages \(([\d,]+) rendered\): ([\d,]+) files \(([\d,]+) changed\)/
      .exec(generate(data, out))
      ?.slice(1)
      .map((n) => Number(n.replaceAll(',', '')));
    const [pages, rendered, files, changed] = counts ?? [];
    expect(rendered).toBe(pages);

    const fresh = path.join(dir, 'fresh');
    generate(data, fresh);
    expect(await treeBytes(out)).toEqual(await treeBytes(fresh));
    // The files the name is not in (the script, the stylesheet) kept their time; the share images
    // and the favicon (titled with it) show it, the images each as a new file under a new name.
    const after = await scanTree(out);
    const kept = [...after]
      .filter(([rel, f]) => before.get(rel)?.mtimeMs === f.mtimeMs)
      .map(([rel]) => rel);
    const isShare = (rel: string) => rel.startsWith('assets/share-');
    expect(kept.sort()).toEqual(
      [...after.keys()]
        .filter((rel) => /^(assets\/|robots\.txt$|sitemap\.xml$|_headers$)/.test(rel))
        .filter((rel) => !isShare(rel))
        .sort(),
    );
    // Every other file changed: the pages and the share images.
    expect(changed).toBe((files ?? 0) - kept.length);
    const shares = [...after.keys()].filter(isShare);
    expect(shares.length).toBeGreaterThan(190);
    for (const rel of shares) expect(before.has(rel), rel).toBe(false);
    expect(await readdir(dir)).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/^\.dist\.(staging|journal|old)/)]),
    );
  }, 240_000);

  it('leaves the previous output, or the whole new one, when a threaded build is killed', async () => {
    const { dir, data, out } = await dataCopy(BUNDLED_DATA);
    const lastmod = '2026-11-22';
    generate(data, out);
    const before = await treeBytes(out);
    await renameSite(data);
    const reference = path.join(dir, 'reference');
    generate(data, reference);
    const after = await treeBytes(reference);
    // Killed while rendering and writing, and (most likely, at the last delays) while committing.
    for (const delay of [300, 800, 1300, 1800, 2300]) {
      const now = await killedAt(delay, out, lastmod, data);
      if (now.get('index.html') === before.get('index.html')) expect(now).toEqual(before);
      else {
        expect(now).toEqual(after);
        break;
      }
    }
  }, 240_000);
});

/** The files two snapshots disagree on: missing from one, or with other bytes. */
function differing(a = new Map<string, string>(), b = new Map<string, string>()): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((rel) => a.get(rel) !== b.get(rel)).sort();
}

/** A new site name, which is on every page. */
async function renameSite(data: string) {
  const file = path.join(data, 'site.json');
  const settings = JSON.parse(await readFile(file, 'utf8'));
  await writeFile(file, JSON.stringify({ ...settings, siteName: 'ClaimWise Canada' }));
}

describe('client bundle', () => {
  it('is the same, byte for byte, whether prebuilt with the compiled CLI or bundled from sources', async () => {
    const root = packageRoot();
    // npm test compiles the CLI (scripts/build-cli.mjs) before this runs.
    const prebuilt = readPrebuiltClient(root);
    expect(prebuilt).not.toBeNull();
    const fresh = await bundleClient(root);
    expect(Buffer.from(prebuilt?.js ?? []).equals(Buffer.from(fresh.js))).toBe(true);
    expect(Buffer.from(prebuilt?.css ?? []).equals(Buffer.from(fresh.css))).toBe(true);
    expect(fresh.js.byteLength).toBeGreaterThan(1000);
  });
});
