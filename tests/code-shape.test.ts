import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkCodeShape,
  describe as describeShape,
  folderOf,
  packageOf,
} from '../scripts/code-shape.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the code a newcomer reads', () => {
  it('has no function over 70 lines, no runtime folder cycle and no undeclared import', () => {
    const found = describeShape(checkCodeShape(ROOT));
    expect(found, found.join('\n')).toEqual([]);
  });
});

/** A small tree of files in a temp folder, package.json included, for the checker to read. */
let dirs: string[] = [];
function tree(files: Record<string, string>, pkg: object = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'code-shape-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fixture', ...pkg }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A function of exactly `lines` lines, in the form given (its first and last line included). */
function fn(form: 'declaration' | 'arrow' | 'method', name: string, lines: number) {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  if (form === 'declaration') return `export function ${name}() {\n${body}\n}\n`;
  if (form === 'arrow') return `export const ${name} = () => {\n${body}\n};\n`;
  return `export class Box {\n  ${name}() {\n${body}\n  }\n}\n`;
}

describe('the code-shape check', () => {
  it('fails a function of 71 lines and passes one of 70, in every form', () => {
    for (const form of ['declaration', 'arrow', 'method'] as const) {
      const ok = checkCodeShape(tree({ 'src/a/f.ts': fn(form, 'step', 70) }));
      expect(ok.longFunctions, form).toEqual([]);
      const long = checkCodeShape(tree({ 'src/a/f.ts': fn(form, 'step', 71) }));
      expect(long.longFunctions, form).toEqual([
        {
          file: 'src/a/f.ts',
          line: form === 'method' ? 2 : 1,
          name: form === 'method' ? 'Box.step' : 'step',
          lines: 71,
        },
      ]);
    }
  });

  it('counts a template component in templates/ too, by its name', () => {
    // A component of n lines: `function`, `return (`, `<ul>`, items, `</ul>`, `);`, `}`.
    const component = (n: number) => {
      const items = Array.from({ length: n - 6 }, (_, i) => `      <li>${i}</li>`).join('\n');
      return `export function Page() {\n  return (\n    <ul>\n${items}\n    </ul>\n  );\n}\n`;
    };
    expect(
      checkCodeShape(tree({ 'templates/pages/Page.tsx': component(70) })).longFunctions,
    ).toEqual([]);
    const found = checkCodeShape(tree({ 'templates/pages/Page.tsx': component(71) }));
    expect(describeShape(found)).toEqual([
      'templates/pages/Page.tsx:1 Page is 71 lines (at most 70)',
    ]);
  });

  it('fails two folders that import each other at run time, naming the imports', () => {
    const found = checkCodeShape(
      tree({
        'src/a/one.ts': `import { two } from '../b/two.js';\nexport const one = () => two();\n`,
        'src/b/two.ts': `import { three } from '../a/three.js';\nexport const two = () => three;\n`,
        'src/a/three.ts': 'export const three = 3;\n',
      }),
    );
    expect(found.cycles).toEqual([
      {
        folders: ['src/a', 'src/b'],
        edges: [
          { edge: 'src/a -> src/b', via: ['src/a/one.ts imports src/b/two.ts'] },
          { edge: 'src/b -> src/a', via: ['src/b/two.ts imports src/a/three.ts'] },
        ],
      },
    ]);
    expect(describeShape(found)[0]).toBe('folders import each other at run time: src/a, src/b');
  });

  it('finds a cycle round three folders, and one through templates/', () => {
    const found = checkCodeShape(
      tree({
        'src/a/x.ts': `import '../b/y.js';\n`,
        'src/b/y.ts': `export * from '../../templates/Z.js';\n`,
        'templates/Z.tsx': `export { x } from '../src/a/x.js';\n`,
      }),
    );
    expect(found.cycles.map((c) => c.folders)).toEqual([['src/a', 'src/b', 'templates']]);
  });

  it('passes a cycle made only of type imports', () => {
    const found = checkCodeShape(
      tree({
        'src/a/one.ts': `import type { Two } from '../b/two.js';\nexport type One = Two;\nexport const one = 1;\n`,
        'src/b/two.ts': `import { type One, type Other } from '../a/one.js';\nexport type Two = One | Other;\n`,
        'src/a/other.ts': `export type Other = string;\n`,
      }),
    );
    expect(found.cycles).toEqual([]);
  });

  it('takes a file at the top of src/ for itself, not for a folder of all of them', () => {
    const files = {
      'src/c/x.ts': `import { u } from '../util.js';\nexport const x = u;\n`,
      'src/cli.ts': `import { x } from './c/x.js';\nexport const main = () => x;\n`,
      'src/util.ts': 'export const u = 1;\n',
    };
    expect(checkCodeShape(tree(files)).cycles).toEqual([]);
    // Through one top file both ways, it is a cycle.
    const looped = {
      ...files,
      'src/util.ts': `import { x } from './c/x.js';\nexport const u = x;\n`,
    };
    expect(checkCodeShape(tree(looped)).cycles.map((c) => c.folders)).toEqual([
      ['src/c', 'src/util.ts'],
    ]);
    expect(folderOf('src/util.ts')).toBe('src/util.ts');
    expect(folderOf('src/site/load.ts')).toBe('src/site');
    expect(folderOf('templates/pages/Area.tsx')).toBe('templates');
  });

  it('fails an undeclared package, and a devDependency where the code ships', () => {
    const pkg = { dependencies: { react: '1' }, devDependencies: { vitest: '1', '@types/x': '1' } };
    const found = checkCodeShape(
      tree(
        {
          'src/a/ok.ts': [
            `import { readFileSync } from 'node:fs';`,
            `import path from 'path';`,
            `import React from 'react';`,
            `import { jsx } from 'react/jsx-runtime';`,
            `import type { X } from 'x';`,
            `import type { Y } from 'vitest';`,
            `export { readFileSync, path, React, jsx };`,
            `export type Z = X | Y;`,
          ].join('\n'),
          'src/a/bad.ts': `import Database from 'libsql';\nexport { Database };\n`,
          'src/a/dev.ts': `export const v = () => import('vitest');\n`,
          'templates/T.tsx': `const s = require('@scope/pkg/sub');\nexport { s };\n`,
          'scripts/tool.mjs': `import 'vitest';\nimport 'left-pad';\n`,
        },
        pkg,
      ),
    );
    expect(found.undeclared.map((u) => `${u.file} ${u.package} ${u.need}`)).toEqual([
      'src/a/bad.ts libsql dependencies',
      'src/a/dev.ts vitest dependencies',
      'templates/T.tsx @scope/pkg dependencies',
      'scripts/tool.mjs left-pad dependencies or devDependencies',
    ]);
    expect(packageOf('@scope/pkg/sub')).toBe('@scope/pkg');
    expect(packageOf('node:path')).toBeNull();
    expect(packageOf('fs/promises')).toBeNull();
    expect(packageOf('./x.js')).toBeNull();
  });
});
