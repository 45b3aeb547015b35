import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build/build.js';
import { bundleClient, readPrebuiltClient } from '../src/build/client-bundle.js';
import { packageRoot } from '../src/build/root.js';
import { TEMPLATES } from '../templates/pages/index.js';
import { BIN, FIXTURE_DATA, tempDir } from './helpers.js';

/** Every file under dir with its bytes, for byte-for-byte comparisons. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, full), await readFile(full, 'base64'));
  }
  return out;
}

describe('build', () => {
  it('writes every page as {path}/index.html plus 404.html, sitemap.xml and robots.txt', async () => {
    const out = path.join(await tempDir(), 'dist');
    const result = await build({ dataDir: FIXTURE_DATA, outDir: out, lastmod: '2026-11-22' });
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
    expect(html).toContain(
      '<link rel="canonical" href="https://www.claimright.ca/toronto/about"/>',
    );
    expect(html).toContain(
      '<title>About Our Public Adjusters in Toronto | ClaimRight Canada</title>',
    );
    const robots = await readFile(path.join(out, 'robots.txt'), 'utf8');
    expect(robots).toContain('Sitemap: https://www.claimright.ca/sitemap.xml');
    // Nothing is left beside the output folder.
    expect((await readdir(path.dirname(out))).sort()).toEqual(['dist']);
  });

  it('takes the base URL from the option', async () => {
    const out = path.join(await tempDir(), 'dist');
    await build({ dataDir: FIXTURE_DATA, outDir: out, baseUrl: 'https://claims.example.org/' });
    const html = await readFile(path.join(out, 'faq/index.html'), 'utf8');
    expect(html).toContain('<link rel="canonical" href="https://claims.example.org/faq"/>');
    expect(await readFile(path.join(out, 'sitemap.xml'), 'utf8')).toContain(
      '<loc>https://claims.example.org/</loc>',
    );
  });

  it('leaves the previous output byte for byte as it was when a template throws on one page', async () => {
    const out = path.join(await tempDir(), 'dist');
    await build({ dataDir: FIXTURE_DATA, outDir: out });
    const before = await snapshot(out);
    const throwing = {
      ...TEMPLATES,
      'claim-type': (ctx: Parameters<(typeof TEMPLATES)['claim-type']>[0]) => {
        if (ctx.page.path === '/vancouver/flood-damage-claims') throw new Error('boom');
        return TEMPLATES['claim-type'](ctx);
      },
    };
    await expect(
      build({ dataDir: FIXTURE_DATA, outDir: out, templates: throwing }),
    ).rejects.toThrow('Failed to render page /vancouver/flood-damage-claims: boom');
    expect(await snapshot(out)).toEqual(before);
    expect((await readdir(path.dirname(out))).sort()).toEqual(['dist']);
  });

  it('leaves the previous output as it was when the build process is killed', async () => {
    const dir = await tempDir();
    const out = path.join(dir, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'index.html'), 'previous site');
    // Kill the real CLI repeatedly at different moments; whatever it had done, dist/ is intact.
    for (const delay of [100, 200, 300, 450, 600]) {
      const child = spawn(process.execPath, [
        BIN,
        'generate',
        '--data',
        FIXTURE_DATA,
        '--out',
        out,
        '--quiet',
      ]);
      // Listened for at once: a build that ends before the kill has already exited by then.
      const exited = new Promise((r) => child.on('exit', r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await exited;
      const entries = await readdir(dir);
      if (!entries.includes('dist')) {
        // Killed between the two renames of the swap: the old tree waits beside it.
        expect(entries.some((e) => e.startsWith('.dist.old-'))).toBe(true);
        continue;
      }
      const index = await readFile(path.join(out, 'index.html'), 'utf8');
      if (index !== 'previous site') {
        // The build finished before the kill: then the whole new site is there.
        expect(index).toContain('<!DOCTYPE html>');
        expect((await stat(path.join(out, 'sitemap.xml'))).isFile()).toBe(true);
        await rm(out, { recursive: true });
        await mkdir(out);
        await writeFile(path.join(out, 'index.html'), 'previous site');
      }
    }
    // The next build recovers anything a kill left aside and cleans up its staging folders.
    await build({ dataDir: FIXTURE_DATA, outDir: out });
    expect((await readdir(dir)).sort()).toEqual(['dist']);
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('<!DOCTYPE html>');
  });
});

describe('client bundle', () => {
  it('is the same, byte for byte, whether prebuilt with the compiled CLI or bundled from sources', async () => {
    const root = packageRoot();
    // npm test compiles the CLI (scripts/build-cli.mjs) before this runs.
    const prebuilt = await readPrebuiltClient(root);
    expect(prebuilt).not.toBeNull();
    const fresh = await bundleClient(root);
    expect(Buffer.from(prebuilt?.js ?? []).equals(Buffer.from(fresh.js))).toBe(true);
    expect(Buffer.from(prebuilt?.css ?? []).equals(Buffer.from(fresh.css))).toBe(true);
    expect(fresh.js.byteLength).toBeGreaterThan(1000);
  });
});
