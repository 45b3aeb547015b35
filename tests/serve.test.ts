import { mkdir, readFile, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { request } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { startServer } from '../src/serve/server.js';
import { FIXTURE_DATA, tempDir } from './helpers.js';

interface Answer {
  status: number;
  type: string;
  body: string;
  bytes: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

/** A raw request: fetch() would normalise the dot segments we want to send as they are. */
function get(
  base: string,
  rawPath: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = new URL(base);
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: rawPath, method, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type']),
            body: bytes.toString('utf8'),
            bytes,
            headers: res.headers,
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * A request written byte for byte on a socket (a Host header no HTTP client would send): the
 * status line's code, or 0 when the server closed without answering.
 */
function rawStatus(base: string, text: string): Promise<number> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let got = '';
    socket.on('data', (c) => {
      got += c.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0)));
    // Not half-closed: the server closes it once it answered (each request says Connection: close).
    socket.write(text);
  });
}

describe('claimsite serve', () => {
  let server: Server;
  let base: string;
  let dist: string;

  let outside: string;

  beforeAll(async () => {
    const dir = await tempDir();
    dist = path.join(dir, 'dist');
    await generate({ dataDir: FIXTURE_DATA, outDir: dist, precompress: true });
    // What else a deployed folder may hold: a repository, secrets, links, files of many kinds.
    await mkdir(path.join(dist, '.git'));
    await writeFile(path.join(dist, '.git/config'), '[remote "origin"] token=secret');
    await writeFile(path.join(dist, '.env'), 'GHL_TOKEN=secret');
    await writeFile(path.join(dist, 'toronto/.htpasswd'), 'admin:secret');
    await mkdir(path.join(dist, '.well-known'));
    await writeFile(path.join(dist, '.well-known/security.txt'), 'Contact: mailto:a@example.org');
    outside = path.join(dir, 'outside');
    await mkdir(outside);
    await writeFile(path.join(outside, 'secret.txt'), 'outside secret');
    await writeFile(path.join(outside, 'index.html'), '<p>outside secret</p>');
    await symlink(path.join(outside, 'secret.txt'), path.join(dist, 'leak.txt'));
    await symlink(outside, path.join(dist, 'elsewhere'));
    await symlink(path.join(dist, 'robots.txt'), path.join(dist, 'robots-link.txt'));
    await symlink(path.join(dist, 'toronto'), path.join(dist, 'toronto-link'));
    await mkdir(path.join(dist, 'files'));
    for (const name of ['app.mjs', 'site.webmanifest', 'guide.pdf', 'map.gif'])
      await writeFile(path.join(dist, 'files', name), 'x');
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
  it('answers 404 for dotfiles and dot folders, but serves .well-known', async () => {
    for (const p of ['/.git/config', '/.git/', '/.env', '/toronto/.htpasswd', '/%2egit/config']) {
      const r = await get(base, p);
      expect(r.status, p).toBe(404);
      expect(r.body, p).not.toContain('secret');
    }
    const known = await get(base, '/.well-known/security.txt');
    expect(known.status).toBe(200);
    expect(known.type).toBe('text/plain; charset=utf-8');
    expect(known.body).toBe('Contact: mailto:a@example.org');
  });

  it('answers 404 for a link out of the folder, and serves one that stays inside', async () => {
    for (const p of ['/leak.txt', '/elsewhere/', '/elsewhere/secret.txt', '/elsewhere']) {
      const r = await get(base, p);
      expect(r.status, p).toBe(404);
      expect(r.body, p).not.toContain('outside secret');
      expect(r.headers.location, p).toBeUndefined();
    }
    const inside = await get(base, '/robots-link.txt');
    expect(inside.status).toBe(200);
    expect(inside.body).toBe(await readFile(path.join(dist, 'robots.txt'), 'utf8'));
    const folder = await get(base, '/toronto-link/about/');
    expect(folder.status).toBe(200);
    expect(folder.body).toContain('About Our Public Adjusters in Toronto');
  });

  it('never redirects to another host: //x and /\\x are no protocol-relative locations', async () => {
    for (const p of [
      '//toronto',
      '//toronto/about',
      '///toronto',
      '/%2Ftoronto',
      '/%2F%2Ftoronto',
      '/\\toronto',
      '/%5Ctoronto',
      '/%5C%5Ctoronto',
      '/toronto//about',
      '//toronto/index.html',
    ]) {
      const r = await get(base, p);
      expect([400, 404], p).toContain(r.status);
      expect(r.headers.location, p).toBeUndefined();
    }
  });

  it('answers a malformed Host with 400, on the pages and on the lead endpoint, and a good one as ever', async () => {
    const port = new URL(base).port;
    for (const host of ['a b', '[', 'a/b', 'x:99999999', '@evil', 'a?b', '1.2.3.999', '']) {
      for (const line of ['GET / HTTP/1.1', 'POST /api/lead HTTP/1.1'])
        expect(
          await rawStatus(
            base,
            `${line}\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
          ),
          `${line} Host: ${host}`,
        ).toBe(400);
    }
    for (const host of ['localhost', `127.0.0.1:${port}`, '[::1]:8080', 'example.ca.', 'web_1:80'])
      expect(
        await rawStatus(base, `GET /faq/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
        host,
      ).toBe(200);
  });

  it('answers a 16 KB path of 8,000 segments at once with 414, and keeps answering everyone meanwhile', async () => {
    const long = '/a'.repeat(8000);
    const longs = Array.from({ length: 8 }, () => get(base, long));
    // Sent after them: on a server that walked the long paths first, it waited for all eight.
    const page = await Promise.race([
      get(base, '/toronto/about/'),
      new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
    ]);
    expect(page?.status).toBe(200);
    for (const r of await Promise.all(longs)) expect(r.status).toBe(414);
    // Deep, within the length bound: not found without a lookup a segment.
    const deep = await get(base, `${'/toronto'.repeat(200)}/`);
    expect(deep.status).toBe(404);
    expect(deep.body).toContain('City Not Found');
  });

  it('sends ETag and Last-Modified, and 304 to If-None-Match and If-Modified-Since', async () => {
    const page = await get(base, '/toronto/');
    const etag = String(page.headers.etag);
    const modified = String(page.headers['last-modified']);
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    expect(Date.parse(modified)).toBeGreaterThan(0);
    const conditionals: Array<Record<string, string>> = [
      { 'If-None-Match': etag },
      { 'If-None-Match': `"other", ${etag}` },
      { 'If-Modified-Since': modified },
    ];
    for (const conditional of conditionals) {
      const r = await get(base, '/toronto/', 'GET', conditional);
      expect(r.status, JSON.stringify(conditional)).toBe(304);
      expect(r.body).toBe('');
      expect(r.headers.etag).toBe(etag);
    }
    expect((await get(base, '/toronto/', 'GET', { 'If-None-Match': '"other"' })).status).toBe(200);
    const earlier = new Date(Date.parse(modified) - 60_000).toUTCString();
    expect((await get(base, '/toronto/', 'GET', { 'If-Modified-Since': earlier })).status).toBe(
      200,
    );
    // A file changed since: its validators change with it.
    const file = path.join(dist, 'faq/index.html');
    const before = await get(base, '/faq/');
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    const after = await get(base, '/faq/', 'GET', { 'If-None-Match': String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // The not-found page is never "not modified".
    const missing = await get(base, '/nowhere/');
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('answers Range with 206 and the bytes asked for, and 416 past the end', async () => {
    const whole = await get(base, '/toronto/');
    const size = whole.bytes.length;
    const first = await get(base, '/toronto/', 'GET', { Range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-99/${size}`);
    expect(first.bytes.equals(whole.bytes.subarray(0, 100))).toBe(true);
    const last = await get(base, '/toronto/', 'GET', { Range: 'bytes=-50' });
    expect(last.status).toBe(206);
    expect(last.bytes.equals(whole.bytes.subarray(size - 50))).toBe(true);
    const past = await get(base, '/toronto/', 'GET', { Range: `bytes=${size}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    expect(whole.headers['accept-ranges']).toBe('bytes');
  });

  it('sends the brotli or gzip file written beside a page, script, stylesheet, sitemap or SVG, as Accept-Encoding asks', async () => {
    const html = (await get(base, '/')).body;
    const css = html.match(/href="(\/assets\/site\.[0-9a-f]+\.css)"/)?.[1] ?? '';
    const js = html.match(/src="(\/assets\/app\.[0-9a-f]+\.js)"/)?.[1] ?? '';
    for (const p of ['/toronto/', css, js, '/sitemap.xml', '/favicon.svg']) {
      const plain = await get(base, p);
      expect(plain.status, p).toBe(200);
      expect(plain.headers['content-encoding'], p).toBeUndefined();
      expect(plain.headers.vary, p).toContain('Accept-Encoding');
      for (const [accept, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['gzip;q=1, br;q=0.5', 'gzip'],
        ['*', 'br'],
        ['identity', undefined],
        ['deflate', undefined],
      ] as const) {
        const r = await get(base, p, 'GET', { 'Accept-Encoding': accept });
        expect([p, accept, r.headers['content-encoding']]).toEqual([p, accept, encoding]);
        expect(r.type, p).toBe(plain.type);
        expect(r.headers.vary, p).toContain('Accept-Encoding');
        const body =
          encoding === 'br'
            ? brotliDecompressSync(r.bytes)
            : encoding === 'gzip'
              ? gunzipSync(r.bytes)
              : r.bytes;
        expect(body.equals(plain.bytes), `${p} ${accept}`).toBe(true);
      }
    }
    // A form missing: the next one the browser takes.
    await rm(path.join(dist, 'faq/index.html.br'));
    const faq = await get(base, '/faq/', 'GET', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(faq.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(faq.bytes).equals((await get(base, '/faq/')).bytes)).toBe(true);
    const page = await get(base, '/toronto/', 'GET', { 'Accept-Encoding': 'br' });
    expect(page.bytes.length).toBeLessThan((await get(base, '/toronto/')).bytes.length / 3);
    const head = await get(base, '/toronto/', 'HEAD', { 'Accept-Encoding': 'br' });
    expect(Number(head.headers['content-length'])).toBe(page.bytes.length);
    expect(head.body).toBe('');
    // Not for what is compressed already, nor for a file without its forms.
    const image = await get(base, '/files/map.gif', 'GET', { 'Accept-Encoding': 'br' });
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers.vary).toBeUndefined();
  });

  it('sends a page replaced under it (renamed into place, as a build does) within a second, with its new length and ETag', async () => {
    const page = path.join(dist, 'about/index.html');
    const before = await get(base, '/about/');
    expect(before.status).toBe(200);
    const next = before.body.replace('</body>', '<p>replaced</p></body>');
    await writeFile(`${page}.tmp`, next);
    await rename(`${page}.tmp`, page);
    // A look is trusted for a second (file-index.ts): then the new file, whole.
    await new Promise((r) => setTimeout(r, 1100));
    const after = await get(base, '/about/');
    expect(after.body).toBe(next);
    expect(Number(after.headers['content-length'])).toBe(Buffer.byteLength(next));
    expect(after.headers.etag).not.toBe(before.headers.etag);
    await rm(page);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await get(base, '/about/')).status).toBe(404);
  });

  it('sends the types of a maintained table: .mjs, .webmanifest, .pdf, .gif and the rest', async () => {
    for (const [file, type] of [
      ['app.mjs', 'text/javascript; charset=utf-8'],
      ['site.webmanifest', 'application/manifest+json; charset=utf-8'],
      ['guide.pdf', 'application/pdf'],
      ['map.gif', 'image/gif'],
    ])
      expect((await get(base, `/files/${file}`)).type, file).toBe(type);
  });
});

describe('claimsite serve under a base path', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const dist = path.join(await tempDir(), 'dist');
    await generate({ dataDir: FIXTURE_DATA, outDir: dist });
    ({ server, url: base } = await startServer({
      dir: dist,
      port: 0,
      host: '127.0.0.1',
      apiPath: null,
      basePath: '/myrepo/',
    }));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('serves the folder under the path, redirects within it, and answers 404 outside it', async () => {
    const page = await get(base, '/myrepo/toronto/about/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('About Our Public Adjusters in Toronto');
    expect((await get(base, '/myrepo/')).body).toContain('Free Property Damage Assessment');
    for (const [from, to] of [
      ['/myrepo', '/myrepo/'],
      ['/myrepo?ref=ad', '/myrepo/?ref=ad'],
      ['/myrepo/toronto/about', '/myrepo/toronto/about/'],
      ['/myrepo/toronto/about/index.html', '/myrepo/toronto/about/'],
    ]) {
      const r = await get(base, from as string);
      expect(r.status, from).toBe(308);
      expect(r.headers.location, from).toBe(to);
    }
    for (const p of [
      '/',
      '/toronto/about/',
      '/myrepository/',
      '/other/myrepo/',
      '/myrepo/nowhere/',
    ]) {
      const r = await get(base, p);
      expect(r.status, p).toBe(404);
      expect(r.body, p).toContain('City Not Found');
    }
    // The _headers rules match the path inside the site.
    const css = page.body.match(/href="(\/assets\/site\.[0-9a-f]+\.css)"/)?.[1] ?? '';
    const asset = await get(base, `/myrepo${css}`);
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });
});
