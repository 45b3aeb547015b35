import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectSources } from '../src/sources/collect.js';
import { runCliAsync, tempDir } from './helpers.js';

/** What the server saw: each request's method, path, user agent, and how many were open. */
const seen: Array<{ method: string; path: string; agent: string }> = [];
let open = 0;
let mostOpen = 0;
const sockets = new Set<Socket>();

/** A publisher on loopback answering each kind of page a source can have become. */
function answer(req: IncomingMessage, res: ServerResponse) {
  seen.push({
    method: req.method ?? '',
    path: req.url ?? '',
    agent: req.headers['user-agent'] ?? '',
  });
  open++;
  mostOpen = Math.max(mostOpen, open);
  const done = (status: number, headers: Record<string, string> = {}) => {
    // Held a moment, so that two requests at once would overlap.
    setTimeout(() => {
      open--;
      res.writeHead(status, headers).end(req.method === 'GET' ? 'page' : undefined);
    }, 20);
  };
  switch (req.url) {
    case '/article':
      return done(200);
    case '/old-address':
      return done(301, { location: '/article' });
    case '/gone':
      return done(410);
    case '/missing':
      return done(404);
    case '/head-refused':
      return done(req.method === 'HEAD' ? 405 : 200);
    case '/forbidden':
      return done(403);
    case '/hang':
      open--; // never answers: the check must give up on its own
      return;
    default:
      return done(500);
  }
}

const server = createServer(answer);
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

/** A data folder whose sources are all on the loopback publisher. */
async function dataFolder(paths: string[]) {
  const data = path.join(await tempDir(), 'data');
  await mkdir(path.join(data, 'cities'), { recursive: true });
  await writeFile(
    path.join(data, 'site.json'),
    JSON.stringify({ siteName: 'Basement Help Test', baseUrl: 'https://basement.example/' }),
  );
  const [first, ...rest] = paths.map((p) => ({ publisher: 'Loopback News', url: `${origin}${p}` }));
  await writeFile(
    path.join(data, 'local-facts.json'),
    JSON.stringify({
      testville: rest.map((source) => ({ topic: 'risk', text: 'A fact.', source })),
    }),
  );
  await writeFile(
    path.join(data, 'cities', 'zz.json'),
    JSON.stringify([{ slug: 'testville', descriptionSources: [first, first] }]),
  );
  return data;
}

describe('claimsite sources check', () => {
  it('collects each source URL once, with every place that cites it', async () => {
    const data = await dataFolder(['/article', '/gone']);
    const urls = collectSources(data);
    expect(urls.map((u) => u.url)).toEqual([`${origin}/article`, `${origin}/gone`]);
    expect(urls[0]?.cited).toEqual([
      'cities/zz.json: 0.descriptionSources.0',
      'cities/zz.json: 0.descriptionSources.1',
    ]);
    expect(urls[1]?.cited).toEqual(['local-facts.json: testville.0.source']);
  });

  it('lists the moved and the dead, politely, and exits 1 when one is dead', async () => {
    seen.length = 0;
    mostOpen = 0;
    const data = await dataFolder([
      '/article',
      '/old-address',
      '/gone',
      '/missing',
      '/head-refused',
      '/forbidden',
      '/hang',
    ]);
    const r = await runCliAsync([
      'sources',
      'check',
      '--data',
      data,
      '--timeout',
      '1500',
      '--delay',
      '50',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /Checked 7 source URLs on 1 host in .*: 2 answered, 1 moved, 3 dead, 1 answered otherwise\./,
    );
    expect(r.stdout).toContain(`${origin}/old-address -> ${origin}/article (301)`);
    expect(r.stdout).toContain(`${origin}/gone (410)`);
    expect(r.stdout).toContain(`${origin}/missing (404)`);
    expect(r.stdout).toContain(`${origin}/hang (no answer in 1.5 s)`);
    expect(r.stdout).toContain(`${origin}/forbidden (403)`);
    expect(r.stdout).toContain('cited at local-facts.json: testville.2.source');
    // HEAD first; GET only where HEAD was refused; never a redirect followed.
    expect(seen.filter((s) => s.method === 'GET').map((s) => s.path)).toEqual(['/head-refused']);
    expect(seen.filter((s) => s.path === '/article')).toHaveLength(1);
    // One host, one request at a time, named by the site that asks.
    expect(mostOpen).toBe(1);
    for (const s of seen)
      expect(s.agent).toBe(
        'claimsite-sources-check/1 (Basement Help Test; +https://basement.example/)',
      );
  }, 30_000);

  it('exits 0 when every source answers or moved', async () => {
    const data = await dataFolder(['/article', '/old-address', '/head-refused']);
    const r = await runCliAsync(['sources', 'check', '--data', data, '--delay', '0']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/3 source URLs on 1 host .*: 2 answered, 1 moved, 0 dead/);
    expect(r.stdout).not.toContain('Dead');
  }, 30_000);
});
