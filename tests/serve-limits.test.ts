import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { DEFAULT_LIMITS } from '../src/serve/limits.js';
import { type Serving, startServer } from '../src/serve/server.js';
import { FIXTURE_DATA, tempDir } from './helpers.js';

/**
 * The server's own limits, tried as a slow or greedy client would: each test's bound on waiting
 * is many times what the limit under test allows, and far below what the server without it
 * would hold (Node's defaults: 300 s a request, 60 s for headers, no connection cap).
 */
let dist: string;

beforeAll(async () => {
  dist = path.join(await tempDir(), 'dist');
  await generate({ dataDir: FIXTURE_DATA, outDir: dist });
});

/** A connection to the server, and a promise of when the server closed it and what it sent. */
function open(url: string): { socket: Socket; closed: Promise<{ got: string }> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let got = '';
  socket.on('data', (c) => {
    got += c.toString('latin1');
  });
  socket.on('error', () => {});
  const closed = new Promise<{ got: string }>((resolve) =>
    socket.on('close', () => resolve({ got })),
  );
  return { socket, closed };
}

/** Resolves with `p`'s value, or with 'still open' once `ms` have passed. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('claimsite serve limits', () => {
  let server: Server;
  let base: string;

  let serving: Serving;

  beforeAll(async () => {
    // The server's own lead store, kept beside the built folder rather than in the working directory.
    process.env.LEAD_OUTBOX_PATH = path.join(dist, '..', 'outbox', 'leads.db');
    // Six leads under way from one address at once: past the endpoint's own rate limit.
    process.env.LEAD_RATE_LIMIT = '1000';
    serving = await startServer({
      dir: dist,
      port: 0,
      host: '127.0.0.1',
      noRetries: true,
      limits: {
        headersTimeout: 1_000,
        requestTimeout: 2_000,
        checkInterval: 250,
        keepAliveTimeout: 500,
        idleTimeout: 3_000,
        maxConnections: 6,
      },
    });
    ({ server, url: base } = serving);
  });
  afterAll(async () => {
    delete process.env.LEAD_OUTBOX_PATH;
    delete process.env.LEAD_RATE_LIMIT;
    await serving.close(0);
  });

  it('cuts a lead whose body is trickled a byte at a time once the request time is up', async () => {
    const { socket, closed } = open(base);
    socket.write(
      `POST /api/lead HTTP/1.1\r\nHost: ${new URL(base).host}\r\nOrigin: ${base}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    const trickle = setInterval(() => socket.write('"'), 400);
    try {
      // The whole body would take 400 s; the limit is 2 s, checked every 0.25 s.
      const end = await within(closed, 15_000);
      expect(end).not.toBe('still open');
      expect((end as { got: string }).got).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('cuts headers trickled a byte at a time, and a connection that sends nothing', async () => {
    const slow = open(base);
    const text = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: 0123456789abcdefghij\r\n\r\n';
    let i = 0;
    const trickle = setInterval(() => slow.socket.write(text[i++ % text.length] ?? ''), 300);
    const silent = open(base);
    try {
      expect(await within(slow.closed, 10_000)).not.toBe('still open');
      expect(await within(silent.closed, 10_000)).not.toBe('still open');
    } finally {
      clearInterval(trickle);
      slow.socket.destroy();
      silent.socket.destroy();
    }
  });

  it('closes a kept-alive connection left idle after its answer', async () => {
    const { socket, closed } = open(base);
    socket.write('GET /faq/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const end = await within(closed, 10_000);
    expect(end).not.toBe('still open');
    expect((end as { got: string }).got).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('at the cap closes the connection idle longest for a new one; refuses one only when all are busy', async () => {
    const held = Array.from({ length: 6 }, () => open(base));
    const count = () => new Promise<number>((r) => server.getConnections((_, c) => r(c)));
    try {
      // Every held connection is the server's before the next one comes.
      for (let n = 0; n < 100 && (await count()) < 6; n++) await sleep(20);
      // Idle, every one: the first held is closed and the newcomer answered.
      const next = open(base);
      next.socket.write('GET /faq/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      const answer = await within(next.closed, 10_000);
      expect((answer as { got: string }).got).toMatch(/^HTTP\/1\.1 200 /);
      expect(await within(held[0]?.closed as Promise<{ got: string }>, 2_000)).toEqual({ got: '' });
      for (const h of held) h.socket.destroy();
      await Promise.all(held.map((h) => h.closed));
      // Busy, every one (a lead's body under way): a newcomer is refused as it arrives.
      const busy = Array.from({ length: 6 }, () => open(base));
      for (const b of busy)
        b.socket.write(
          `POST /api/lead HTTP/1.1\r\nHost: ${new URL(base).host}\r\nOrigin: ${base}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
        );
      held.splice(0, held.length, ...busy);
      await sleep(300);
      const extra = open(base);
      expect(await within(extra.closed, 5_000)).toEqual({ got: '' });
    } finally {
      for (const h of held) h.socket.destroy();
    }
  });
});

describe('claimsite serve default limits', () => {
  it('cut a trickled request within 30 s, headers within 15 s, and cap connections', async () => {
    const { server } = await startServer({
      dir: dist,
      port: 0,
      host: '127.0.0.1',
      apiPath: null,
    });
    try {
      expect(server.requestTimeout).toBe(DEFAULT_LIMITS.requestTimeout);
      expect(server.headersTimeout).toBe(DEFAULT_LIMITS.headersTimeout);
      expect(server.keepAliveTimeout).toBe(DEFAULT_LIMITS.keepAliveTimeout);
      expect(server.timeout).toBe(DEFAULT_LIMITS.idleTimeout);
      // A request is cut at most one check after its time is up.
      expect(DEFAULT_LIMITS.requestTimeout + DEFAULT_LIMITS.checkInterval).toBeLessThanOrEqual(
        30_000,
      );
      expect(DEFAULT_LIMITS.headersTimeout + DEFAULT_LIMITS.checkInterval).toBeLessThanOrEqual(
        15_000,
      );
      expect(DEFAULT_LIMITS.maxConnections).toBeGreaterThanOrEqual(500);
      expect(DEFAULT_LIMITS.maxConnections).toBeLessThanOrEqual(5_000);
      // A browser opens six connections to a host; a few visitors behind one address share it.
      expect(DEFAULT_LIMITS.maxPerAddress).toBeGreaterThanOrEqual(6);
      expect(DEFAULT_LIMITS.maxPerAddress).toBeLessThan(DEFAULT_LIMITS.maxConnections / 10);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('claimsite serve behind a trusted proxy', () => {
  it("caps requests under way per forwarded address, not the proxy's own connections", async () => {
    process.env.LEAD_OUTBOX_PATH = path.join(dist, '..', 'outbox-proxy', 'leads.db');
    process.env.LEAD_TRUSTED_PROXIES = '127.0.0.1';
    const serving = await startServer({
      dir: dist,
      port: 0,
      host: '127.0.0.1',
      noRetries: true,
      limits: { maxPerAddress: 3 },
    });
    const held: Array<ReturnType<typeof open>> = [];
    try {
      const host = new URL(serving.url).host;
      const post = (client: string) =>
        `POST /api/lead HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${serving.url}\r\nX-Forwarded-For: ${client}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;
      // Three of one visitor's leads under way through the proxy, on five of its connections.
      for (let i = 0; i < 5; i++) held.push(open(serving.url));
      for (const h of held.slice(0, 3)) h.socket.write(post('203.0.113.7'));
      await sleep(300);
      const fourth = held[3] as ReturnType<typeof open>;
      fourth.socket.write(post('203.0.113.7'));
      await sleep(300);
      expect(fourth.socket.destroyed ? '' : 'open').toBe('open');
      const other = held[4] as ReturnType<typeof open>;
      other.socket.write(
        'GET /faq/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 203.0.113.8\r\nConnection: close\r\n\r\n',
      );
      expect(((await within(other.closed, 5_000)) as { got: string }).got).toMatch(
        /^HTTP\/1\.1 200 /,
      );
      fourth.socket.end();
      expect(((await within(fourth.closed, 5_000)) as { got: string }).got).toMatch(
        /^HTTP\/1\.1 429 /,
      );
    } finally {
      for (const h of held) h.socket.destroy();
      delete process.env.LEAD_TRUSTED_PROXIES;
      delete process.env.LEAD_OUTBOX_PATH;
      await serving.close(0);
    }
  });
});
