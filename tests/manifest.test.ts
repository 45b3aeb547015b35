import { describe, expect, it } from 'vitest';
import {
  type FileEntry,
  manifestFile,
  manifestHeader,
  PreviousManifest,
  pageLine,
} from '../src/generate/manifest.js';
import { readAndIndex } from '../src/generate/manifest-read.js';
import { tempDir, writeManifest, writtenManifest } from './helpers.js';

describe('the manifest', () => {
  it('finds every file by its path, odd names included, and lists those not marked', async () => {
    const out = `${await tempDir()}/dist`;
    const odd = ['a "quoted" name.txt', 'back\\slash.txt', 'été/index.html', 'tab\there.txt'];
    const pages = Array.from({ length: 5000 }, (_, i) => `city-${i}/area-${i % 7}/index.html`);
    const entries: FileEntry[] = [
      ...pages.map((rel, i): FileEntry => [rel, i, String(1e15 + i)]),
      ...odd.map((rel, i): FileEntry => [rel, 10 + i]),
    ];
    const read = writtenManifest(out, entries);
    // As the thread reads it (see manifest-read.ts): the same index of the same text.
    const onThread = readAndIndex(manifestFile(out));
    if (!onThread) throw new Error('no manifest read back');
    const text = Buffer.from(onThread.bytes).toString('utf8');
    const same = PreviousManifest.of(text, onThread.stamp, onThread.index);
    expect(same?.stamp).toBe(read.stamp);
    expect(same?.entries).toBe(entries.length);
    for (const entry of entries) {
      expect(read.has(entry[0]), entry[0]).toBe(true);
      expect(read.entry(entry[0])).toEqual(entry);
      expect(same?.entry(entry[0])).toEqual(entry);
    }
    expect(same?.has('city-5000/area-0/index.html')).toBe(false);
    expect(read.has('city-5000/area-0/index.html')).toBe(false);
    expect(read.has('city-1/area-1/index.htm')).toBe(false);
    expect(read.entry('nowhere')).toBeNull();
    expect(read.sizeIfPrint('city-42/area-0/index.html', String(1e15 + 42))).toBe(42);
    expect(read.sizeIfPrint('city-42/area-0/index.html', String(1e15 + 43))).toBe(-1);

    for (const rel of pages.slice(1)) read.mark(rel);
    read.mark(odd[1] as string);
    const left = [...read.unmarked((rel) => rel === odd[3])];
    expect(left.sort()).toEqual([pages[0], odd[0], odd[2]].sort());
  });

  it('lets go of the lines of marked pages, and answers for the others as before', async () => {
    const out = `${await tempDir()}/dist`;
    const entries: FileEntry[] = [
      ...Array.from({ length: 3000 }, (_, i): FileEntry => [`city-${i}/index.html`, i, String(i)]),
      ['assets/share-a.png', 7],
      ['a "quoted" name.txt', 8],
      ['gone/index.html', 9, '9', '2026-01-05', ['en', null, 0.5, 'monthly', 'city-home']],
    ];
    const read = writtenManifest(out, entries);
    for (let i = 0; i < 3000; i += 2) read.mark(`city-${i}/index.html`);
    read.mark('assets/share-a.png');
    const kept = read.keepUnmarked();
    const left = entries.filter(([rel], n) =>
      n >= 3000 ? rel !== 'assets/share-a.png' : n % 2 === 1,
    );
    expect([...kept]).toEqual(left.map((e) => entries.indexOf(e)));
    expect(read.entries).toBe(left.length);
    for (const entry of left) expect(read.entry(entry[0]), entry[0]).toEqual(entry);
    expect(read.has('city-0/index.html')).toBe(false);
    expect(read.has('assets/share-a.png')).toBe(false);
    // Marks start again: every kept line is unmarked until marked anew.
    read.mark('city-1/index.html');
    expect([...read.unmarked((rel) => rel === 'gone/index.html')].sort()).toEqual(
      left
        .map(([rel]) => rel)
        .filter((rel) => rel !== 'city-1/index.html' && rel !== 'gone/index.html')
        .sort(),
    );
  });

  it("reads a page's line as JSON.parse does, and none that a build would not write", async () => {
    const out = `${await tempDir()}/dist`;
    const indexed = ['en', null, 0.8, 'weekly', 'city-home'];
    const lines = [
      '["toronto/index.html",2048,"9007199254740991"]',
      `["toronto/about/index.html",1024,"12","2026-11-22",${JSON.stringify(indexed)}]`,
      '["back\\\\slash/index.html",3,"45"]',
      '["été/index.html",0,"6"]',
      // Not as a build writes them: a size or print that is not a whole number, no print, a
      // sitemap entry cut short, a line cut short, a line that is not a list.
      '["a/index.html",1.5,"7"]',
      '["b/index.html",-1,"7"]',
      '["c/index.html",5,"x7"]',
      '["d/index.html",5]',
      '["e/index.html",5,"7","2026-11-22",["en"]]',
      '["f/index.html",5,"7"',
      '["g/index.html",5,"7"]]',
      '{"h":1}',
    ];
    writeManifest(out, manifestHeader({ key: 'k', public: {} }), lines);
    const read = PreviousManifest.read(out);
    if (!read) throw new Error('no manifest read back');
    const line = pageLine();
    for (const n of [0, 1, 2, 3]) {
      const [file, size, print, , sitemap] = JSON.parse(lines[n] as string) as FileEntry;
      expect(read.readPage(n, line), lines[n]).toBe(true);
      expect(line.text.slice(line.start, line.end)).toBe(file);
      expect([line.size, line.print, line.indexed]).toEqual([size, Number(print), sitemap]);
    }
    read.readPage(2, line);
    expect(line.text.slice(line.start, line.end)).toBe('back\\slash/index.html');
    for (const n of [4, 5, 6, 7, 8, 9, 10, 11])
      expect(read.readPage(n, line), lines[n]).toBe(false);
  });
});
