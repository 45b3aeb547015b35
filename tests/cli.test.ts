import { spawn, spawnSync } from 'node:child_process';
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { openLeadStore } from '../src/lead/open-store.js';
import { claimSchema } from '../src/lead/schema.js';
import { firstWait } from '../src/lead/store.js';
import { TEMPLATES } from '../templates/pages/index.js';
import {
  BIN,
  BUNDLED_DATA,
  dataCopy,
  FIXTURE_DATA,
  ROOT,
  runCli,
  scanTree,
  tempDir,
} from './helpers.js';
import { sampleClaim } from './lead/sample.js';

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
    const dir = await tempDir();
    const out = path.join(dir, 'site');
    const env = { CLAIMSITE_CACHE_DIR: path.join(dir, 'cache') };
    const r = runCli(['generate', '--data', FIXTURE_DATA, '--out', out], { env });
    expect(r.code).toBe(0);
    // 103 pages, 7 other files and 27 share images (5 cities, 13 provinces, 9 site pages).
    expect(r.stdout).toMatch(
      /^Built 103 pages \(103 rendered\): 137 files \(137 changed\), [\d.]+ (KB|MB) in [\d.]+ s -> /,
    );
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('<h1>');
    // The first build says where the share images it drew are kept; the next draws none.
    expect(r.stdout).toContain(
      `Drew 27 share images (og:image); later builds, in any folder, copy them from ${path.join(dir, 'cache', 'share-images')}`,
    );
    const again = runCli(['generate', '--data', FIXTURE_DATA, '--out', path.join(dir, 'b')], {
      env,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('Drew');
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

  it('lists the sample data still to replace, until its markers are gone', async () => {
    const r = runCli(['validate', '--data', BUNDLED_DATA]);
    expect(r.stdout).toContain('Sample data to replace before publishing:');
    expect(r.stdout).toContain('site.json: siteName, baseUrl, email, privacyEmail');
    expect(r.stdout).toContain('content/testimonials.json: 6 of 6 testimonials');
    expect(r.stdout).toContain(
      'content/about.json: figures "1000+ Satisfied Clients", "95% Success Rate"; badges "95% Success Rate"',
    );
    expect(r.stdout).toContain('business.legalName (the legal business name)');
    expect(r.stdout).toContain('business.licences (the licence or registration');
    // Replaced: the markers removed, nothing is listed.
    const { data, out } = await dataCopy(BUNDLED_DATA);
    for (const rel of ['site.json', 'content/testimonials.json', 'content/about.json']) {
      const file = path.join(data, rel);
      const text = await readFile(file, 'utf8');
      await writeFile(
        file,
        JSON.stringify(
          JSON.parse(text, (key, value) => (key === 'sample' ? undefined : value)),
          null,
          2,
        ),
      );
    }
    const g = runCli(['generate', '--data', data, '--out', out, '--no-audit']);
    expect(g.code).toBe(0);
    expect(g.stdout).not.toContain('Sample data');
    expect(g.stdout).not.toContain('Content audit');
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
    const io = {
      out: (t: string) => lines.push(t),
      err: (t: string) => lines.push(t),
      ask: async () => '',
      tty: false,
    };
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

describe('what a new user ran into', () => {
  it('blames a base URL that is not a URL on where it came from, in generate and validate alike', async () => {
    const out = path.join(await tempDir(), 'site');
    const flag = runCli([
      'generate',
      '--data',
      FIXTURE_DATA,
      '--out',
      out,
      '--base-url',
      'notaurl',
    ]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('--base-url: "notaurl" must be an absolute http(s) URL');
    expect(flag.stderr).not.toContain('site.json');
    const env = { SITE_URL: 'claims.example.org' };
    const fromEnv = runCli(['validate', '--data', FIXTURE_DATA], { env });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain('SITE_URL: "claims.example.org" must be an absolute');
    expect(runCli(['generate', '--data', FIXTURE_DATA, '--out', out], { env }).code).toBe(1);
    const good = runCli(['validate', '--data', FIXTURE_DATA], {
      env: { SITE_URL: 'https://claims.example.org' },
    });
    expect(good.code).toBe(0);
  });

  it('places a JSON syntax error by line and column', async () => {
    const data = await dataWith('site.json', '{\n  "siteName": "ClaimRight",\n  "baseUrl": ,\n}\n');
    const r = runCli(['validate', '--data', data]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${path.join(data, 'site.json')}: is not valid JSON at line 3, column 14: unexpected ","`,
    );
  });

  it('counts records from 1, and reports a wrong slug once', async () => {
    const cities = JSON.parse(await readFile(path.join(FIXTURE_DATA, 'cities/on.json'), 'utf8'));
    const { slug: _, ...noSlug } = cities[1];
    cities[1] = noSlug;
    cities[0].slug = 'Toronto!';
    const data = await dataWith('cities/on.json', cities);
    const r = runCli(['validate', '--data', data]);
    expect(r.code).toBe(1);
    const file = path.join(data, 'cities/on.json');
    expect(r.stderr).toContain(`${file}, record #2, field slug: is required`);
    expect(r.stderr).toContain(`${file}, record Toronto!, field slug: must be "toronto"`);
    expect(r.stderr).not.toContain('field id');
  });

  it('says in one line that a data folder is not there', () => {
    const r = runCli(['validate', '--data', '/nonexistent/claimsite-data']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Invalid data (1 problem):\n  - /nonexistent/claimsite-data: is not a data folder (not found)\n',
    );
  });

  it('lists leads into a pipe that closes early without crashing', async () => {
    const dir = await tempDir();
    const outbox = path.join(dir, 'leads.db');
    const store = openLeadStore({ outboxPath: outbox }, () => {});
    await store.importLeads({
      waiting: Array.from({ length: 3000 }, (_, n) =>
        firstWait(claimSchema.parse(sampleClaim({ email: `owner${n}@example.ca` })), 'CRM down'),
      ),
      dead: [],
      delivered: [],
    });
    await store.close();
    const r = spawnSync(
      'bash',
      [
        '-c',
        `set -o pipefail; "${process.execPath}" "${BIN}" leads list --outbox "${outbox}" | head -1`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stdout).toBe(`3000 leads waiting in ${outbox}:\n`);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('refuses to serve a folder that was never built, saying how to build it', () => {
    const r = runCli(['serve', '--dir', '/nonexistent/dist', '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '/nonexistent/dist does not exist: build the site first (claimsite generate --out /nonexistent/dist)',
    );
  });

  it('serves on every network with --host 0.0.0.0, naming the addresses and taking its own form posts', async () => {
    const dir = await tempDir();
    const out = path.join(dir, 'dist');
    expect(runCli(['generate', '--data', FIXTURE_DATA, '--out', out, '--quiet']).code).toBe(0);
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--dir', out, '--host', '0.0.0.0', '--port', '0'],
      {
        env: { ...process.env, GHL_TOKEN: '', LEAD_OUTBOX_PATH: path.join(dir, 'leads.db') },
      },
    );
    try {
      let said = '';
      child.stdout.on('data', (d) => {
        said += d;
      });
      while (!said.includes('\n')) await new Promise((r) => setTimeout(r, 50));
      const urls = [...said.matchAll(/http:\/\/[\d.]+:\d+/g)].map((m) => m[0]);
      expect(urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const lan = Object.values(networkInterfaces())
        .flat()
        .filter((i) => i?.family === 'IPv4' && !i.internal);
      expect(urls).toHaveLength(1 + lan.length);
      // A visitor on the same network posts from the address it opened.
      const origin = urls.at(-1) ?? '';
      const res = await fetch(`${origin}/api/lead`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: origin },
        body: JSON.stringify(sampleClaim()),
      });
      expect(res.status).toBe(202);
    } finally {
      child.kill();
    }
  });

  it('takes no option for a path, and makes no folder named after it', async () => {
    const dir = await tempDir();
    const r = runCli(['generate', '--data', FIXTURE_DATA, '--out', '--quiet'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "argument '--quiet' is invalid. expects a path, not the option --quiet",
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('answers no command with the usage and a usage error', () => {
    const r = runCli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: claimsite [options] [command]');
    expect(r.stdout).toBe('');
  });

  it('compiles the CLI only when its sources changed', async () => {
    const compile = () =>
      spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    expect(compile().status).toBe(0);
    const before = await stat(path.join(ROOT, 'lib/cli.cjs'));
    expect(compile().status).toBe(0);
    const after = await stat(path.join(ROOT, 'lib/cli.cjs'));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });
});
