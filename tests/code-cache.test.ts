import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireWithCodeCache } from '../src/code-cache.js';
import { tempDir } from './helpers.js';

const MODULE = `
const path = require('node:path');
function sum(list) { return list.reduce((a, b) => a + b, 0); }
exports.name = path.basename(__filename);
exports.total = sum([1, 2, 3, 4]);
`;

async function bundle(source = MODULE) {
  const dir = await tempDir();
  const file = path.join(dir, 'mod.cjs');
  await writeFile(file, source);
  return { dir, file, caches: async () => readdir(path.join(dir, '.cache')).catch(() => []) };
}

describe('code cache', () => {
  it('runs a CommonJS file, keeps what it compiled, and runs from it next time', async () => {
    const { file, caches } = await bundle();
    const first = requireWithCodeCache(file);
    expect(first.exports).toEqual({ name: 'mod.cjs', total: 10 });
    expect(first.reused).toBe(false);
    expect(await caches()).toEqual([]);
    first.save();
    const [cache, ...others] = await caches();
    expect(others).toEqual([]);
    expect(cache).toMatch(
      new RegExp(`^mod\\.cjs-\\d+-\\d+-${process.version}-${process.arch}\\.v8$`),
    );

    const second = requireWithCodeCache(file);
    expect(second.reused).toBe(true);
    expect(second.exports).toEqual({ name: 'mod.cjs', total: 10 });
  });

  it('ignores a damaged cache instead of handing it to V8 (which would crash), and replaces it', async () => {
    const { dir, file, caches } = await bundle();
    requireWithCodeCache(file).save();
    const cacheFile = path.join(dir, '.cache', (await caches())[0] ?? '');
    const bytes = await readFile(cacheFile);
    for (let i = 40; i < bytes.length; i += 7) bytes[i] = (bytes[i] ?? 0) ^ 0x5a;
    await writeFile(cacheFile, bytes);

    const damaged = requireWithCodeCache(file);
    expect(damaged.reused).toBe(false);
    expect(damaged.exports.total).toBe(10);
    damaged.save();
    expect(requireWithCodeCache(file).reused).toBe(true);
  });

  it('never runs a changed file from the cache of its earlier version', async () => {
    const { file } = await bundle();
    requireWithCodeCache(file).save();
    // Same length, other code, other time.
    await writeFile(file, MODULE.replace('[1, 2, 3, 4]', '[4, 4, 4, 4]'));
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    const changed = requireWithCodeCache(file);
    expect(changed.reused).toBe(false);
    expect(changed.exports.total).toBe(16);
  });

  it('runs without a cache where none can be written', async () => {
    const { dir, file } = await bundle();
    await writeFile(path.join(dir, '.cache'), 'a file where the cache folder would go');
    const loaded = requireWithCodeCache(file);
    expect(() => loaded.save()).not.toThrow();
    expect(requireWithCodeCache(file).reused).toBe(false);
  });
});
