import { execFileSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DATA, runCli, scanTree, tempDir } from './helpers.js';

/**
 * A user's project: package.json, a .git folder, their notes, and a copy of the data. The CLI
 * runs in it, as a site owner would run it.
 */
async function project() {
  // In a folder of its own: files running beside this one make theirs in the run's folder, and
  // `refused` checks that nothing beside the project changed.
  const dir = path.join(await tempDir('claimsite-project-'), 'my-site');
  await mkdir(dir);
  await writeFile(path.join(dir, 'package.json'), '{"name":"my-site","private":true}\n');
  await mkdir(path.join(dir, '.git'));
  await writeFile(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(path.join(dir, 'notes.txt'), 'my own notes\n');
  await cp(FIXTURE_DATA, path.join(dir, 'mydata'), { recursive: true });
  return dir;
}

const generate = (cwd: string, ...args: string[]) =>
  runCli(['generate', '--data', 'mydata', '--quiet', ...args], { cwd });

/** Runs a refused build and checks that it changed nothing under `watched`. */
async function refused(cwd: string, watched: string, args: string[], why: RegExp) {
  const before = await scanTree(watched);
  const beside = await readdir(path.dirname(watched));
  const r = generate(cwd, ...args);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(/Refusing to build into /);
  expect(r.stderr).toMatch(why);
  expect(await scanTree(watched)).toEqual(before);
  expect(await readdir(path.dirname(watched))).toEqual(beside);
  return r.stderr;
}

describe('generate never touches what it did not write', () => {
  it('refuses a folder that holds something else, naming it and saying what to do', async () => {
    const dir = await project();
    const out = path.join(dir, 'site');
    await mkdir(out);
    await writeFile(path.join(out, 'index.html'), 'my hand-made page');
    await writeFile(path.join(out, 'photo.jpg'), 'not really a photo');
    const err = await refused(dir, out, ['--out', 'site'], /it is not empty/);
    expect(err).toContain('site');
    expect(err).toMatch(/Choose a new or empty folder with --out/);
  });

  it('refuses the project folder itself, and any folder holding it', async () => {
    const dir = await project();
    await refused(dir, dir, ['--out', '.'], /it is the project/);
    await refused(dir, dir, ['--out', '..'], /it holds the project/);
  });

  it('refuses the data folder, a folder holding it, and a folder inside it', async () => {
    const dir = await project();
    const data = path.join(dir, 'mydata');
    await refused(dir, data, ['--out', 'mydata'], /it is the data folder/);
    await refused(dir, data, ['--out', 'mydata/site'], /it is inside the data folder/);
    // A data folder elsewhere: the folder holding it is refused for holding it.
    const loose = path.join(await tempDir(), 'set');
    await cp(FIXTURE_DATA, path.join(loose, 'theirs'), { recursive: true });
    const before = await scanTree(loose);
    const r = runCli(['generate', '--data', path.join(loose, 'theirs'), '--out', loose], {
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/it holds the data folder/);
    expect(await scanTree(loose)).toEqual(before);
  });

  it('refuses the home folder and the root of the file system', async () => {
    const dir = await project();
    const home = await tempDir('claimsite-home-');
    await writeFile(path.join(home, '.bashrc'), 'export PATH\n');
    const before = await scanTree(home);
    const r = runCli(['generate', '--data', 'mydata', '--out', home], {
      cwd: dir,
      env: { HOME: home },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('it is your home folder');
    expect(await scanTree(home)).toEqual(before);

    const rootBefore = await readdir('/');
    const root = generate(dir, '--out', '/');
    expect(root.code).toBe(1);
    expect(root.stderr).toContain('it is the root of the file system');
    expect(await readdir('/')).toEqual(rootBefore);
  });

  it('refuses a file given as the output folder', async () => {
    const dir = await project();
    const before = await readFile(path.join(dir, 'notes.txt'), 'utf8');
    const r = generate(dir, '--out', 'notes.txt');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Refusing to build into notes.txt: it is a file, not a folder');
    expect(await readFile(path.join(dir, 'notes.txt'), 'utf8')).toBe(before);
  });

  it('keeps a .git inside its previous output byte for byte while rebuilding around it', async () => {
    const dir = await project();
    const out = path.join(dir, 'dist');
    expect(generate(dir, '--out', 'dist').code).toBe(0);
    // The output becomes a publishing repository, as `git worktree add` or a gh-pages clone makes.
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: out,
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org' },
      });
    git('init', '-q', '-b', 'gh-pages');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'site');
    const repo = await scanTree(path.join(out, '.git'));
    expect(repo.size).toBeGreaterThan(10);
    // A new site name changes every page: the whole site is rebuilt around the repository.
    const settings = path.join(dir, 'mydata', 'site.json');
    const json = JSON.parse(await readFile(settings, 'utf8'));
    await writeFile(settings, JSON.stringify({ ...json, siteName: 'Harbour Claims' }));
    expect(generate(dir, '--out', 'dist').code).toBe(0);
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('Harbour Claims');
    expect(await scanTree(path.join(out, '.git'))).toEqual(repo);
    expect(git('status', '--porcelain').toString()).toMatch(/ M index\.html/);
  });

  it('builds into a folder that holds only .git, and leaves the .git as it was', async () => {
    const dir = await project();
    const out = path.join(dir, 'dist');
    await mkdir(path.join(out, '.git'), { recursive: true });
    await writeFile(path.join(out, '.git', 'HEAD'), 'ref: refs/heads/gh-pages\n');
    const repo = await scanTree(path.join(out, '.git'));
    expect(generate(dir, '--out', 'dist').code).toBe(0);
    expect(await readFile(path.join(out, 'toronto', 'index.html'), 'utf8')).toContain('Toronto');
    expect(await scanTree(path.join(out, '.git'))).toEqual(repo);
  });

  it('keeps a file the owner added to its output, and says so', async () => {
    const dir = await project();
    const out = path.join(dir, 'dist');
    expect(generate(dir, '--out', 'dist').code).toBe(0);
    await writeFile(path.join(out, 'CNAME'), 'www.example.org\n');
    await writeFile(path.join(out, 'toronto', 'photo.jpg'), 'jpeg');
    const settings = path.join(dir, 'mydata', 'site.json');
    const json = JSON.parse(await readFile(settings, 'utf8'));
    await writeFile(settings, JSON.stringify({ ...json, siteName: 'Harbour Claims' }));
    const r = runCli(['generate', '--data', 'mydata', '--out', 'dist'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Left as they are in dist, not written by claimsite: CNAME');
    expect(await readFile(path.join(out, 'CNAME'), 'utf8')).toBe('www.example.org\n');
    expect(await readFile(path.join(out, 'toronto', 'photo.jpg'), 'utf8')).toBe('jpeg');
  });

  it('stops before replacing a file the owner put where the build now writes, and changes nothing', async () => {
    const dir = await project();
    const out = path.join(dir, 'dist');
    expect(generate(dir, '--out', 'dist').code).toBe(0);
    await mkdir(path.join(out, '.well-known'));
    await writeFile(path.join(out, '.well-known', 'security.txt'), 'Contact: mine\n');
    await mkdir(path.join(dir, 'public', '.well-known'), { recursive: true });
    await writeFile(path.join(dir, 'public', '.well-known', 'security.txt'), 'Contact: other\n');
    const before = await scanTree(out);
    const r = generate(dir, '--out', 'dist');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'dist/.well-known/security.txt was not written by claimsite, and this build would replace it',
    );
    expect(await scanTree(out)).toEqual(before);
    // The first build's record, audit report and state and valid records, and nothing this one
    // left.
    expect((await readdir(dir)).filter((n) => n.startsWith('.dist.')).sort()).toEqual([
      '.dist.audit-phrases.bin',
      '.dist.audit-state.bin',
      '.dist.audit.json',
      '.dist.manifest.json',
      '.dist.valid-records.json',
    ]);
  });
});
