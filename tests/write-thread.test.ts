import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PageState } from '../src/generate/page-state.js';
import type { StageTarget } from '../src/generate/stage-writer.js';
import { WriterFailed, WriterThread } from '../src/generate/write-thread.js';
import { FragmentCache, type PageBytes } from '../src/render/fragments.js';
import { ROOT, tempDir } from './helpers.js';

// The compiled writer thread (npm test compiles it before the tests run).
const SCRIPT = new URL(`file://${path.join(ROOT, 'lib/write-worker.js')}`);

/** A page of `size` bytes, mixing one-byte and multi-byte characters, different for each n. */
function pageOf(n: number, size: number): PageBytes {
  const unit = `<p>Page ${n}: Côte-des-Neiges, Trois-Rivières — ${'x'.repeat(n % 7)}</p>`;
  const page = new FragmentCache().assemble(unit.repeat(Math.ceil(size / unit.length)));
  return page;
}

async function target(incremental: boolean): Promise<StageTarget> {
  const dir = await tempDir();
  const outDir = path.join(dir, 'dist');
  const staging = path.join(dir, '.dist.staging');
  await mkdir(outDir);
  await mkdir(staging);
  return { outDir, dir: staging, incremental };
}

/** The shared state of `count` pages, each of whose files is the previous build's if `owned`. */
function stateOf(count: number, owned = false): PageState {
  const state = PageState.create(count);
  state.owned.fill(owned ? 1 : 0);
  return state;
}

describe('writer thread', () => {
  it('stages every page byte for byte through a ring far smaller than the site', async () => {
    const t = await target(false);
    // 300 pages of up to 30 KB through a 64 KB ring: it wraps and fills many times, and pages
    // over half the ring go as bytes of their own.
    const state = stateOf(300);
    const writer = new WriterThread(SCRIPT, t, state, 'w-', 64 * 1024);
    const sizes = Array.from({ length: 300 }, (_, n) => 200 + ((n * 7919) % 30_000));
    sizes[17] = 50_000;
    const pages = sizes.map((size, n) => pageOf(n, size));
    pages.forEach((page, n) => {
      writer.putPage(`city-${n % 13}/page-${n}/index.html`, page, n);
    });
    const staged = await writer.finish();
    expect(staged.changed).toBe(300);
    expect([...state.changed]).toEqual(pages.map(() => 1));
    expect(staged.moves).toEqual([]);
    for (const [n, page] of pages.entries()) {
      const file = path.join(t.dir, `city-${n % 13}/page-${n}/index.html`);
      expect((await readFile(file)).equals(page.toBuffer()), file).toBe(true);
    }
  });

  it('starts over at the beginning of the ring after a page that ends exactly at its end', async () => {
    const t = await target(false);
    const writer = new WriterThread(SCRIPT, t, stateOf(12), 'w-', 1000);
    const pages = Array.from({ length: 12 }, (_, n) => {
      const page = new FragmentCache().assemble(String(n % 10).repeat(250));
      expect(page.size).toBe(250);
      return page;
    });
    for (const [n, page] of pages.entries()) writer.putPage(`p${n}.html`, page, n);
    await writer.finish();
    for (const n of pages.keys()) {
      expect(await readFile(path.join(t.dir, `p${n}.html`), 'utf8')).toBe(
        String(n % 10).repeat(250),
      );
    }
  });

  it('stages only the pages whose bytes change when updating an output', async () => {
    const pages = Array.from({ length: 40 }, (_, n) => pageOf(n, 5000));
    // The previous build wrote them all, so each may be replaced.
    const t = await target(true);
    const state = stateOf(40, true);
    for (const [n, page] of pages.entries()) {
      await mkdir(path.join(t.outDir, `p${n}`));
      // Every third page is on disk already as it is now; the others differ.
      await writeFile(
        path.join(t.outDir, `p${n}/index.html`),
        n % 3 === 0 ? page.toBuffer() : 'old bytes',
      );
    }
    const writer = new WriterThread(SCRIPT, t, state, 'w-', 16 * 1024);
    for (const [n, page] of pages.entries()) writer.putPage(`p${n}/index.html`, page, n);
    const staged = await writer.finish();
    const changed = pages.flatMap((_, n) => (n % 3 === 0 ? [] : [`p${n}/index.html`]));
    expect(staged.changed).toBe(changed.length);
    expect([...state.changed]).toEqual(pages.map((_, n) => (n % 3 === 0 ? 0 : 1)));
    expect(staged.moves.map(([, rel]) => rel)).toEqual(changed);
    for (const [name, rel] of staged.moves) {
      expect(name.startsWith('w-')).toBe(true);
      const n = Number(rel.slice(1, rel.indexOf('/')));
      expect(
        (await readFile(path.join(t.dir, name))).equals(pages[n]?.toBuffer() ?? Buffer.alloc(0)),
      ).toBe(true);
    }
  });

  it('reports a failed write, and stops the build from handing it more', async () => {
    const t = await target(false);
    // A staging folder under a regular file: every folder the writer makes fails (ENOTDIR).
    await writeFile(path.join(t.dir, 'blocker'), '');
    const writer = new WriterThread(
      SCRIPT,
      { ...t, dir: path.join(t.dir, 'blocker') },
      stateOf(2000),
      'w-',
      64 * 1024,
    );
    const put = () => {
      for (let n = 0; n < 2000; n++) writer.putPage(`p${n}/index.html`, pageOf(n, 20_000), n);
    };
    expect(put).toThrow(WriterFailed);
    // What the build reports is the writer's own error, naming the cause.
    expect((await writer.failure()).message).toMatch(/ENOTDIR/);
    expect((await stat(path.join(t.dir, 'blocker'))).isFile()).toBe(true);
  });
});
