import type { Server } from 'node:http';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { startServer } from '../src/serve/server.js';
import { FIXTURE_DATA, tempDir } from './helpers.js';

/** A raw request: fetch() would normalise the dot segments we want to send as they are. */
function get(base: string, rawPath: string, method = 'GET') {
  const url = new URL(base);
  return new Promise<{
    status: number;
    type: string;
    body: string;
    headers: Record<string, unknown>;
  }>((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: rawPath, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          body,
          headers: res.headers,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('claimsite serve', () => {
  let server: Server;
  let base: string;
  let dist: string;

  beforeAll(async () => {
    dist = path.join(await tempDir(), 'dist');
    await generate({ dataDir: FIXTURE_DATA, outDir: dist });
    ({ server, url: base } = await startServer({ dir: dist, port: 0, host: '127.0.0.1' }));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('serves a page at /x/ and redirects /x and /x/index.html to it, keeping the query', async () => {
    const page = await get(base, '/toronto/about/');
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('About Our Public Adjusters in Toronto');
    for (const [from, to] of [
      ['/toronto/about', '/toronto/about/'],
      ['/toronto/about?ref=ad', '/toronto/about/?ref=ad'],
      ['/toronto/about/index.html', '/toronto/about/'],
      ['/index.html', '/'],
    ]) {
      const r = await get(base, from as string);
      expect(r.status, from).toBe(308);
      expect(r.headers.location, from).toBe(to);
    }
    const home = await get(base, '/');
    expect(home.status).toBe(200);
    expect(home.body).toContain('Free Property Damage Assessment');
  });

  it('never serves the host configuration files', async () => {
    expect((await get(base, '/_headers')).status).toBe(404);
  });

  it('answers unknown paths with 404.html and status 404', async () => {
    for (const p of ['/nowhere', '/toronto/nowhere/', '/assets/missing.js', '/sitemap.xml/']) {
      const r = await get(base, p);
      expect(r.status, p).toBe(404);
      expect(r.body).toContain('City Not Found');
    }
  });

  it('sends correct content types and caches hashed assets for good', async () => {
    expect((await get(base, '/sitemap.xml')).type).toBe('application/xml; charset=utf-8');
    expect((await get(base, '/robots.txt')).type).toBe('text/plain; charset=utf-8');
    expect((await get(base, '/favicon.svg')).type).toBe('image/svg+xml');
    const html = (await get(base, '/')).body;
    const css = html.match(/href="(\/assets\/site\.[0-9a-f]+\.css)"/)?.[1] ?? '';
    const js = html.match(/src="(\/assets\/app\.[0-9a-f]+\.js)"/)?.[1] ?? '';
    const cssRes = await get(base, css);
    expect(cssRes.type).toBe('text/css; charset=utf-8');
    expect(cssRes.headers['cache-control']).toContain('immutable');
    expect((await get(base, js)).type).toBe('text/javascript; charset=utf-8');
    expect((await get(base, '/')).headers['cache-control']).toBe(
      'public, max-age=0, must-revalidate',
    );
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get(base, '/faq/', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect((await get(base, '/faq/', 'DELETE')).status).toBe(405);
  });

  it('never serves a file outside the folder', async () => {
    const attempts = [
      '/../package.json',
      '/toronto/../../package.json',
      '/%2e%2e/package.json',
      '/%2E%2E/%2E%2E/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
      '/toronto/%2e%2e%2f%2e%2e%2fetc/passwd',
      '/..\\..\\etc\\passwd',
      '/%5c..%5c..%5cetc%5cpasswd',
      '/index.html%00.txt',
      '/%00',
      '/%E0%A4%A',
      '//etc/passwd',
      '/etc/passwd',
      `/${path.resolve('/etc/passwd')}`,
    ];
    for (const p of attempts) {
      const r = await get(base, p);
      expect([400, 404], p).toContain(r.status);
      expect(r.body, p).not.toMatch(/root:|"name": "claimsite"/);
    }
  });
});
