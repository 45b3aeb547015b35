import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultClaimsiteSpec, specKind } from '../src/init/claimsite-dependency.js';
import { buildPages } from '../src/pages.js';
import { hostAnswer, HOSTS as URL_HOSTS } from '../src/serve/host-rules.js';
import { loadSite } from '../src/site/load.js';
import { attrs, readSite } from './checks/site-files.js';
import { BUNDLED_DATA, ROOT, runCli, tempDir } from './helpers.js';
import { installedSite, markNothingSample, npmInstall, packClaimsite, sh } from './site-folder.js';

/** The package as npm pack made it: compiled, nothing to run as it installs, no sources. */
function expectCompletePackage(tarball: string) {
  const packed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
  for (const file of [
    'lib/cli.cjs',
    'lib/lead/netlify.mjs',
    'lib/lead/node.mjs',
    'bin/claimsite.cjs',
  ])
    expect(packed).toContain(`package/${file}`);
  expect(packed.filter((f) => /^package\/(src|scripts|templates|tests)\//.test(f))).toEqual([]);
  const manifest = JSON.parse(
    execFileSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' }),
  );
  for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
    expect(manifest.scripts[script], script).toBeUndefined();
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
      for (const host of URL_HOSTS)
        if (hostAnswer(host, p, (rel) => rels.has(rel)).status !== 200)
          broken.push(`${f.rel}: ${url} on ${host}`);
    }
  return broken;
}

describe('claimsite init', () => {
  it('makes a site folder that installs claimsite from its packed tarball without a warning, and builds and validates from inside it', async () => {
    const dir = await tempDir();
    const tarball = await packClaimsite(dir);
    expectCompletePackage(tarball);

    const { site, init, install } = await installedSite(dir, tarball, 'my-site');
    // A tarball on this machine is written as asked, with a word about build hosts.
    expect(init.stderr).toContain('no build host can fetch');
    expect((await readdir(site)).sort()).toEqual([
      '.claimsite.json',
      '.dockerignore',
      '.github',
      '.gitignore',
      'Dockerfile',
      'README.md',
      'claimsite.service',
      'compose.yaml',
      'data',
      'netlify',
      'netlify.toml',
      'node_modules',
      'package-lock.json',
      'package.json',
      'public',
    ]);
    const pkg = JSON.parse(await readFile(path.join(site, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({ claimsite: `file:${tarball}` });
    expect(pkg.allowScripts).toBeUndefined();
    expect(pkg.scripts.generate).toBe('claimsite generate');
    expect(await readFile(path.join(site, '.gitignore'), 'utf8')).toMatch(
      /^\/dist\/$[\s\S]*^\/\.dist\.\*$[\s\S]*^\.env$/m,
    );
    // No warning, with scripts blocked as here, nor as an owner's npm install runs them.
    expect(`${install.out}${install.err}`).not.toMatch(/warn/i);
    const again = npmInstall(site);
    expect(again.code, again.err).toBe(0);
    expect(`${again.out}${again.err}`).not.toMatch(/warn/i);
    // Installed, claimsite has nothing to compile: no sources, no compiler.
    const installed = path.join(site, 'node_modules/claimsite');
    expect(existsSync(path.join(installed, 'lib/cli.cjs'))).toBe(true);
    expect(existsSync(path.join(installed, 'scripts'))).toBe(false);
    expect(existsSync(path.join(installed, 'templates'))).toBe(false);
    expect(existsSync(path.join(site, 'node_modules/esbuild'))).toBe(false);

    // The site's own settings, not the bundled data's, and its own output folder.
    await markNothingSample(site);
    const settings = path.join(site, 'data/site.json');
    const s = JSON.parse(await readFile(settings, 'utf8'));
    await writeFile(settings, JSON.stringify({ ...s, siteName: 'Maple Leaf Claims' }, null, 2));
    const generate = sh(site, 'npx', ['claimsite', 'generate', '--strict']);
    expect(generate.code, generate.err).toBe(0);
    // As many pages as the bundled data makes: the site folder starts from a copy of it.
    const pages = buildPages(await loadSite(BUNDLED_DATA)).length.toLocaleString('en-CA');
    expect(generate.out).toMatch(new RegExp(`^Built ${pages} pages .* -> dist$`, 'm'));
    expect(await readFile(path.join(site, 'dist/index.html'), 'utf8')).toContain(
      'Maple Leaf Claims',
    );
    const validate = sh(site, 'npx', ['claimsite', 'validate']);
    expect(validate.code, validate.err).toBe(0);
    expect(validate.out).toMatch(/^Data OK: data\n/);
  }, 300_000);

  it('--empty makes a minimal site that builds strictly, with no broken link, and validates', async () => {
    const dir = await tempDir();
    const init = runCli(['init', 'small', '--empty', '--claimsite', '^0.1.0'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toBe('');
    const site = path.join(dir, 'small');
    const cities = await readdir(path.join(site, 'data/cities'));
    expect(cities.sort()).toEqual(['README.md', 'on.json']);
    expect(existsSync(path.join(site, 'data/fr'))).toBe(false);
    // The repository's CLI, run in the site folder: its data, public folder and output; the
    // samples replaced, as --strict, the publishing build, requires.
    await markNothingSample(site);
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
      const r = runCli(['init', target, '--claimsite', '0.1.0'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${target} is not an empty folder`);
    }
    expect(await readdir(taken)).toEqual(['notes.txt']);
    expect(await readFile(path.join(taken, 'notes.txt'), 'utf8')).toBe('mine');
    expect(await readFile(path.join(dir, 'a-file'), 'utf8')).toBe('mine too');
    expect((await readdir(dir)).sort()).toEqual(['a-file', 'taken']);
    // An empty folder is a new site's.
    await mkdir(path.join(dir, 'empty'));
    expect(runCli(['init', 'empty', '--empty', '--claimsite', '0.1.0'], { cwd: dir }).code).toBe(0);
    expect(existsSync(path.join(dir, 'empty/data/site.json'))).toBe(true);
  });
});

describe("a new site's dependency on claimsite", () => {
  it('tells a place a build host can fetch from one on this machine', () => {
    const kinds = {
      '0.1.0': 'registry',
      '^0.1.0': 'registry',
      latest: 'registry',
      'npm:@team/claimsite@^0.1.0': 'registry',
      'https://github.com/team/claimsite/releases/download/v0.1.0/claimsite-0.1.0.tgz': 'tarball',
      'git+https://github.com/team/claimsite-package.git#v0.1.0': 'git',
      'git+ssh://git@github.com/team/claimsite-package.git': 'git',
      'github:team/claimsite-package#v0.1.0': 'git',
      'team/claimsite-package': 'git',
      'file:../claimsite-0.1.0.tgz': 'local',
      'git+file:///srv/git/claimsite.git': 'local',
      '/home/me/claimsite': 'local',
      '../claimsite': 'local',
      './claimsite-0.1.0.tgz': 'local',
      'claimsite-0.1.0.tgz': 'local',
      'C:\\work\\claimsite-0.1.0.tgz': 'local',
    };
    for (const [spec, kind] of Object.entries(kinds)) expect(specKind(spec), spec).toBe(kind);
  });

  it('is, by default, what the project running claimsite depends on, never a path on this machine', async () => {
    const project = await tempDir();
    const installed = path.join(project, 'node_modules/claimsite');
    await mkdir(installed, { recursive: true });
    const depends = (spec: string, name = 'claimsite') =>
      writeFile(
        path.join(project, 'package.json'),
        JSON.stringify({ dependencies: { [name]: spec } }),
      );
    const url = 'https://example.org/releases/claimsite-0.1.0.tgz';
    await depends(url);
    expect(defaultClaimsiteSpec(installed)).toBe(url);
    await depends('file:../claimsite-0.1.0.tgz');
    expect(defaultClaimsiteSpec(installed)).toBeUndefined();
    // npx --package=@team/claimsite claimsite init: a scoped package, kept as claimsite.
    const scoped = path.join(project, 'node_modules/@team/claimsite');
    await mkdir(path.dirname(scoped), { recursive: true });
    await symlink(installed, scoped);
    await depends('^0.1.0', '@team/claimsite');
    expect(defaultClaimsiteSpec(scoped)).toBe('npm:@team/claimsite@^0.1.0');
    // A checkout of claimsite is no package a host can install.
    expect(defaultClaimsiteSpec(ROOT)).toBeUndefined();
  });

  it('is asked for, from a checkout, and nothing is made until it is given', async () => {
    const dir = await tempDir();
    const r = runCli(['init', 'site', '--empty'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('init needs --claimsite');
    expect(r.stderr).toContain('Publishing claimsite');
    expect(await readdir(dir)).toEqual([]);
  });

  it('is written as given, with nothing for npm to allow to run', async () => {
    const dir = await tempDir();
    const spec = 'git+https://github.com/team/claimsite-package.git#v0.1.0';
    const r = runCli(['init', 'site', '--empty', '--claimsite', spec], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const pkg = JSON.parse(await readFile(path.join(dir, 'site/package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({ claimsite: spec });
    expect(pkg.allowScripts).toBeUndefined();
  });
});
