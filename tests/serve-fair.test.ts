import { writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { startServe } from './lead/serve-process.js';

/**
 * One client may not shut out the others (issue 47, point 4): Linux routes all of 127/8 to the
 * loopback, so a second address (127.0.0.2) is another visitor of the same server.
 */
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A page's GET from `from`, on a connection of its own: its time, or the error it met. */
function probe(url: string, from: string): Promise<{ ms: number; status: number | string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(`${url}/`, { localAddress: from, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0 }));
    });
    req.setTimeout(5000, () => req.destroy(new Error('no answer in 5 s')));
    req.on('error', (err) => resolve({ ms: performance.now() - t0, status: err.message }));
    req.end();
  });
}

/** `n` idle connections from `from`, each opened again 2 s after the server closes it. */
function hold(url: string, from: string, n: number): { stop(): void; open(): number } {
  const { hostname, port } = new URL(url);
  const sockets = new Set<Socket>();
  let stopped = false;
  const one = () => {
    if (stopped) return;
    const s = connect({ host: hostname, port: Number(port), localAddress: from });
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => {
      sockets.delete(s);
      setTimeout(one, 2000);
    });
  };
  for (let i = 0; i < n; i++) one();
  return {
    open: () => [...sockets].filter((s) => !s.connecting && !s.destroyed).length,
    stop: () => {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

describe('fair connections', () => {
  it("answers another address's page within 1 s while one address holds 1,000 idle sockets", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Home</title><p>Home</p>');
    const s = await startServe({
      dir,
      env: { LEAD_OUTBOX_PATH: path.join(await tempDir(), 'leads.db'), GHL_TOKEN: '' },
    });
    cleanup.push(() => s.stop());
    const greedy = hold(s.url, '127.0.0.1', 1000);
    cleanup.push(() => greedy.stop());
    // Every socket opened, and the server's answer to them given (kept or closed).
    await new Promise((r) => setTimeout(r, 1500));
    const probes = [];
    for (let i = 0; i < 20; i++) {
      probes.push(await probe(s.url, '127.0.0.2'));
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(probes.filter((p) => p.status !== 200 || p.ms > 1000)).toEqual([]);
    // The greedy address keeps its share, and no more.
    expect(greedy.open()).toBeGreaterThan(0);
  }, 60_000);
});
