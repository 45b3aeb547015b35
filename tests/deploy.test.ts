import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'libsql';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { TrustedProxies } from '../src/lead/client-ip.js';
import { buildPages } from '../src/pages.js';
import { HEALTH_PATH } from '../src/serve/server.js';
import { loadSite } from '../src/site/load.js';
import { startFakeCrm } from './fake-crm.js';
import { BIN, editJson, FIXTURE_DATA, ROOT, runCli, tempDir } from './helpers.js';
import { sampleClaim } from './lead/sample.js';

/** The Dockerfile's instructions of the last stage, the one the container runs. */
async function runtimeStage() {
  const text = (await readFile(path.join(ROOT, 'Dockerfile'), 'utf8')).replace(/\\\n\s*/g, ' ');
  const stages = text.split(/^FROM /m);
  const last = stages.at(-1) ?? '';
  const lines = last.split('\n').map((l) => l.trim());
  const arg = (key: string) =>
    lines.filter((l) => l.startsWith(`${key} `)).map((l) => l.slice(key.length + 1));
  const json = (s: string) => JSON.parse(s.replace(/^.*?CMD /, '')) as string[];
  return {
    copies: arg('COPY').map((c) => c.split(/\s+/).slice(-2) as [string, string]),
    env: Object.fromEntries(arg('ENV').map((e) => e.split('=') as [string, string])),
    run: arg('RUN'),
    user: arg('USER')[0],
    expose: arg('EXPOSE')[0],
    volume: arg('VOLUME')[0],
    stopSignal: arg('STOPSIGNAL')[0],
    entrypoint: json(arg('ENTRYPOINT')[0] ?? '[]'),
    cmd: json(arg('CMD')[0] ?? '[]'),
    health: json(arg('HEALTHCHECK')[0] ?? '[]'),
  };
}

/** The production packages (npm ci --omit=dev), as the build stage's node_modules holds them. */
function productionModules(): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const top = path.join(ROOT, 'node_modules');
  // The top-level packages: each nested one comes along inside its parent.
  return [
    ...new Set(
      out
        .split('\n')
        .filter((p) => p.startsWith(`${top}/`))
        .map((p) => path.relative(top, p).split('/node_modules/')[0] ?? ''),
    ),
  ].filter(Boolean);
}

