import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type FakeCrm, startFakeCrm } from './fake-crm.js';
import { ROOT, tempDir } from './helpers.js';
import { sampleClaim } from './lead/sample.js';
import {
  installedSite,
  markNothingSample,
  netlifyBundle,
  netlifyEnvironment,
  packClaimsite,
  sh,
} from './site-folder.js';

/**
 * Each host's files as `init` writes them, in a site folder made by the repository's CLI with
 * claimsite installed from its packed tarball, run as each host runs them.
 */
let dir: string;
let site: string;
let crm: FakeCrm;
beforeAll(async () => {
  dir = await tempDir('claimsite-recipes-');
  ({ site } = await installedSite(dir, await packClaimsite(dir), 'site', '--empty'));
  await markNothingSample(site);
  crm = await startFakeCrm({ api: 'v2' });
}, 180_000);
afterAll(async () => {
  await crm?.close();
});

/** A new person each time: the CRM makes a contact for each. */
let people = 0;
const person = () => {
  people++;
  return sampleClaim({
    email: `person${people}@example.ca`,
    phone: `867-555-01${String(people).padStart(2, '0')}`,
  });
};

describe("a site folder's Netlify functions, bundled as Netlify bundles them", () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  it('import claimsite from the folder, no database driver, and answer a POST and drain in-process', async () => {
    const lead = await netlifyBundle(site, 'lead.mjs');
    const drain = await netlifyBundle(site, 'drain-leads.mjs');
    expect(lead.inputs).toContain('node_modules/claimsite/lib/lead/netlify.mjs');
    for (const inputs of [lead.inputs, drain.inputs])
      expect(inputs.filter((f) => /node_modules\/(libsql|@libsql|pg|esbuild)\//.test(f))).toEqual(
        [],
      );
    const origin = 'https://www.prairie-test.ca';
    const blobs = await netlifyEnvironment({ ...crm.env(), URL: origin });
    try {
      const fn = await import(lead.file);
      const drainFn = await import(drain.file);
      const post = () =>
        fn.default(
          new Request(`${origin}/api/lead`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Origin: origin },
            body: JSON.stringify(person()),
          }),
          { ip: '203.0.113.20' },
        ) as Promise<Response>;
      const before = crm.contacts.size;
      expect((await post()).status).toBe(200);
      expect(crm.contacts.size).toBe(before + 1);
      // The CRM down: kept in Blobs, then delivered by the scheduled function.
      crm.down(60_000);
      expect((await post()).status).toBe(202);
      crm.down(0);
      const drained = await (await drainFn.default()).json();
      expect(drained).toMatchObject({ delivered: 1, waiting: 0 });
      expect(crm.contacts.size).toBe(before + 2);
      expect(drainFn.config.schedule).toMatch(/^(\S+ ){4}\S+$/);
      expect(fn.config.path).toBe('/api/lead');
    } finally {
      await blobs.stop();
    }
  }, 120_000);
});

describe("a site folder's GitHub Pages workflow", () => {
  interface Step {
    uses?: string;
    run?: string;
    env?: Record<string, string>;
    with?: Record<string, string | number>;
  }
  interface Job {
    needs?: string;
    steps: Step[];
  }

  it("builds the site with its own steps and hands dist/ to Pages' deployment", async () => {
    const workflow = YAML.parse(
      await readFile(path.join(site, '.github/workflows/pages.yml'), 'utf8'),
    ) as {
      on: { push: { branches: string[] } };
      permissions: Record<string, string>;
      jobs: Record<string, Job>;
    };
    expect(workflow.on.push.branches).toEqual(['main']);
    expect(workflow.permissions).toMatchObject({ pages: 'write', 'id-token': 'write' });
    const { build, deploy } = workflow.jobs;
    if (!build || !deploy) throw new Error('the workflow has no build and deploy jobs');
    expect(deploy.needs).toBe('build');
    expect(deploy.steps.map((s) => s.uses)).toEqual(['actions/deploy-pages@v4']);

    // The build job's commands, in a fresh checkout of the folder (no node_modules, no dist):
    // npm ci from npm's cache here, the repository variable SITE_URL given.
    const checkout = path.join(await tempDir('claimsite-pages-'), 'repo');
    await cp(site, checkout, {
      recursive: true,
      filter: (f) => !/\/(node_modules|dist)$/.test(f),
    });
    const given = (value: string) =>
      value
        .replace(/\$\{\{ vars\.SITE_URL \}\}/, 'https://owner.github.io')
        .replace(/\$\{\{ [^}]+ \}\}/g, '');
    // The images' cache is kept between runs, restored after npm ci has emptied node_modules.
    const cache = build.steps.findIndex((s) => s.uses?.startsWith('actions/cache@'));
    expect(build.steps[cache]?.with?.path).toBe('node_modules/.cache/claimsite');
    expect(cache).toBeGreaterThan(build.steps.findIndex((s) => s.run?.startsWith('npm ci')));
    for (const step of build.steps.filter((s) => s.run)) {
      const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, given(v)]));
      // As on the runner, where no cache folder is set: the build caches where the step keeps.
      const run = `unset CLAIMSITE_CACHE_DIR; ${step.run ?? ''}`;
      const r = sh(checkout, 'bash', ['-euo', 'pipefail', '-c', run], {
        ...env,
        npm_config_offline: 'true',
      });
      expect(r.code, `${step.run}\n${r.err}`).toBe(0);
    }
    const upload = build.steps.find((s) => s.uses?.startsWith('actions/upload-pages-artifact@'));
    const published = path.join(checkout, String(upload?.with?.path));
    expect(await readFile(path.join(published, 'index.html'), 'utf8')).toContain(
      'https://owner.github.io/',
    );
    const kept = await readdir(path.join(checkout, 'node_modules/.cache/claimsite/share-images'));
    expect(kept.filter((n) => n.endsWith('.png')).length).toBeGreaterThan(10);
  }, 240_000);
});

