import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimsiteDependency, gitSpec } from '../src/init/claimsite-dependency.js';
import { buildPages } from '../src/pages.js';
import { HOSTS, hostAnswer } from '../src/serve/host-rules.js';
import { loadSite } from '../src/site/load.js';
import { attrs, readSite } from './checks/site-files.js';
import { BUNDLED_DATA, ROOT, runCli, tempDir } from './helpers.js';

/** A command in a folder, its output and exit code. */
function sh(cwd: string, command: string, ...args: string[]) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * A lockfile for a site that depends on claimsite's packed tarball: claimsite's own locked
 * dependencies (those it installs with, not its dev tools), so that `npm ci --offline` installs
 * them from npm's cache, as the repository's own `npm ci` left it.
 */
async function siteLock(site: string, tarball: string) {
  const own = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const pkg = JSON.parse(await readFile(path.join(site, 'package.json'), 'utf8'));
  const packages: Record<string, unknown> = {
    '': { name: pkg.name, dependencies: pkg.dependencies },
    'node_modules/claimsite': {
      version: own.version,
      resolved: `file:${tarball}`,
      integrity: `sha512-${createHash('sha512')
        .update(await readFile(tarball))
        .digest('base64')}`,
      dependencies: own.dependencies,
      bin: own.bin,
      engines: own.engines,
    },
  };
  for (const [at, entry] of Object.entries(lock.packages as Record<string, { dev?: boolean }>))
    if (at && !entry.dev) packages[at] = entry;
  await writeFile(
    path.join(site, 'package-lock.json'),
    JSON.stringify({ name: pkg.name, lockfileVersion: 3, requires: true, packages }, null, 2),
  );
}

