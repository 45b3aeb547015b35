import { spawn, spawnSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutCopy, FIXTURE_DATA, scanTree, tempDir } from './helpers.js';

/** The bin of a copy of the checkout, run in a folder of its own. */
function run(pkg: string, cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(pkg, 'bin/claimsite.cjs'), ...args], {
    cwd,
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('an edit of the code in a checkout', () => {
  it('is compiled before generate and validate run, and a build that cannot have it builds nothing', async () => {
    const pkg = await checkoutCopy();
    const cwd = await tempDir();
    const stamp = path.join(pkg, 'lib/.sources');
    const logo = path.join(pkg, 'templates/components/Logo.tsx');
    const good = await readFile(logo, 'utf8');
    const build = (...more: string[]) =>
      run(pkg, cwd, 'generate', '--data', FIXTURE_DATA, '--out', 'dist', '--no-audit', ...more);

    // Nothing changed: nothing compiled, the stamp as it was.
    const before = (await stat(stamp)).mtimeMs;
    expect(build().err).not.toContain('Compiled');
    expect(run(pkg, cwd, '--version').code).toBe(0);
    expect((await stat(stamp)).mtimeMs).toBe(before);

    // A template edited: generate compiles it first, and the pages have the edit.
    await writeFile(
      logo,
      good.replace('<span>{siteName}</span>', '<span>{siteName} Edited</span>'),
    );
    const edited = build();
    expect(edited.code, edited.err).toBe(0);
    expect(edited.err).toContain('Compiled the CLI again');
    const home = () => readFile(path.join(cwd, 'dist/toronto/index.html'), 'utf8');
    expect(await home()).toContain(' Edited</span>');
    // Once: the next build finds the code current.
    expect(build().err).not.toContain('Compiled');

    // A file saved unchanged is newer than the stamp, but the same code: nothing compiled.
    await writeFile(logo, await readFile(logo));
    expect(build().err).not.toContain('Compiled');

    // A template that does not compile: generate and validate refuse, naming it, and the
    // output stays as it was.
    await writeFile(logo, `${good}\nexport const broken = <div>;\n`);
    const output = await scanTree(path.join(cwd, 'dist'));
    for (const r of [build(), run(pkg, cwd, 'validate', '--data', FIXTURE_DATA)]) {
      expect(r.code).toBe(1);
      expect(r.err).toContain('Logo.tsx');
      expect(r.err).toContain('do not compile, so nothing was done');
    }
    expect(await scanTree(path.join(cwd, 'dist'))).toEqual(output);

    // dev started after another edit builds with it.
    await writeFile(logo, good.replace('<span>{siteName}</span>', '<span>{siteName} Again</span>'));
    const dev = spawn(
      process.execPath,
      [
        path.join(pkg, 'bin/claimsite.cjs'),
        'dev',
        '--data',
        FIXTURE_DATA,
        '--dir',
        'dev-out',
        '--port',
        '0',
        '--no-api',
      ],
      { cwd },
    );
    try {
      let log = '';
      dev.stdout.on('data', (d) => {
        log += d;
      });
      dev.stderr.on('data', (d) => {
        log += d;
      });
      const end = Date.now() + 60_000;
      while (!/Serving .* at http/.test(log) && Date.now() < end)
        await new Promise((r) => setTimeout(r, 50));
      const base = /at (http:\/\/[\d.:]+)/.exec(log)?.[1];
      expect(base, log).toBeDefined();
      expect(await (await fetch(`${base}/toronto/`)).text()).toContain(' Again</span>');
    } finally {
      dev.kill();
    }
  }, 180_000);
});
