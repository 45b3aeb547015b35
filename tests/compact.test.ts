import { describe, expect, it } from 'vitest';
import { NumberList, PathHashes, PathList } from '../src/generate/compact.js';

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
});
