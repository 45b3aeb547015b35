import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { TEMPLATES } from '../templates/pages/index.js';
import { FIXTURE_DATA, runCli, scanTree, tempDir } from './helpers.js';

/** A copy of the fixture data with one file replaced, for bad-data cases. */
async function dataWith(file: string, contents: unknown): Promise<string> {
  const dir = path.join(await tempDir(), 'data');
  await cp(FIXTURE_DATA, dir, { recursive: true });
  await writeFile(
    path.join(dir, file),
    typeof contents === 'string' ? contents : JSON.stringify(contents),
  );
  return dir;
}

describe('claimsite CLI', () => {
  it('prints help and version with exit 0', () => {
    const help = runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('generate');
    expect(help.stdout).toContain('validate');
    expect(help.stdout).toContain('serve');
    const genHelp = runCli(['generate', '--help']);
    expect(genHelp.code).toBe(0);
    for (const flag of ['--data', '--out', '--base-url', '--quiet'])
      expect(genHelp.stdout).toContain(flag);
    const version = runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 on usage errors', () => {
    expect(runCli(['frobnicate']).code).toBe(2);
    const bad = runCli(['generate', '--no-such-flag']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option '--no-such-flag'");
    const port = runCli(['serve', '--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('must be a port number');
  });

  it('generates a site and reports pages, files, bytes and time', async () => {
    const out = path.join(await tempDir(), 'site');
    const r = runCli(['generate', '--data', FIXTURE_DATA, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Built 103 pages \(103 rendered\): 110 files \(110 changed\), [\d.]+ (KB|MB) in [\d.]+ s -> /,
    );
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('<h1>');
  });

  it('is silent with --quiet and honours SITE_URL', async () => {
    const out = path.join(await tempDir(), 'site');
    const r = runCli(['generate', '--data', FIXTURE_DATA, '--out', out, '--quiet'], {
      env: { SITE_URL: 'https://env.example.ca' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(await readFile(path.join(out, 'about/index.html'), 'utf8')).toContain(
      'href="https://env.example.ca/about/"',
    );
  });

  it('validates data and reports what it holds without writing', async () => {
    const r = runCli(['validate', '--data', FIXTURE_DATA]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Ontario\s+2/);
    expect(r.stdout).toMatch(/Total\s+4/);
    expect(r.stdout).toContain('Pages: 103');
  });

  it('exits 1 on bad data with one message naming file, record and field, and no stack', async () => {
    const cities = JSON.parse(await readFile(path.join(FIXTURE_DATA, 'cities/on.json'), 'utf8'));
    cities[1].population = -5;
    const data = await dataWith('cities/on.json', cities);
    const out = path.join(await tempDir(), 'site');
    const r = runCli(['generate', '--data', data, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${path.join(data, 'cities/on.json')}, record ottawa, field population: must be greater than 0`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(runCli(['validate', '--data', data]).code).toBe(1);
  });

  it('exits 1 on JSON that does not parse, naming the file', async () => {
    const data = await dataWith('site.json', '{ "siteName": ');
    const r = runCli(['validate', '--data', data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${path.join(data, 'site.json')}: is not valid JSON`);
  });

  it('exits 1 naming the page when a template throws, and leaves dist/ untouched', async () => {
    const out = path.join(await tempDir(), 'site');
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), tty: false };
    expect(await main(['generate', '--data', FIXTURE_DATA, '--out', out], io)).toBe(0);
    const before = await scanTree(out);
    const code = await main(['generate', '--data', FIXTURE_DATA, '--out', out], io, {
      templates: {
        ...TEMPLATES,
        area: (ctx) => {
          if (ctx.page.path === '/toronto/etobicoke/') throw new TypeError('cannot read name');
          return TEMPLATES.area(ctx);
        },
      },
    });
    expect(code).toBe(1);
    expect(lines.join('')).toContain('Failed to render page /toronto/etobicoke/: cannot read name');
    expect(await scanTree(out)).toEqual(before);
  });
});
