import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { FIXTURE_DATA, tempDir } from '../helpers.js';

/** What every page makes a visitor download beyond its HTML: the script and the stylesheet. */
const BUDGETS = { js: 8 * 1024, css: 12 * 1024 };

describe('download budgets', () => {
  it('keep the script under 8 KB and the stylesheet under 12 KB, gzipped', async () => {
    const out = path.join(await tempDir(), 'dist');
    await generate({ dataDir: FIXTURE_DATA, outDir: out });
    const assets = await readdir(path.join(out, 'assets'));
    const gzipped = async (pattern: RegExp) => {
      const name = assets.find((n) => pattern.test(n));
      if (!name) throw new Error(`no asset matching ${pattern}`);
      return gzipSync(await readFile(path.join(out, 'assets', name)), { level: 9 }).length;
    };
    expect(await gzipped(/^app\.[0-9a-f]{10}\.js$/)).toBeLessThanOrEqual(BUDGETS.js);
    expect(await gzipped(/^site\.[0-9a-f]{10}\.css$/)).toBeLessThanOrEqual(BUDGETS.css);
  });
});
