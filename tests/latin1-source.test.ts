import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script of the build, typed by its JSDoc only
import { latin1Source } from '../scripts/latin1-source.mjs';
import { ROOT } from './helpers.js';

const toLatin1 = latin1Source as (text: string) => string;

/** What a snippet evaluates to, as JSON, so that two sources can be compared. */
const run = (source: string) => JSON.stringify(vm.runInNewContext(source));

describe('compiled sources in Latin-1', () => {
  it('mean what they meant: strings, templates, patterns, identifiers, escapes, astral characters', () => {
    const snippets = [
      `"l’eau — œuvre"`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template's source, to evaluate
      '`Québec’s ${1 + 1} — ok`',
      `"l'eau d’ici".match(/[\\p{L}]+(?:['’][\\p{L}]+)*/gu)`,
      `"Łódź œuvre".toLowerCase().replace(/[œæßøłđðþ]/g, (c) => "<" + c + ">")`,
      `"a\\’b"`,
      `/\\’/.test("’")`,
      `"\\\\’".length`,
      `/[😀-😂]/u.test("😁") && /😀/.test("x😀")`,
      `"😀".length + "😀".codePointAt(0)`,
      `(() => { const ł = 3; return ł * 2; })()`,
      `// a comment — with a dash\n"after"`,
    ];
    for (const source of snippets) {
      const escaped = toLatin1(source);
      expect(escaped, source).not.toMatch(/[\u0100-\uffff]/);
      expect(run(escaped), source).toBe(run(source));
    }
    // Latin-1 itself is left as it is.
    expect(toLatin1('"Montréal, Québec «»"')).toBe('"Montréal, Québec «»"');
  });

  it('are what npm test compiled: no character of the CLI or its workers above U+00FF', async () => {
    const lib = path.join(ROOT, 'lib');
    const files = (await readdir(lib)).filter((f) => /\.c?js$/.test(f));
    expect(files).toContain('cli.cjs');
    expect(files).toContain('render-worker.js');
    for (const file of files) {
      const text = await readFile(path.join(lib, file), 'utf8');
      const wide = text.match(/[\u0100-\uffff]/);
      expect(wide?.[0], file).toBeUndefined();
    }
  });
});
