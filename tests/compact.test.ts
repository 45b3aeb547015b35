import { describe, expect, it } from 'vitest';
import {
  filesHash,
  NumberList,
  PathHashes,
  PathList,
  PathsHasher,
} from '../src/generate/compact.js';

describe('the compact lists a build keeps of every page', () => {
  const paths = Array.from({ length: 50_000 }, (_, i) => `city-${i % 997}/page-${i}/index.html`);

  it('keep paths in order, and numbers exactly below 2^53', () => {
    const list = new PathList();
    for (const p of [...paths, 'été/ünïcode/index.html']) list.push(p);
    expect([...list]).toEqual([...paths, 'été/ünïcode/index.html']);
    expect(list.count).toBe(paths.length + 1);
    const numbers = new NumberList();
    for (let i = 0; i < 10_000; i++) numbers.push(2 ** 53 - 1 - i);
    expect(numbers.at(0)).toBe(2 ** 53 - 1);
    expect(numbers.at(9_999)).toBe(2 ** 53 - 10_000);
  });

  it('know each path once, through every growth of the set', () => {
    const set = new PathHashes();
    for (const p of paths) expect(set.add(p)).toBe(true);
    for (const p of paths) expect(set.add(p)).toBe(false);
    expect(set.add('city-0/page-50000/index.html')).toBe(true);
    expect(set.add('')).toBe(true);
    expect(set.add('')).toBe(false);
  });

  it('hash a list of paths read where they are in a text as they hash the list itself', () => {
    const list = [...paths.slice(0, 20), 'été/ünïcode/index.html', 'x'];
    const text = `["${list.join('",1,"2"]\n["')}",1,"2"]`;
    const hasher = new PathsHasher();
    for (const round of [1, 2]) {
      hasher.start();
      let at = 0;
      for (const p of list) {
        const start = text.indexOf(p, at);
        hasher.add(text, start, start + p.length);
        at = start + p.length;
      }
      expect(hasher.files, `round ${round}`).toBe(filesHash(list));
    }
    hasher.start();
    hasher.add(text, 2, 2 + (list[0] as string).length);
    expect(hasher.files).toBe(filesHash(list.slice(0, 1)));
    expect(hasher.files).not.toBe(filesHash(list.slice(0, 2)));
  });
});
