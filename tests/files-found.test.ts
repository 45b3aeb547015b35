import { existsSync, statSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILES_THREAD_MIN_BYTES, findFiles } from '../src/generate/files-found.js';
import {
  entryLine,
  type FileEntry,
  manifestFile,
  manifestHeader,
} from '../src/generate/manifest.js';
import { MANIFEST_THREAD_MIN_BYTES } from '../src/generate/manifest-read.js';
import { Staging } from '../src/generate/staging.js';
import { dataCopy, FIXTURE_DATA, runCli, scanTree, tempDir, writtenManifest } from './helpers.js';

describe('the files of the last output still there', () => {
  it('are found entry by entry, odd names included, for the manifest as it was read', async () => {
    const out = `${await tempDir()}/dist`;
    const odd = ['a "quoted" name.txt', 'back\\slash.txt', 'été/index.html', 'tab\there.txt'];
    const pages = Array.from({ length: 3000 }, (_, i) => `city-${i % 40}/area-${i}/index.html`);
    const entries: FileEntry[] = [
      ...pages.map((rel, i): FileEntry => [rel, i, String(1e15 + i)]),
      ...odd.map((rel, i): FileEntry => [rel, 10 + i]),
    ];
    // Every third file is there; a header longer than the reader's megabyte a read.
    const there = entries.filter((_, i) => i % 3 === 0).map(([rel]) => rel);
    for (const rel of there) {
      await mkdir(path.dirname(path.join(out, rel)), { recursive: true });
      await writeFile(path.join(out, rel), '');
    }
    const lists = Object.fromEntries(pages.map((rel) => [rel, ['x'.repeat(400)]]));
    const read = writtenManifest(
      out,
      entries,
      manifestHeader({ key: 'k', public: {}, nearby: { key: 'n', lists } }),
    );
    const files = findFiles(out);
    if (!files) throw new Error('no files found');
    expect(files.found.length).toBe(entries.length);
    expect(files.stamp).toBe(read.stamp);
    for (const [n, [rel]] of entries.entries()) {
      expect(read.entryOf(rel)).toBe(n);
      expect(files.found[n], rel).toBe(there.includes(rel) ? 1 : 0);
    }

    // The staging takes them for the manifest it reads, and asks the disk for another's.
    const staging = Staging.open(out, read);
    staging.takeFound(files);
    await rm(path.join(out, there[1] as string));
    expect(staging.keepPage(there[1] as string)).toBe(true);
    expect(staging.keepPage(pages[1] as string)).toBe(false);
    staging.abort();
    const rewritten = writtenManifest(out, entries);
    expect(rewritten.stamp).not.toBe(files.stamp);
    const again = Staging.open(out, rewritten);
    again.takeFound(files);
    expect(again.keepPage(there[1] as string)).toBe(false);
    expect(again.keepPage(there[2] as string)).toBe(true);
    again.abort();
    expect(findFiles(path.join(out, 'none'))).toBeNull();
  });

  // Under new code (another build key) no page is reused, and the build lets go of the last
  // manifest's lines of pages before it renders (PreviousManifest.keepUnmarked): what the thread
  // found must then follow the lines kept.
  it.each([
    ['the same code', null],
    ['new code', 'the key of an older claimsite'],
  ])(
    'are found by the thread of a large output under %s: a deleted page or image is made again',
    async (_, key) => {
      const { data, out } = await dataCopy(FIXTURE_DATA);
      const args = ['generate', '--data', data, '--out', out, '--quiet', '--no-audit'];
      // One build day for both builds: a run across midnight would change the sitemap's lastmod.
      const day = { env: { SOURCE_DATE_EPOCH: String(Date.parse('2026-11-27T12:00:00Z') / 1000) } };
      expect(runCli(args, day).code).toBe(0);
      const before = await scanTree(out);
      const deleted = ['index.html', 'toronto/about/index.html', 'sitemap.xml'];
      const toronto = await readFile(path.join(out, 'toronto/index.html'), 'utf8');
      const image = /og:image" content="[^"]*\/(assets\/share-[^"]+\.png)"/.exec(toronto)?.[1];
      expect(image).toBeDefined();
      for (const rel of [...deleted, image as string]) await rm(path.join(out, rel));
      // The last output as large as one the thread checks (FILES_THREAD_MIN_BYTES): files it
      // listed that are gone since, as after a city was dropped by hand.
      const gone: string[] = [];
      for (let i = 0, bytes = 0; bytes < FILES_THREAD_MIN_BYTES; i++) {
        gone.push(entryLine([`gone-${i % 500}/${i}/index.html`, 1000, String(i)]));
        bytes += (gone.at(-1) as string).length + 1;
      }
      await appendFile(manifestFile(out), `${gone.join('\n')}\n`);
      // Large enough that a thread reads it too (see manifest-read.ts), and one checks its files.
      expect(statSync(manifestFile(out)).size).toBeGreaterThanOrEqual(MANIFEST_THREAD_MIN_BYTES);
      expect(statSync(manifestFile(out)).size).toBeGreaterThanOrEqual(FILES_THREAD_MIN_BYTES);
      if (key) {
        const [head, ...lines] = (await readFile(manifestFile(out), 'utf8')).split('\n');
        const header = { ...JSON.parse(head as string), key };
        await writeFile(manifestFile(out), [JSON.stringify(header), ...lines].join('\n'));
      }
      const again = runCli(args, day);
      expect(again.code, again.stderr).toBe(0);
      const after = await scanTree(out);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [rel, f] of before) expect(after.get(rel)?.bytes, rel).toBe(f.bytes);
      // Kept files kept their inode: only the deleted ones were written.
      for (const [rel, f] of before)
        if (![...deleted, image].includes(rel)) expect(after.get(rel)?.ino, rel).toBe(f.ino);
      const manifest = await readFile(manifestFile(out), 'utf8');
      expect(manifest).not.toContain('gone-');
      expect(existsSync(path.join(out, 'gone-0'))).toBe(false);
    },
  );
});
