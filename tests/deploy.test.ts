import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { buildPages } from '../src/pages.js';
import { HEALTH_PATH } from '../src/serve/server.js';
import { loadSite } from '../src/site/load.js';
import { FIXTURE_DATA, ROOT, runCli, tempDir } from './helpers.js';
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
    user: arg('USER')[0],
    expose: arg('EXPOSE')[0],
    volume: arg('VOLUME')[0],
    cmd: json(arg('CMD')[0] ?? '[]'),
    health: json(arg('HEALTHCHECK')[0] ?? '[]'),
  };
}

describe('the Dockerfile', () => {
  it('runs the site and the endpoint from the compiled CLI alone, not as root, with a working health check', async () => {
    const stage = await runtimeStage();
    expect(stage.user).toBe('node');
    expect(stage.cmd).toContain(stage.expose);
    expect(stage.health.join(' ')).toContain(`:${stage.expose}${HEALTH_PATH}`);
    expect(stage.env.LEAD_OUTBOX_PATH?.startsWith(`${stage.volume}/`)).toBe(true);

    // The image's /app: exactly what the last stage copies in (the build stage's dist/ is built
    // here the same way), and no node_modules.
    const image = await tempDir('claimsite-image-');
    const app = path.join(image, 'app');
    for (const [from, to] of stage.copies) {
      const rel = from.replace(/^\/app\//, '');
      const source = rel === 'dist' ? path.join(image, 'built') : path.join(ROOT, rel);
      if (rel === 'dist')
        expect(runCli(['generate', '--data', FIXTURE_DATA, '--out', source, '--quiet']).code).toBe(
          0,
        );
      await cp(source, path.join(app, to), { recursive: true });
    }
    const volume = path.join(image, 'volume');
    await mkdir(volume, { mode: 0o777 });
    execFileSync('chmod', ['-R', 'a+rwX', volume]);
    execFileSync('chmod', ['a+rx', image]);
    // The test run's folder too (made 0700), which the other user must pass through.
    execFileSync('chmod', ['a+x', path.dirname(image)]);

    // As the container runs it: another user than root where this runs as root, its port free.
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const cmd = stage.cmd.map((a) => (a === stage.expose ? port : a));
    const env = {
      PATH: process.env.PATH ?? '',
      ...stage.env,
      LEAD_OUTBOX_PATH: (stage.env.LEAD_OUTBOX_PATH ?? '').replace(stage.volume ?? '', volume),
    };
    const asUser =
      process.getuid?.() === 0
        ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
        : [];
    const [program, ...args] = [
      ...asUser,
      ...cmd.map((a) => (a === 'node' ? process.execPath : a)),
    ];
    const server = spawn(program ?? '', args, { cwd: app, env });
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
      const lead = await fetch(`${base}/api/lead`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: base },
        body: JSON.stringify(sampleClaim()),
      });
      expect(lead.status).toBe(202);
      expect(await (await fetch(`${base}${HEALTH_PATH}`)).json()).toEqual({
        status: 'ok',
        outbox: { waiting: 1 },
      });
    } finally {
      server.kill();
    }
  }, 60_000);
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