describe('a Node host under systemd', () => {
  /** The unit's settings, each key's values in order. */
  function unitOf(text: string): Record<string, string[]> {
    const unit: Record<string, string[]> = {};
    for (const line of text.split('\n')) {
      const m = /^(\w+)=(.*)$/.exec(line);
      if (m?.[1] && m[2] !== undefined) unit[m[1]] = [...(unit[m[1]] ?? []), m[2]];
    }
    return unit;
  }

  /** The unit's command, run in the site folder with the unit's environment only. */
  function run(args: string[], environment: Record<string, string>) {
    const server = spawn(process.execPath, args, {
      cwd: site,
      env: { PATH: process.env.PATH, ...environment },
    });
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
    });
    server.stderr.on('data', (d) => {
      out += d;
    });
    const exited = new Promise<number | null>((r) => server.on('exit', r));
    return { server, output: () => out, exited };
  }

  it("verifies, and its command serves the folder with its .env's variables, the environment's winning", async () => {
    const file = path.join(site, 'claimsite.service');
    const verify = sh(site, 'systemd-analyze', ['verify', file]);
    expect(verify.code, `systemd-analyze (apt-get install systemd): ${verify.err}`).toBe(0);
    const unit = unitOf(await readFile(file, 'utf8'));
    const built = sh(site, 'npx', ['claimsite', 'generate', '--strict', '--quiet']);
    expect(built.code, built.err).toBe(0);

    // The secrets in .env; the unit's own environment (its database's path) set around it.
    const state = await tempDir('claimsite-state-');
    const port = 20000 + Math.floor(Math.random() * 20000);
    const origin = `http://127.0.0.1:${port}`;
    const dotenv = Object.entries({
      ...crm.env(),
      SITE_ORIGIN: origin,
      LEAD_OUTBOX_PATH: path.join(state, 'from-dotenv.db'),
    });
    await writeFile(path.join(site, '.env'), dotenv.map(([k, v]) => `${k}=${v}`).join('\n'));
    const environment = Object.fromEntries(
      (unit.Environment ?? [])
        .flatMap((e) => e.split(' '))
        .map((kv) => kv.split('=') as [string, string]),
    );
    expect(environment.LEAD_OUTBOX_PATH?.startsWith(`/var/lib/${unit.StateDirectory?.[0]}/`)).toBe(
      true,
    );
    environment.LEAD_OUTBOX_PATH = path.join(state, 'from-unit.db');
    const [, ...command] = (unit.ExecStart?.[0] ?? '').split(' ');
    expect(command.slice(0, 3)).toEqual([
      'node',
      'node_modules/claimsite/bin/claimsite.cjs',
      'serve',
    ]);
    const args = command.slice(1).map((a) => (a === '8080' ? String(port) : a));
    const { server, output, exited } = run(args, environment);
    try {
      let health = 0;
      for (let i = 0; i < 100 && health !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        health = await fetch(`${origin}/api/health`).then(
          (r) => r.status,
          () => 0,
        );
      }
      expect(health, output()).toBe(200);
      expect(output()).toContain('settings from .env');
      expect(output()).not.toContain('GHL_TOKEN is not set');
      const before = crm.contacts.size;
      const res = await fetch(`${origin}/api/lead`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: origin },
        body: JSON.stringify(person()),
      });
      expect(res.status, output()).toBe(200);
      expect(crm.contacts.size).toBe(before + 1);
      expect(existsSync(environment.LEAD_OUTBOX_PATH)).toBe(true);
      expect(existsSync(path.join(state, 'from-dotenv.db'))).toBe(false);
      server.kill('SIGTERM');
      expect(await exited, output()).toBe(0);
    } finally {
      server.kill('SIGKILL');
      await rm(path.join(site, '.env'));
    }
  }, 180_000);
});

