import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'libsql';
import { parse } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { TrustedProxies } from '../src/lead/client-ip.js';
import { buildPages } from '../src/pages.js';
import { HEALTH_PATH } from '../src/serve/server.js';
import { loadSite } from '../src/site/load.js';
import { startFakeCrm } from './fake-crm.js';
import { BIN, editJson, FIXTURE_DATA, ROOT, tempDir } from './helpers.js';
import { sampleClaim } from './lead/sample.js';
import { installedSite, markNothingSample, packClaimsite, sh } from './site-folder.js';

/**
 * The Docker and Netlify recipes as `init` writes them into a site folder, in one made by the
 * repository's CLI with claimsite installed from its packed tarball: what a site owner deploys.
 */
let site: string;
beforeAll(async () => {
  const dir = await tempDir('claimsite-deploy-');
  ({ site } = await installedSite(dir, await packClaimsite(dir), 'site', '--empty'));
  await markNothingSample(site);
}, 180_000);

interface Stage {
  name: string;
  lines: string[];
}

/** The Dockerfile's stages, each with its instructions (continued lines joined). */
function stagesOf(text: string): Stage[] {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const from = /^FROM \S+(?: AS (\S+))?$/.exec(line);
    if (from) stages.push({ name: from[1] ?? '', lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

/** The instructions of a stage named `key`, without the key. */
const instructions = (stage: Stage, key: string) =>
  stage.lines.filter((l) => l.startsWith(`${key} `)).map((l) => l.slice(key.length + 1));

/** The Dockerfile's instructions of the last stage, the one the container runs. */
function runtimeStage(stage: Stage) {
  const arg = (key: string) => instructions(stage, key);
  const json = (s: string) => JSON.parse(s.replace(/^.*?CMD /, '')) as string[];
  return {
    copies: arg('COPY').map((c) => c.split(/\s+/) as [string, string, string]),
    env: Object.fromEntries(
      arg('ENV').map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
    ),
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

/** Whether .dockerignore leaves a file out of the build context (Go's filepath.Match globs). */
function dockerIgnores(patterns: string[]) {
  return (file: string) =>
    patterns.some((p) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\//g, '(.*/)?')
          .replace(/\*/g, '[^/]*')}$`,
      ).test(file),
    );
}

async function dockerignore(): Promise<string[]> {
  return (await readFile(path.join(site, '.dockerignore'), 'utf8'))
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
}

/**
 * The build stage run as a script, as Docker would (no Docker engine here): the build context
 * (the site folder less what .dockerignore leaves out) copied to its WORKDIR, then each RUN in
 * order, with the build arguments in the environment and npm kept to its cache. Its folder.
 */
async function runBuildStage(stage: Stage, into: string, args: Record<string, string>) {
  const ignored = dockerIgnores(await dockerignore());
  let workdir = into;
  for (const line of stage.lines) {
    const [key, ...rest] = line.split(' ');
    const value = rest.join(' ');
    if (key === 'WORKDIR') workdir = path.join(into, value);
    else if (key === 'COPY') {
      expect(value).toBe('. .');
      await cp(site, workdir, {
        recursive: true,
        filter: (f) => !ignored(path.relative(site, f).split(path.sep).join('/')),
      });
    } else if (key === 'RUN') {
      // A secret mount gives a token when there is one; npm here installs from its cache.
      const command = value.replace(/^(--mount=\S+\s+)+/, '');
      const r = sh(workdir, 'bash', ['-euo', 'pipefail', '-c', command], {
        ...args,
        npm_config_offline: 'true',
      });
      expect(r.code, `${command}\n${r.out}${r.err}`).toBe(0);
    } else expect(['ARG', 'ENV'], line).toContain(key);
  }
  return workdir;
}

describe('the Dockerfile a site folder is given', () => {
  it("builds the folder's own data with the claimsite its lockfile names", async () => {
    const [build] = stagesOf(await readFile(path.join(site, 'Dockerfile'), 'utf8'));
    if (!build) throw new Error('no build stage');
    // The folder's own settings: a name the bundled data does not have.
    await editJson(path.join(site, 'data'), 'site.json', (s: { siteName: string }) => {
      s.siteName = 'Prairie Test Claims';
    });
    const out = await runBuildStage(build, await tempDir('claimsite-image-'), {
      SITE_URL: 'https://www.prairie-test.ca',
    });
    const home = await readFile(path.join(out, 'dist/index.html'), 'utf8');
    expect(home).toContain('Prairie Test Claims');
    expect(home).toContain('https://www.prairie-test.ca/');
    // Precompressed for serve; the site's only city, not the bundled data's.
    expect(existsSync(path.join(out, 'dist/index.html.br'))).toBe(true);
    const cities = await readdir(path.join(site, 'data/cities'));
    expect(cities.filter((f) => f.endsWith('.json'))).toEqual(['on.json']);
    expect(existsSync(path.join(out, 'dist/toronto/index.html'))).toBe(true);
    expect(existsSync(path.join(out, 'dist/vancouver/index.html'))).toBe(false);
    // Production packages only; no secret of this machine's in the context.
    expect(existsSync(path.join(out, 'node_modules/claimsite/lib/cli.cjs'))).toBe(true);
    expect(existsSync(path.join(out, 'node_modules/vitest'))).toBe(false);
  }, 240_000);

  it('runs the site and the endpoint under tini, not as root, with a working health check, and stops gracefully', async () => {
    const stages = stagesOf(await readFile(path.join(site, 'Dockerfile'), 'utf8'));
    const [build, last] = [stages[0], stages.at(-1)];
    if (!build || !last) throw new Error('no stages');
    const stage = runtimeStage(last);
    expect(stage.user).toBe('node');
    expect(stage.cmd).toContain(stage.expose);
    expect(stage.health.join(' ')).toContain(`:${stage.expose}${HEALTH_PATH}`);
    expect(stage.env.LEAD_OUTBOX_PATH?.startsWith(`${stage.volume}/`)).toBe(true);
    expect(stage.stopSignal).toBe('SIGTERM');
    expect(stage.entrypoint).toEqual(['/usr/bin/tini', '--']);
    expect(stage.run.join(' ')).toMatch(/apt-get install .*\btini\b/);
    // The same tini as the image's, from Debian (.ci/run installs it when it is missing).
    expect(existsSync('/usr/bin/tini'), 'apt-get install tini').toBe(true);

    // The image's /app: exactly what the last stage copies in from the build stage's folder.
    const image = await tempDir('claimsite-image-');
    const built = await runBuildStage(build, path.join(image, 'build'), {});
    const app = path.join(image, 'app');
    for (const [from, source, to] of stage.copies) {
      expect(from).toBe(`--from=${build.name}`);
      const rel = path.relative(instructions(build, 'WORKDIR')[0] ?? '/', source);
      await cp(path.join(built, rel), path.join(app, to), { recursive: true });
    }
    expect(existsSync(path.join(app, 'node_modules', 'libsql'))).toBe(true);
    const volume = path.join(image, 'volume');
    await mkdir(volume, { mode: 0o777 });
    execFileSync('chmod', ['-R', 'a+rwX', volume]);
    execFileSync('chmod', ['-R', 'a+rX', image]);
    // The test run's folder too (made 0700), which the other user must pass through.
    execFileSync('chmod', ['a+x', path.dirname(image)]);
    await runContainer(stage, app, volume);
  }, 240_000);
});

/**
 * As the container runs it: tini as PID 1 of its own namespace, then node, as another user than
 * root where this runs as root, its port free. The CRM takes 3 s over a contact; docker stop
 * comes half a second after the lead is posted.
 */
async function runContainer(stage: ReturnType<typeof runtimeStage>, app: string, volume: string) {
  const crm = await startFakeCrm({ api: 'v2' });
  crm.fail('contact', { stallMs: 3000 });
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const cmd = stage.cmd.map((a) => (a === stage.expose ? port : a));
  const db = (stage.env.LEAD_OUTBOX_PATH ?? '').replace(stage.volume ?? '', volume);
  const env = { PATH: process.env.PATH ?? '', ...stage.env, ...crm.env(), LEAD_OUTBOX_PATH: db };
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
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
  });
  server.stderr.on('data', (d) => {
    out += d;
  });
  try {
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
      delivered.prepare('SELECT state FROM leads WHERE submission_id = ?').get(claim.submissionId),
    ).toMatchObject({ state: 'delivered' });
    delivered.close();
  } finally {
    server.kill('SIGKILL');
    await crm.close();
  }
}

describe('compose.yaml', () => {
  it('puts the site behind Caddy alone, trusting that proxy only to name visitors', async () => {
    interface Service {
      build?: { context: string };
      environment?: Record<string, string>;
      ports?: string[];
      networks?: Record<string, { ipv4_address: string }>;
      command?: string;
      volumes?: string[];
    }
    const compose = YAML.parse(await readFile(path.join(site, 'compose.yaml'), 'utf8')) as {
      services: { site: Service; proxy: Service };
      networks: Record<string, { ipam: { config: Array<{ subnet: string }> } }>;
    };
    const { site: service, proxy } = compose.services;
    // The image of the folder's own Dockerfile.
    expect(service.build?.context).toBe('.');
    const proxyAddress = String(proxy.networks?.edge?.ipv4_address);
    expect(service.environment?.LEAD_TRUSTED_PROXIES).toBe(proxyAddress);
    // Reached only through the proxy: the site publishes no port of its own.
    expect(service.ports).toBeUndefined();
    expect(String(proxy.command)).toContain('--to site:8080');
    // The trust is checked as the endpoint reads it.
    const subnet = compose.networks.edge?.ipam.config[0]?.subnet ?? '';
    expect(
      new TrustedProxies(String(proxyAddress)).clientOf(String(proxyAddress), '203.0.113.5'),
    ).toBe('203.0.113.5');
    expect(subnet.startsWith(String(proxyAddress).split('.').slice(0, 3).join('.'))).toBe(true);
    expect(service?.volumes).toContain('outbox:/var/lib/claimsite');
  });

  it('is built from a context that holds no .env file', async () => {
    const ignored = dockerIgnores(await dockerignore());
    for (const file of ['.env', '.env.production', '.env.local', 'deploy/.env'])
      expect(ignored(file), file).toBe(true);
    for (const file of ['package.json', 'package-lock.json', 'data/site.json'])
      expect(ignored(file), file).toBe(false);
  });
});

describe('netlify.toml', () => {
  it('publishes the publishing build, with the lead function at the endpoint path', async () => {
    const toml = parse(await readFile(path.join(site, 'netlify.toml'), 'utf8')) as {
      build: { command: string; publish: string; environment: { NODE_VERSION: string } };
      functions: { directory: string };
    };
    expect(toml.build.command).toBe('npx claimsite generate --strict');
    // The generate command's own default output folder.
    expect(toml.build.publish).toBe('dist');
    expect(Number(toml.build.environment.NODE_VERSION)).toBeGreaterThanOrEqual(20);
    const fn = await readFile(path.join(site, toml.functions.directory, 'lead.mjs'), 'utf8');
    const settings = JSON.parse(await readFile(path.join(site, 'data/site.json'), 'utf8'));
    expect(fn).toContain(`export const config = { path: '${settings.leadEndpoint}' };`);
    // The publishing build, run as Netlify runs it, succeeds in the folder.
    const r = sh(site, 'bash', ['-c', toml.build.command]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(path.join(site, toml.build.publish, 'index.html'))).toBe(true);
  }, 120_000);

  it('sends an unknown French address to the French not-found page, which the build writes', async () => {
    const toml = parse(await readFile(path.join(site, 'netlify.toml'), 'utf8')) as {
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

/** The code blocks (```lang) of the recipe in a guide that starts with `**${title}`. */
async function recipe(title: string, file = 'README.md', lang = 'sh'): Promise<string[]> {
  const text = await readFile(path.join(ROOT, file), 'utf8');
  const start = text.indexOf(`**${title}`);
  const end = text.indexOf('\n**', start + 1);
  expect(start).toBeGreaterThan(0);
  return [
    ...text.slice(start, end).matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g')),
  ].map((m) => m[1] ?? '');
}

describe("the README's recipes, to the letter", () => {
  it('GitHub Pages from a branch: on a fresh clone with no gh-pages branch, then again, and from another clone', async () => {
    const [once, deploy] = await recipe('From a `gh-pages` branch', 'docs/urls-and-hosts.md');
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
    const [commands] = await recipe('One Node host serving both, with Docker');
    const dockerfile = await readFile(path.join(site, 'Dockerfile'), 'utf8');
    const commented = dockerfile
      .split('\n')
      .filter((l) => /^# {3}/.test(l))
      .map((l) => l.replace(/^# {3}/, ''))
      .join('\n');
    expect(`${commented}\n`).toBe(commands);
    expect(commented).toMatch(/^docker build --build-arg SITE_URL=\S+ /m);
  });

  it('systemd: the unit in the README is the one the site folder is given', async () => {
    const [unit] = await recipe('One Node host serving both, with systemd', 'README.md', 'ini');
    expect(unit).toBe(await readFile(path.join(site, 'claimsite.service'), 'utf8'));
  });
});
