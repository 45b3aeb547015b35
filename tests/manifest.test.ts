import { describe, expect, it } from 'vitest';
import {
  entryLine,
  type FileEntry,
  manifestHeader,
  PreviousManifest,
  writeManifest,
} from '../src/generate/manifest.js';
import { tempDir } from './helpers.js';

describe('the manifest', () => {
  it('finds every file by its path, odd names included, and lists those not marked', async () => {
    const out = `${await tempDir()}/dist`;
    const odd = ['a "quoted" name.txt', 'back\\slash.txt', 'été/index.html', 'tab\there.txt'];
    const pages = Array.from({ length: 5000 }, (_, i) => `city-${i}/area-${i % 7}/index.html`);
    const entries: FileEntry[] = [
      ...pages.map((rel, i): FileEntry => [rel, i, String(1e15 + i)]),
      ...odd.map((rel, i): FileEntry => [rel, 10 + i]),
    ];
    writeManifest(
      out,
      manifestHeader({ key: 'k', public: {} }),
      entries.map((e) => entryLine(e)),
    );
    const read = PreviousManifest.read(out);
    if (!read) throw new Error('no manifest read back');
    for (const entry of entries) {
      expect(read.has(entry[0]), entry[0]).toBe(true);
      expect(read.entry(entry[0])).toEqual(entry);
    }
    expect(read.has('city-5000/area-0/index.html')).toBe(false);
    expect(read.has('city-1/area-1/index.htm')).toBe(false);
    expect(read.entry('nowhere')).toBeNull();
    expect(read.sizeIfPrint('city-42/area-0/index.html', String(1e15 + 42))).toBe(42);
    expect(read.sizeIfPrint('city-42/area-0/index.html', String(1e15 + 43))).toBe(-1);

    for (const rel of pages.slice(1)) read.mark(rel);
    read.mark(odd[1] as string);
    const left = [...read.unmarked((rel) => rel === odd[3])].map(([rel]) => rel);
    expect(left.sort()).toEqual([pages[0], odd[0], odd[2]].sort());
  });
});
