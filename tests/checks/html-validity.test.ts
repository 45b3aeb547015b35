import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import vnu from 'vnu-jar';
import { generate } from '../../src/generate/generate.js';
import { FIXTURE_DATA, tempDir } from '../helpers.js';

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

interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

describe('HTML validity (Nu HTML Checker)', () => {
  it('finds no error on one page of every route type', async () => {
    const files = PAGES.map((p) => path.join(out, p));
    // vnu exits 1 when it reports errors; its JSON report is on stderr either way.
    const run = await promisify(execFile)(
      'java',
      ['-jar', String(vnu), '--format', 'json', '--errors-only', ...files],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((e: { stderr?: string; code?: number; message: string }) => {
      if (e.stderr === undefined) throw new Error(`could not run java -jar vnu.jar: ${e.message}`);
      return { stderr: e.stderr };
    });
    const { messages } = JSON.parse(run.stderr) as { messages: VnuMessage[] };
    const errors = messages.map(
      (m) =>
        `${path.relative(out, m.url.replace('file:', ''))}:${m.lastLine ?? '?'} ${m.message} [${(m.extract ?? '').trim().slice(0, 80)}]`,
    );
    expect(errors).toEqual([]);
  }, 120_000);
});
