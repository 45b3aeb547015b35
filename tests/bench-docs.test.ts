import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownTable, writeBenchDocs } from '../scripts/bench-docs.js';
import { ROOT, tempDir } from './helpers.js';

describe("the bench's tables in docs/benchmarks.md", () => {
  it('replace the measured size, keep the others, and add a size never measured before the end marker', async () => {
    const file = path.join(await tempDir(), 'benchmarks.md');
    await writeFile(
      file,
      [
        '# Benchmarks',
        '<!-- bench:1x -->',
        'old 1x',
        '<!-- /bench:1x -->',
        '<!-- bench:10x -->',
        'old 10x',
        '<!-- /bench:10x -->',
        '<!-- bench:end -->',
        '## History',
        '',
      ].join('\n'),
    );
    await writeBenchDocs(file, [
      { label: '1x', text: 'new 1x' },
      { label: '100x', text: 'new 100x' },
    ]);
    expect(await readFile(file, 'utf8')).toBe(
      [
        '# Benchmarks',
        '<!-- bench:1x -->',
        'new 1x',
        '<!-- /bench:1x -->',
        '<!-- bench:10x -->',
        'old 10x',
        '<!-- /bench:10x -->',
        '<!-- bench:100x -->',
        'new 100x',
        '<!-- /bench:100x -->',
        '',
        '<!-- bench:end -->',
        '## History',
        '',
      ].join('\n'),
    );
  });

  it('are tables with their numbers aligned right, and the real file has a place for each size', async () => {
    expect(
      markdownTable([
        ['build', 'median', ''],
        ['1x', '1.46 s', 'note'],
      ]),
    ).toBe('| build | median |  |\n| --- | ---: | --- |\n| 1x | 1.46 s | note |');
    const doc = await readFile(path.join(ROOT, 'docs/benchmarks.md'), 'utf8');
    for (const label of ['1x', '10x', '100x'])
      expect(doc).toMatch(new RegExp(`<!-- bench:${label} -->[\\s\\S]+<!-- /bench:${label} -->`));
    expect(doc).toContain('<!-- bench:end -->');
  });
});
