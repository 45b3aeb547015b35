import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ForeignFileError, StageWriter } from '../src/generate/stage-writer.js';
import { tempDir } from './helpers.js';

/** An output folder with `files`, and a writer staging beside it for an incremental build. */
async function incremental(files: Record<string, string | Buffer>) {
  const root = await tempDir();
  const outDir = path.join(root, 'dist');
  const dir = path.join(root, 'stage');
  await mkdir(dir);
  for (const [rel, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(outDir, rel)), { recursive: true });
    await writeFile(path.join(outDir, rel), bytes);
  }
  const writer = new StageWriter({ outDir, dir, incremental: true }, 'w');
  const staged = async () => {
    const moves = writer.result().moves;
    return Promise.all(
      moves.map(async ([name, rel]) => [rel, await readFile(path.join(dir, name), 'utf8')]),
    );
  };
  return { writer, staged, dir };
}

describe('a stage writer over an existing output', () => {
  it('writes a file only where its bytes differ, however the sizes compare', async () => {
    const big = Buffer.alloc(3 << 20, 'a'); // larger than any buffer a writer keeps
    const bigChanged = Buffer.from(big);
    bigChanged[bigChanged.length - 1] = 0x62;
    const { writer, staged } = await incremental({
      'same/index.html': '<p>same</p>',
      'same-size/index.html': '<p>abcd</p>',
      'longer/index.html': '<p>a</p>',
      'big/index.html': big,
      'big-same/index.html': big,
    });
    const put = (rel: string, text: string | Buffer) => writer.put(rel, text, true);
    expect(put('same/index.html', '<p>same</p>')).toBe(false);
    expect(put('same-size/index.html', '<p>abce</p>')).toBe(true);
    expect(put('longer/index.html', '<p>ab</p>')).toBe(true);
    expect(put('new/index.html', '<p>new</p>')).toBe(true);
    expect(put('big/index.html', bigChanged)).toBe(true);
    expect(put('big-same/index.html', big)).toBe(false);
    // A short page after a long one is compared with its own bytes, not the long one's tail.
    expect(put('same/index.html', '<p>same</p>')).toBe(false);
    expect((await staged()).map(([rel]) => rel)).toEqual([
      'same-size/index.html',
      'longer/index.html',
      'new/index.html',
      'big/index.html',
    ]);
    expect(Object.fromEntries((await staged()).slice(0, 3))).toEqual({
      'same-size/index.html': '<p>abce</p>',
      'longer/index.html': '<p>ab</p>',
      'new/index.html': '<p>new</p>',
    });
    expect(writer.result().changed).toBe(4);
  });

  it('never replaces a file it did not write, and leaves one that already says the same', async () => {
    const { writer, staged } = await incremental({
      'theirs/index.html': '<p>theirs</p>',
      'same/index.html': '<p>same</p>',
    });
    expect(() => writer.put('theirs/index.html', '<p>ours!!</p>', false)).toThrow(ForeignFileError);
    expect(() => writer.put('theirs/index.html', '<p>ours</p>', false)).toThrow(ForeignFileError);
    expect(writer.put('same/index.html', '<p>same</p>', false)).toBe(false);
    expect(await staged()).toEqual([]);
  });

  it('stages a page whose folder is a file in the output, for the commit to refuse', async () => {
    const { writer, dir } = await incremental({ about: 'in the way' });
    expect(writer.put('about/index.html', '<p>about</p>', true)).toBe(true);
    expect(await readdir(dir)).toEqual(['w0']);
  });
});