describe('claimsite deploy', () => {
  const deploy = (...args: string[]) => sh(site, 'npx', ['claimsite', 'deploy', ...args]);
  const digest = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
  const recipe = (rel: string) => readFile(path.join(ROOT, 'recipes', rel), 'utf8');

  it('writes what is missing, updates what claimsite wrote, and keeps what its owner changed, saying what differs', async () => {
    expect(deploy('netlify').out).toMatch(/netlify\.toml +up to date/);
    // The owner's change is kept, to the byte, and shown.
    const toml = path.join(site, 'netlify.toml');
    const owners = (await readFile(toml, 'utf8')).replace(
      'publish = "dist"',
      'publish = "dist"\n  ignore = "git diff --quiet HEAD^ HEAD ."',
    );
    await writeFile(toml, owners);
    // A function removed, and one as an older claimsite wrote it (recorded, never changed).
    await rm(path.join(site, 'netlify/functions/drain-leads.mjs'));
    const lead = path.join(site, 'netlify/functions/lead.mjs');
    const older =
      "import { handleLead } from 'claimsite/lead/netlify';\nexport default handleLead;\n";
    await writeFile(lead, older);
    const record = path.join(site, '.claimsite.json');
    const written = JSON.parse(await readFile(record, 'utf8'));
    written.written['netlify/functions/lead.mjs'] = digest(older);
    await writeFile(record, JSON.stringify(written));

    const r = deploy('netlify');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/netlify\.toml +kept yours/);
    expect(r.out).toMatch(/netlify\/functions\/lead\.mjs +brought up to date/);
    expect(r.out).toMatch(/netlify\/functions\/drain-leads\.mjs +wrote/);
    expect(r.err).toContain('--- netlify.toml (yours)');
    expect(r.err).toContain('-  ignore = "git diff --quiet HEAD^ HEAD ."');
    expect(r.err).toContain('Kept netlify.toml');
    expect(await readFile(toml, 'utf8')).toBe(owners);
    expect(await readFile(lead, 'utf8')).toBe(await recipe('netlify/lead.mjs'));
    expect(await readFile(path.join(site, 'netlify/functions/drain-leads.mjs'), 'utf8')).toBe(
      await recipe('netlify/drain-leads.mjs'),
    );
    // Asked again, the same: the owner's file stays the owner's.
    expect(deploy('netlify').code).toBe(1);
    expect(await readFile(toml, 'utf8')).toBe(owners);
  }, 60_000);

  it("keeps a file of the owner's that claimsite never wrote, and writes nothing for Cloudflare", async () => {
    const other = path.join(await tempDir('claimsite-deploy-'), 'other');
    await mkdir(path.join(other, 'data'), { recursive: true });
    await writeFile(path.join(other, 'data/site.json'), '{}');
    await writeFile(path.join(other, 'Dockerfile'), 'FROM nginx\n');
    const r = sh(site, 'npx', ['claimsite', 'deploy', 'docker', '--dir', other]);
    expect(r.code).toBe(1);
    expect(await readFile(path.join(other, 'Dockerfile'), 'utf8')).toBe('FROM nginx\n');
    expect(await readFile(path.join(other, 'compose.yaml'), 'utf8')).toBe(
      await recipe('docker/compose.yaml'),
    );
    const cloudflare = sh(site, 'npx', ['claimsite', 'deploy', 'cloudflare', '--dir', other]);
    expect(cloudflare.code).toBe(0);
    expect(cloudflare.out).toContain('output directory dist');
    expect(deploy('heroku').code).toBe(2);
    const nowhere = sh(site, 'npx', ['claimsite', 'deploy', 'node', '--dir', path.dirname(other)]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.err).toContain('is not a site folder');
  }, 60_000);
});
