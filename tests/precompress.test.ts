import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { recoverOutput } from '../src/generate/commit.js';
import { generate } from '../src/generate/generate.js';
import { manifestFile } from '../src/generate/manifest.js';
import { BIN, dataCopy, FIXTURE_DATA, scanTree, tempDir, treeBytes } from './helpers.js';

const lastmod = '2026-11-22';
const opts = { lastmod, codeVersion: 'test', precompress: true };
const compressible = (rel: string) => /\.(html|css|js|mjs|xml|svg)$/.test(rel);
const forms = (rel: string) => [`${rel}.br`, `${rel}.gz`];

/** Vancouver's description edited: its pages, and the pages that list it, change. */
async function editVancouver(data: string) {
  const file = path.join(data, 'cities/bc.json');
  const cities = JSON.parse(await readFile(file, 'utf8'));
  cities[0].description = 'Vancouver sits between the mountains and the sea. It rains.';
  await writeFile(file, JSON.stringify(cities));
}

/** Two trees hold the same paths with the same bytes. */
function expectSameBytes(a: Map<string, { bytes: string }>, b: Map<string, { bytes: string }>) {
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  for (const [rel, f] of a) expect(f.bytes, rel).toBe(b.get(rel)?.bytes);
}

describe('generate --precompress', () => {
  it('writes a brotli and a gzip form beside every HTML, CSS, JS, XML and SVG file, each its bytes', async () => {
    const out = path.join(await tempDir(), 'dist');
    const result = await generate({ dataDir: FIXTURE_DATA, outDir: out, ...opts });
    const tree = await scanTree(out);
    const sources = [...tree.keys()].filter(compressible);
    expect(sources).toEqual(
      expect.arrayContaining(['index.html', 'toronto/index.html', 'sitemap.xml', 'favicon.svg']),
    );
    expect(sources.some((rel) => rel.endsWith('.css'))).toBe(true);
    expect(sources.some((rel) => rel.endsWith('.js'))).toBe(true);
    for (const rel of sources) {
      const original = Buffer.from(tree.get(rel)?.bytes ?? '', 'base64');
      const br = tree.get(`${rel}.br`);
      const gz = tree.get(`${rel}.gz`);
      // A form no smaller than its file is not written; every page is far larger.
      if (rel.endsWith('.html')) expect(br && gz, rel).toBeTruthy();
      if (br)
        expect(brotliDecompressSync(Buffer.from(br.bytes, 'base64')).equals(original)).toBe(true);
      if (gz) expect(gunzipSync(Buffer.from(gz.bytes, 'base64')).equals(original)).toBe(true);
    }
    const page = tree.get('toronto/index.html.br');
    expect(Buffer.from(page?.bytes ?? '', 'base64').length).toBeLessThan(
      Buffer.from(tree.get('toronto/index.html')?.bytes ?? '', 'base64').length / 3,
    );
    // Nothing else is compressed: images are already, robots.txt is a few bytes.
    expect(
      [...tree.keys()].filter((rel) => /\.(br|gz)$/.test(rel) && !compressible(rel.slice(0, -3))),
    ).toEqual([]);
    // The manifest owns them, as every file the build wrote.
    const manifest = await readFile(manifestFile(out), 'utf8');
    expect(manifest).toContain('["toronto/index.html.br",');
    expect(manifest).toContain('["toronto/index.html.gz",');
    expect(result.files).toBe(tree.size);
  });

  it('rewrites the forms of the files whose bytes changed, keeps the others as they were, and equals a full build', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    await generate({ dataDir: data, outDir: out, ...opts });
    const before = await scanTree(out);

    // Nothing changed: nothing is compressed or written again.
    expect((await generate({ dataDir: data, outDir: out, ...opts })).changed).toBe(0);
    for (const [rel, f] of await scanTree(out))
      expect([rel, f.ino, f.mtimeMs]).toEqual([
        rel,
        before.get(rel)?.ino,
        before.get(rel)?.mtimeMs,
      ]);

    await editVancouver(data);
    const result = await generate({ dataDir: data, outDir: out, ...opts });
    const after = await scanTree(out);
    await generate({ dataDir: data, outDir: path.join(dir, 'full'), ...opts });
    expectSameBytes(after, await scanTree(path.join(dir, 'full')));

    const differing = [...after]
      .filter(([rel, f]) => f.bytes !== before.get(rel)?.bytes)
      .map(([rel]) => rel);
    const pages = differing.filter((rel) => rel.endsWith('.html'));
    expect(pages).toContain('vancouver/index.html');
    // Exactly the changed files' forms changed with them; every other file kept its inode.
    expect(differing.sort()).toEqual(
      [...pages, ...pages.flatMap(forms)].filter((rel) => after.has(rel)).sort(),
    );
    expect(result.changed).toBe(differing.length);
    for (const [rel, f] of after)
      if (!differing.includes(rel))
        expect([rel, f.ino, f.mtimeMs]).toEqual([
          rel,
          before.get(rel)?.ino,
          before.get(rel)?.mtimeMs,
        ]);
  });

  it('removes the forms with their page, and every form once a build is not asked for them', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    await generate({ dataDir: data, outDir: out, ...opts });
    const file = path.join(data, 'cities/on.json');
    const on = JSON.parse(await readFile(file, 'utf8'));
    const toronto = on.find((c: { slug: string }) => c.slug === 'toronto');
    const gone = (toronto.areas.pop() as string).toLowerCase().replace(/[^a-z0-9]+/g, '-');
    await writeFile(file, JSON.stringify(on));
    await generate({ dataDir: data, outDir: out, ...opts });
    const tree = await scanTree(out);
    const page = `toronto/${gone}/index.html`;
    expect(pageAndForms(tree, page)).toEqual([]);
    expect(tree.has('toronto/index.html.br')).toBe(true);

    // Built without --precompress: no compressed form is left behind to go stale.
    await generate({ dataDir: data, outDir: out, lastmod, codeVersion: 'test' });
    expect([...(await scanTree(out)).keys()].filter((rel) => /\.(br|gz)$/.test(rel))).toEqual([]);
    // And with it again: the same output as a full build's.
    await generate({ dataDir: data, outDir: out, ...opts });
    await generate({ dataDir: data, outDir: path.join(dir, 'full'), ...opts });
    expectSameBytes(await scanTree(out), await scanTree(path.join(dir, 'full')));
  });

  it('writes a deleted form again, and compresses everything again under another compressor', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    await generate({ dataDir: data, outDir: out, ...opts });
    const made = await treeBytes(out);
    await rm(path.join(out, 'toronto/index.html.br'));
    expect((await generate({ dataDir: data, outDir: out, ...opts })).changed).toBe(1);
    expect(await treeBytes(out)).toEqual(made);

    // A form damaged in place is not noticed while the compressor is the same (as a page is
    // not), but is made again by a build under another one: another Node's brotli or zlib.
    const gz = path.join(out, 'toronto/about/index.html.gz');
    const bytes = await readFile(gz);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    await writeFile(gz, bytes);
    await generate({ dataDir: data, outDir: out, ...opts });
    expect(await readFile(gz)).toEqual(bytes);
    const [head, ...rest] = (await readFile(manifestFile(out), 'utf8')).split('\n');
    const header = JSON.parse(head as string);
    expect(header.precompressed).toMatch(/^br 5 .*gzip 9 /);
    header.precompressed = 'br 5 0.0.0, gzip 9 0.0.0';
    await writeFile(manifestFile(out), [JSON.stringify(header), ...rest].join('\n'));
    const again = await generate({ dataDir: data, outDir: out, ...opts });
    expect(again.changed).toBe(1);
    expect(await treeBytes(out)).toEqual(made);
  });

  it("leaves the owner's own compressed file from public/ as it is, and compresses once it is gone", async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    const publicDir = path.join(dir, 'public');
    await mkdir(publicDir);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<circle r="1"/>'.repeat(200)}</svg>`;
    await writeFile(path.join(publicDir, 'badge.svg'), svg);
    await writeFile(path.join(publicDir, 'badge.svg.br'), 'the owner made this');
    await generate({ dataDir: data, outDir: out, publicDir, ...opts });
    expect(await readFile(path.join(out, 'badge.svg.br'), 'utf8')).toBe('the owner made this');
    expect(gunzipSync(await readFile(path.join(out, 'badge.svg.gz'))).toString()).toBe(svg);
    await rm(path.join(publicDir, 'badge.svg.br'));
    await generate({ dataDir: data, outDir: out, publicDir, ...opts });
    expect(brotliDecompressSync(await readFile(path.join(out, 'badge.svg.br'))).toString()).toBe(
      svg,
    );
    await generate({ dataDir: data, outDir: path.join(dir, 'full'), publicDir, ...opts });
    expectSameBytes(await scanTree(out), await scanTree(path.join(dir, 'full')));
  });

  it('stages every form with the pages: a build that fails while compressing leaves the last output as it was', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    await generate({ dataDir: data, outDir: out, lastmod, codeVersion: 'test' });
    // A file of the owner's where the last form (the sitemap's, after every page's) would go.
    await writeFile(path.join(out, 'sitemap.xml.gz'), 'not ours');
    const before = await scanTree(out);
    await expect(generate({ dataDir: data, outDir: out, ...opts })).rejects.toThrow(
      /sitemap\.xml\.gz was not written by claimsite/,
    );
    const after = await scanTree(out);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [rel, f] of after)
      expect([rel, f.bytes, f.ino, f.mtimeMs]).toEqual([
        rel,
        before.get(rel)?.bytes,
        before.get(rel)?.ino,
        before.get(rel)?.mtimeMs,
      ]);
  });

  it('leaves the previous output, or the whole new one, when a precompressing build is killed', async () => {
    const { dir, data, out } = await dataCopy(FIXTURE_DATA);
    await generate({ dataDir: data, outDir: out, ...opts });
    const previous = await treeBytes(out);
    await editVancouver(data);
    await generate({ dataDir: data, outDir: path.join(dir, 'reference'), ...opts });
    const next = await treeBytes(path.join(dir, 'reference'));
    expect(next.get('vancouver/index.html.br')).not.toBe(previous.get('vancouver/index.html.br'));
    let killed = 0;
    for (const delay of [200, 400, 700, 1000, 1400]) {
      const now = await killedAt(delay, data, out);
      if (now.get('vancouver/index.html') === previous.get('vancouver/index.html')) {
        expect(now).toEqual(previous);
        killed++;
      } else {
        expect(now).toEqual(next);
        break;
      }
    }
    // At least one kill landed before the commit (else this tried nothing).
    expect(killed).toBeGreaterThan(0);
  });
});

/** The paths of a tree that are the page or one of its forms. */
function pageAndForms(tree: Map<string, unknown>, page: string): string[] {
  return [page, ...forms(page)].filter((rel) => tree.has(rel));
}

/**
 * Runs the real CLI with --precompress into `out`, SIGKILLs it after `delay` ms (a build may end
 * first), then does what the next build does first (recoverOutput) and returns what is left.
 */
async function killedAt(delay: number, data: string, out: string) {
  const child = spawn(
    process.execPath,
    [BIN, 'generate', '--data', data, '--out', out, '--quiet', '--no-audit', '--precompress'],
    {
      env: { ...process.env, SOURCE_DATE_EPOCH: String(Date.parse(`${lastmod}T12:00:00Z`) / 1000) },
    },
  );
  const exited = new Promise((r) => child.on('exit', r));
  await new Promise((r) => setTimeout(r, delay));
  child.kill('SIGKILL');
  await exited;
  recoverOutput(out);
  return treeBytes(out);
}