/** Internal links of a built folder that some host does not serve as they are written. */
async function brokenLinks(dir: string): Promise<string[]> {
  const files = await readSite(dir);
  const rels = new Set(files.map((f) => f.rel));
  const broken: string[] = [];
  for (const f of files.filter((f) => f.rel.endsWith('.html')))
    for (const url of [...attrs(f.text, 'href'), ...attrs(f.text, 'src')]) {
      if (!url.startsWith('/') || url.startsWith('//')) continue;
      const p = decodeURIComponent(url.split(/[?#]/)[0] ?? '');
      for (const host of HOSTS)
        if (hostAnswer(host, p, (rel) => rels.has(rel)).status !== 200)
          broken.push(`${f.rel}: ${url} on ${host}`);
    }
  return broken;
}

describe('claimsite init', () => {
  it('makes a site folder that builds and validates from inside it, with claimsite installed from its package', async () => {
    const dir = await tempDir();
    // claimsite as npm packs it: the compiled CLI and the bundled data, no sources.
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    const tarball = path.join(dir, (await readdir(dir)).find((f) => f.endsWith('.tgz')) ?? '');

    const init = runCli(['init', 'my-site', '--claimsite', `file:${tarball}`], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const site = path.join(dir, 'my-site');
    expect((await readdir(site)).sort()).toEqual([
      '.gitignore',
      'README.md',
      'data',
      'package.json',
      'public',
    ]);
    const pkg = JSON.parse(await readFile(path.join(site, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({ claimsite: `file:${tarball}` });
    expect(pkg.scripts.generate).toBe('claimsite generate');
    expect(await readFile(path.join(site, '.gitignore'), 'utf8')).toMatch(
      /^\/dist\/$[\s\S]*^\/\.dist\.\*$[\s\S]*^\.env$/m,
    );

    await siteLock(site, tarball);
    const install = sh(site, 'npm', 'ci', '--offline', '--no-audit', '--no-fund');
    expect(install.code, install.err).toBe(0);
    // Installed, claimsite has nothing to compile: no sources, no compiler.
    const installed = path.join(site, 'node_modules/claimsite');
    expect(existsSync(path.join(installed, 'lib/cli.cjs'))).toBe(true);
    expect(existsSync(path.join(installed, 'scripts'))).toBe(false);
    expect(existsSync(path.join(installed, 'templates'))).toBe(false);

    // The site's own settings, not the bundled data's, and its own output folder.
    const settings = path.join(site, 'data/site.json');
    const s = JSON.parse(await readFile(settings, 'utf8'));
    await writeFile(settings, JSON.stringify({ ...s, siteName: 'Maple Leaf Claims' }, null, 2));
    const generate = sh(site, 'npx', 'claimsite', 'generate', '--strict');
    expect(generate.code, generate.err).toBe(0);
    // As many pages as the bundled data makes: the site folder starts from a copy of it.
    const pages = buildPages(await loadSite(BUNDLED_DATA)).length.toLocaleString('en-CA');
    expect(generate.out).toMatch(new RegExp(`^Built ${pages} pages .* -> dist$`, 'm'));
    expect(await readFile(path.join(site, 'dist/index.html'), 'utf8')).toContain(
      'Maple Leaf Claims',
    );
    const validate = sh(site, 'npx', 'claimsite', 'validate');
    expect(validate.code, validate.err).toBe(0);
    expect(validate.out).toMatch(/^Data OK: data\n/);
  }, 240_000);

  it('--empty makes a minimal site that builds strictly, with no broken link, and validates', async () => {
    const dir = await tempDir();
    expect(runCli(['init', 'small', '--empty'], { cwd: dir }).code).toBe(0);
    const site = path.join(dir, 'small');
    const cities = await readdir(path.join(site, 'data/cities'));
    expect(cities.sort()).toEqual(['README.md', 'on.json']);
    expect(existsSync(path.join(site, 'data/fr'))).toBe(false);
    // The repository's CLI, run in the site folder: its data, public folder and output.
    const generate = runCli(['generate', '--strict'], { cwd: site });
    expect(generate.code, generate.stderr).toBe(0);
    expect(generate.stdout).toMatch(/^Built \d+ pages .* -> dist$/m);
    expect(await brokenLinks(path.join(site, 'dist'))).toEqual([]);
    const validate = runCli(['validate'], { cwd: site });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('  Total                           1\n');
  }, 120_000);

  it('refuses a folder that is not empty, and writes nothing, there or beside it', async () => {
    const dir = await tempDir();
    const taken = path.join(dir, 'taken');
    await mkdir(taken);
    await writeFile(path.join(taken, 'notes.txt'), 'mine');
    await writeFile(path.join(dir, 'a-file'), 'mine too');
    for (const target of ['taken', 'a-file']) {
      const r = runCli(['init', target], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${target} is not an empty folder`);
    }
    expect(await readdir(taken)).toEqual(['notes.txt']);
    expect(await readFile(path.join(taken, 'notes.txt'), 'utf8')).toBe('mine');
    expect(await readFile(path.join(dir, 'a-file'), 'utf8')).toBe('mine too');
    expect((await readdir(dir)).sort()).toEqual(['a-file', 'taken']);
    // An empty folder is a new site's.
    await mkdir(path.join(dir, 'empty'));
    expect(runCli(['init', 'empty', '--empty'], { cwd: dir }).code).toBe(0);
    expect(existsSync(path.join(dir, 'empty/data/site.json'))).toBe(true);
  });
});

describe("a new site's dependency on claimsite", () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

  it('is the git remote of the checkout it was made from, else the checkout itself', async () => {
    const checkout = await tempDir();
    expect(claimsiteDependency(checkout)).toBe(`file:${checkout}`);
    git(checkout, 'init', '-q');
    expect(claimsiteDependency(checkout)).toBe(`file:${checkout}`);
    git(checkout, 'remote', 'add', 'origin', 'git@github.com:team/claimsite.git');
    expect(claimsiteDependency(checkout)).toBe('git+ssh://git@github.com/team/claimsite.git');
  });

  it('is what the project an installed claimsite belongs to depends on', async () => {
    const project = await tempDir();
    const installed = path.join(project, 'node_modules/claimsite');
    await mkdir(installed, { recursive: true });
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ dependencies: { claimsite: 'file:../claimsite-0.1.0.tgz' } }),
    );
    expect(claimsiteDependency(installed)).toBe(
      `file:${path.resolve(project, '../claimsite-0.1.0.tgz')}`,
    );
  });

  it('takes git URLs as npm does, and trusts claimsite to compile itself when installed from git', async () => {
    expect(gitSpec('https://github.com/team/claimsite.git')).toBe(
      'git+https://github.com/team/claimsite.git',
    );
    expect(gitSpec('ssh://git@example.org/team/claimsite.git')).toBe(
      'git+ssh://git@example.org/team/claimsite.git',
    );
    expect(gitSpec('/srv/git/claimsite.git')).toBe('git+file:///srv/git/claimsite.git');
    expect(gitSpec('git+https://example.org/c.git')).toBe('git+https://example.org/c.git');

    const dir = await tempDir();
    const spec = 'git+https://github.com/team/claimsite.git';
    expect(runCli(['init', 'site', '--empty', '--claimsite', spec], { cwd: dir }).code).toBe(0);
    const pkg = JSON.parse(await readFile(path.join(dir, 'site/package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({ claimsite: spec });
    // npm 11 runs a git dependency's `prepare` (which compiles claimsite) only when allowed.
    expect(pkg.allowScripts).toEqual({ claimsite: true });
  });
});