describe('the Dockerfile', () => {
  it('runs the site and the endpoint under tini, not as root, with a working health check, and stops gracefully', async () => {
    const stage = await runtimeStage();
    expect(stage.user).toBe('node');
    expect(stage.cmd).toContain(stage.expose);
    expect(stage.health.join(' ')).toContain(`:${stage.expose}${HEALTH_PATH}`);
    expect(stage.env.LEAD_OUTBOX_PATH?.startsWith(`${stage.volume}/`)).toBe(true);
    expect(stage.stopSignal).toBe('SIGTERM');
    expect(stage.entrypoint).toEqual(['/usr/bin/tini', '--']);
    expect(stage.run.join(' ')).toMatch(/apt-get install .*\btini\b/);
    // The same tini as the image's, from Debian (.ci/run installs it when it is missing).
    expect(existsSync('/usr/bin/tini'), 'apt-get install tini').toBe(true);

    // The image's /app: exactly what the last stage copies in (the build stage's dist/ is built
    // here the same way, and its node_modules holds the production packages).
    const image = await tempDir('claimsite-image-');
    const app = path.join(image, 'app');
    for (const [from, to] of stage.copies) {
      const rel = from.replace(/^\/app\//, '');
      if (rel === 'node_modules') {
        for (const pkg of productionModules())
          await cp(path.join(ROOT, 'node_modules', pkg), path.join(app, to, pkg), {
            recursive: true,
          });
        continue;
      }
      const source = rel === 'dist' ? path.join(image, 'built') : path.join(ROOT, rel);
      if (rel === 'dist')
        expect(runCli(['generate', '--data', FIXTURE_DATA, '--out', source, '--quiet']).code).toBe(
          0,
        );
      await cp(source, path.join(app, to), { recursive: true });
    }
    // Nothing of the development packages: the CLI runs from what the image holds.
    expect(existsSync(path.join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(path.join(app, 'node_modules', 'libsql'))).toBe(true);
    const volume = path.join(image, 'volume');
    await mkdir(volume, { mode: 0o777 });
    execFileSync('chmod', ['-R', 'a+rwX', volume]);
    execFileSync('chmod', ['a+rx', image]);
    // The test run's folder too (made 0700), which the other user must pass through.
    execFileSync('chmod', ['a+x', path.dirname(image)]);

    // As the container runs it: tini as PID 1 of its own namespace, then node, as another user
    // than root where this runs as root, its port free. The CRM takes 3 s over a contact.
    const crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { stallMs: 3000 });
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const cmd = stage.cmd.map((a) => (a === stage.expose ? port : a));
    const db = (stage.env.LEAD_OUTBOX_PATH ?? '').replace(stage.volume ?? '', volume);
    const env = {
      PATH: process.env.PATH ?? '',
      ...stage.env,
      ...crm.env(),
      LEAD_OUTBOX_PATH: db,
    };
    const root = process.getuid?.() === 0;
    const asUser = root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const pid1 = root ? ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'] : [];
    const [program, ...args] = [
      ...pid1,
      ...asUser,
      ...stage.entrypoint,
      ...cmd.map((a) => (a === 'node' ? process.execPath : a)),
    ];
    const server = spawn(program ?? '', args, { cwd: app, env });
    const exited = new Promise<number | null>((r) => server.on('exit', (code) => r(code)));
    try {
      let out = '';
      server.stdout.on('data', (d) => {
        out += d;
      });
      server.stderr.on('data', (d) => {
        out += d;
      });
      const base = `http://127.0.0.1:${port}`;
      const check = () =>
        new Promise<number | null>((resolve) => {
          const [hp, ...ha] = stage.health.map((a) =>
            a === 'node' ? process.execPath : a.replace(`:${stage.expose}`, `:${port}`),
          );
          spawn(hp ?? '', ha).on('exit', resolve);
        });
      let healthy: number | null = 1;
      for (let i = 0; i < 100 && healthy !== 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        healthy = await check();
      }
      expect(healthy, out).toBe(0);
      expect((await fetch(`${base}/toronto/`)).status).toBe(200);
      const claim = sampleClaim();
      const lead = fetch(`${base}/api/lead`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: base },
        body: JSON.stringify(claim),
      });
      // docker stop while the lead is with the CRM: tini hands SIGTERM to node.
      await new Promise((r) => setTimeout(r, 500));
      const tini = root
        ? Number(readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8').trim())
        : (server.pid ?? 0);
      const stopped = Date.now();
      process.kill(tini, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      await expect(fetch(`${base}/toronto/`)).rejects.toThrow();
      const answer = await lead;
      expect(answer.status, out).toBe(200);
      expect(await exited, out).toBe(0);
      expect(Date.now() - stopped).toBeLessThan(8000);
      // Kept and closed: delivered, and the database's log checkpointed into it.
      expect(crm.contacts.size).toBe(1);
      expect(statSync(`${db}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
      const delivered = new Database(db, { readonly: true });
      expect(
        delivered
          .prepare('SELECT state FROM leads WHERE submission_id = ?')
          .get(claim.submissionId),
      ).toMatchObject({ state: 'delivered' });
      delivered.close();
    } finally {
      server.kill('SIGKILL');
      await crm.close();
    }
  }, 90_000);
});

describe('compose.yaml', () => {
  it('puts the site behind Caddy alone, trusting that proxy only to name visitors', async () => {
    interface Service {
      environment?: Record<string, string>;
      ports?: string[];
      networks?: Record<string, { ipv4_address: string }>;
      command?: string;
      volumes?: string[];
    }
    const compose = YAML.parse(await readFile(path.join(ROOT, 'compose.yaml'), 'utf8')) as {
      services: { site: Service; proxy: Service };
      networks: Record<string, { ipam: { config: Array<{ subnet: string }> } }>;
    };
    const { site, proxy } = compose.services;
    const proxyAddress = String(proxy.networks?.edge?.ipv4_address);
    expect(site.environment?.LEAD_TRUSTED_PROXIES).toBe(proxyAddress);
    // Reached only through the proxy: the site publishes no port of its own.
    expect(site.ports).toBeUndefined();
    expect(String(proxy.command)).toContain('--to site:8080');
    // The trust is checked as the endpoint reads it.
    const subnet = compose.networks.edge?.ipam.config[0]?.subnet ?? '';
    expect(
      new TrustedProxies(String(proxyAddress)).clientOf(String(proxyAddress), '203.0.113.5'),
    ).toBe('203.0.113.5');
    expect(subnet.startsWith(String(proxyAddress).split('.').slice(0, 3).join('.'))).toBe(true);
    expect(site?.volumes).toContain('outbox:/var/lib/claimsite');
  });
});

describe('netlify.toml', () => {
  it('builds with the package script into the folder it publishes, with the lead function at the endpoint path', async () => {
    const toml = parse(await readFile(path.join(ROOT, 'netlify.toml'), 'utf8')) as {
      build: { command: string; publish: string; environment: { NODE_VERSION: string } };
      functions: { directory: string };
    };
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
    const script = /^npm run (\S+)$/.exec(toml.build.command)?.[1] ?? '';
    expect(pkg.scripts[script]).toContain('generate');
    // The generate command's own default output folder.
    expect(pkg.scripts[script]).not.toContain('--out');
    expect(toml.build.publish).toBe('dist');
    expect(Number(toml.build.environment.NODE_VERSION)).toBeGreaterThanOrEqual(20);
    const fn = await import(path.join(ROOT, toml.functions.directory, 'lead.ts'));
    const settings = JSON.parse(await readFile(path.join(ROOT, 'data/site.json'), 'utf8'));
    expect(fn.config.path).toBe(settings.leadEndpoint);
  });

  it('sends an unknown French address to the French not-found page, which the build writes', async () => {
    const toml = parse(await readFile(path.join(ROOT, 'netlify.toml'), 'utf8')) as {
      redirects?: Array<{ from: string; to: string; status: number; force?: boolean }>;
    };
    const pages = buildPages(await loadSite(path.join(ROOT, 'data')));
    const notFound = pages.filter((p) => p.route === 'not-found' && p.lang !== 'en');
    expect(notFound.length).toBeGreaterThan(0);
    for (const page of notFound) {
      const prefix = page.path.split('/')[1];
      // Not forced: only where no file matches, as Netlify's shadowing rule has it.
      expect(toml.redirects).toContainEqual({ from: `/${prefix}/*`, to: page.path, status: 404 });
    }
  });
});

/** The shell blocks of the README's recipe that starts with `**${title}`. */
async function recipe(title: string): Promise<string[]> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`**${title}`);
  const end = readme.indexOf('\n**', start + 1);
  expect(start).toBeGreaterThan(0);
  return [...readme.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

describe("the README's recipes, to the letter", () => {
  it('GitHub Pages: on a fresh clone with no gh-pages branch, then again, and from another clone', async () => {
    const [once, deploy] = await recipe('GitHub Pages');
    expect(once).toContain('gh-pages');
    expect(deploy).toContain('npm run generate');
    const dir = await tempDir();
    const data = path.join(dir, 'data');
    await cp(FIXTURE_DATA, data, { recursive: true });
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 'Owner',
      GIT_AUTHOR_EMAIL: 'owner@example.org',
      GIT_COMMITTER_NAME: 'Owner',
      GIT_COMMITTER_EMAIL: 'owner@example.org',
    };
    const run = (cwd: string, file: string, ...args: string[]) =>
      execFileSync(file, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    // A project whose `npm run generate` builds with this checkout's CLI, pushed to its origin.
    const project = path.join(dir, 'project');
    await mkdir(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'site',
        private: true,
        scripts: { generate: `node ${BIN} generate --data ${data} --no-audit --quiet` },
      }),
    );
    const origin = path.join(dir, 'origin.git');
    run(dir, 'git', 'init', '-q', '--bare', '-b', 'main', origin);
    run(project, 'git', 'init', '-q', '-b', 'main');
    run(project, 'git', 'add', '-A');
    run(project, 'git', 'commit', '-q', '-m', 'Project');
    run(project, 'git', 'push', '-q', origin, 'main');
    const published = () =>
      run(dir, 'git', '--git-dir', origin, 'ls-tree', '-r', '--name-only', 'gh-pages').split('\n');

    const clone = (name: string) => {
      run(dir, 'git', 'clone', '-q', origin, name);
      return path.join(dir, name);
    };
    const first = clone('first');
    run(first, 'bash', '-euo', 'pipefail', '-c', once ?? '');
    run(first, 'bash', '-euo', 'pipefail', '-c', deploy ?? '');
    expect(published()).toEqual(expect.arrayContaining(['index.html', 'toronto/index.html']));
    expect(published()).toContain('blog/public-adjuster-fees-explained/index.html');

    // The next deploy from the same clone: a page the data no longer makes leaves the branch.
    await rm(path.join(data, 'posts/public-adjuster-fees-explained.md'));
    run(first, 'bash', '-euo', 'pipefail', '-c', deploy ?? '');
    expect(published()).not.toContain('blog/public-adjuster-fees-explained/index.html');
    expect(published()).toContain('toronto/index.html');

    // Another fresh clone, the branch now on the remote: its history goes on.
    const second = clone('second');
    await editJson(data, 'site.json', (s: { siteName: string }) => {
      s.siteName = 'Second Clone Claims';
    });
    run(second, 'bash', '-euo', 'pipefail', '-c', once ?? '');
    run(second, 'bash', '-euo', 'pipefail', '-c', deploy ?? '');
    const log = run(dir, 'git', '--git-dir', origin, 'log', '--format=%s', 'gh-pages').split('\n');
    expect(log.filter(Boolean)).toEqual(['Site', 'Site', 'Site']);
    expect(run(dir, 'git', '--git-dir', origin, 'show', 'gh-pages:index.html')).toContain(
      'Second Clone Claims',
    );
  }, 120_000);

  it("Docker: the Dockerfile's own comment is the README's recipe, the site URL given", async () => {
    const [commands] = await recipe('One Node host serving both');
    const dockerfile = await readFile(path.join(ROOT, 'Dockerfile'), 'utf8');
    const commented = dockerfile
      .split('\n')
      .filter((l) => /^# {3}/.test(l))
      .map((l) => l.replace(/^# {3}/, ''))
      .join('\n');
    expect(`${commented}\n`).toBe(commands);
    expect(commented).toMatch(/^docker build --build-arg SITE_URL=\S+ /m);
  });

  it('Docker: the build context holds no .env file', async () => {
    const patterns = (await readFile(path.join(ROOT, '.dockerignore'), 'utf8'))
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    // Docker's patterns are Go's filepath.Match globs, rooted at the context.
    const ignored = (file: string) =>
      patterns.some((p) =>
        new RegExp(
          `^${p
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*\*\//g, '(.*/)?')
            .replace(/\*/g, '[^/]*')}$`,
        ).test(file),
      );
    for (const file of ['.env', '.env.production', '.env.local', 'deploy/.env'])
      expect(ignored(file), file).toBe(true);
    expect(ignored('package.json')).toBe(false);
  });
});
