import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { FIXTURE_DATA, tempDir } from '../helpers.js';
import { nuErrors } from './nu-checker.js';

/** One page of every route type, and the not-found page. */
const PAGES = [
  'index.html',
  'about/index.html',
  'services/index.html',
  'faq/index.html',
  'contact/index.html',
  'privacy/index.html',
  'terms/index.html',
  'blog/index.html',
  'blog/public-adjuster-fees-explained/index.html',
  'sitemap/index.html',
  'confirmation/index.html',
  'form-error/index.html',
  '404.html',
  'toronto/index.html',
  'toronto/about/index.html',
  'toronto/public-adjusters/index.html',
  'toronto/top-adjusters/index.html',
  'toronto/services/index.html',
  'toronto/fire-damage-claims/index.html',
  'toronto/scarborough/index.html',
  'canada/public-adjusters/index.html',
  'canada/ontario/index.html',
];

let out: string;
beforeAll(async () => {
  out = path.join(await tempDir(), 'dist');
  await generate({ dataDir: FIXTURE_DATA, outDir: out });
});

describe('HTML validity (Nu HTML Checker)', () => {
  it('finds no error on one page of every route type', async () => {
    const files = PAGES.map((p) => path.join(out, p));
    const errors = await nuErrors(files, out);
    expect(errors).toEqual([]);
  }, 120_000);
});
