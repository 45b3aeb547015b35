import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOT_DELIVERED } from '../../src/lead/health.js';
import { startFakeCrm } from '../fake-crm.js';
import { FIXTURE_DATA, runCli, tempDir } from '../helpers.js';
import { formOf, sampleClaim } from './sample.js';
import { ORIGIN, readStore, type ServeProcess, startServe } from './serve-process.js';

/**
 * The faults an operator and an attacker meet, tried for real against `claimsite serve` in a
 * process of its own: the disk filling (a small tmpfs; these tests run as root, as CI does), a
 * kill -9 and a restart as PID 1 (as in a container without an init), many posters at once on
 * two servers sharing one database, the store at its cap, and what an older version left.
 */
let dist: string;
const cleanup: Array<() => unknown> = [];
beforeAll(async () => {
  dist = path.join(await tempDir(), 'dist');
  expect(runCli(['generate', '--data', FIXTURE_DATA, '--out', dist, '--quiet']).code).toBe(0);
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function serve(options: Parameters<typeof startServe>[0]): Promise<ServeProcess> {
  const s = await startServe(options);
  cleanup.push(() => s.stop('SIGKILL'));
  return s;
}

let people = 0;
const person = (over = {}) => {
  people++;
  return sampleClaim({
    email: `fault${people}@example.ca`,
    phone: `416-555-${String(people % 10_000).padStart(4, '0')}`,
    ...over,
  });
};

const health = async (s: ServeProcess) => {
  const res = await fetch(`${s.url}/api/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const until = async <T>(check: () => Promise<T | false>, ms: number): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const r = await check();
    if (r !== false) return r;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((res) => setTimeout(res, 100));
  }
};

describe('a full disk', () => {
  it('acknowledges only what it kept, gives the visitor the phone number, and takes leads again by itself once there is room', async () => {
    const mount = path.join(await tempDir(), 'volume');
    await mkdir(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', mount]);
    cleanup.push(() => execFileSync('umount', ['-l', mount]));
    const db = path.join(mount, 'outbox', 'leads.db');
    const s = await serve({ dir: dist, env: { GHL_TOKEN: '', LEAD_OUTBOX_PATH: db } });
    const acknowledged = new Set<string>();
    const send = async (claim: ReturnType<typeof person>, asForm = false) => {
      const res = asForm
        ? await s.post(formOf(claim).toString(), {
            'Content-Type': 'application/x-www-form-urlencoded',
          })
        : await s.post(claim);
      if (res.status === 202 || (asForm && res.headers.get('location')?.includes('/confirmation/')))
        acknowledged.add(claim.submissionId);
      return res;
    };
    for (let i = 0; i < 20; i++) expect((await send(person())).status).toBe(202);

    // The disk fills: what is left of it goes to a file of someone else's.
    await writeFile(path.join(mount, 'filler'), Buffer.alloc(8 * 1024 * 1024)).catch(() => {});
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        send(person({ damageDescription: 'x'.repeat(4000) }), i % 2 === 1),
      ),
    );
    const refused = answers.filter((r) => r.status === 503);
    const toErrorPage = answers.filter(
      (r) => r.headers.get('location') === `${ORIGIN}/form-error/?status=503`,
    );
    expect(refused.length + toErrorPage.length).toBeGreaterThan(0);
    for (const r of refused)
      expect(await r.json()).toEqual({ ok: false, error: 'could not store the submission' });
    // The page a refused form lands on names the phone number (the script says the same).
    const errorPage = await (await fetch(`${s.url}/form-error/`)).text();
    expect(errorPage).toContain('tel:+18883399809');
    expect(await health(s)).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: 'the lead store cannot keep a lead now' },
    });

    // Room again: nothing is restarted, and leads are taken.
    await rm(path.join(mount, 'filler'));
    const first = Date.now();
    await until(async () => (await send(person())).status === 202 || false, 10_000);
    expect(Date.now() - first).toBeLessThan(5000);
    await until(async () => (await health(s)).status === 200 || false, 5000);

    // Every acknowledged lead is there, read after the server was killed outright.
    await s.stop('SIGKILL');
    const kept = await readStore(
      db,
      async (store) => new Set((await store.waiting()).map((e) => e.submissionId)),
    );
    expect([...acknowledged].filter((id) => !kept.has(id))).toEqual([]);
    expect(kept.size).toBe(acknowledged.size);
  }, 60_000);
});

describe('a kill -9 during a burst, then a restart as PID 1', () => {
  it('keeps every acknowledged lead, takes the first new one within seconds, and delivers each once', async () => {
    const crm = await startFakeCrm({ api: 'v2', burstLimit: 100_000 });
    cleanup.push(() => crm.close());
    const db = path.join(await tempDir(), 'volume', 'leads.db');
    const env = { ...crm.env(), LEAD_OUTBOX_PATH: db, LEAD_RETRY_INTERVAL_MS: '500' };
    const acknowledged = new Set<string>();
    // 16 posters until the server is killed outright, mid-write.
    const burst = async (s: ServeProcess, atLeast: number) => {
      let killed = false;
      const poster = async () => {
        while (!killed) {
          const claim = person();
          const res = await s.post(claim).catch(() => null);
          if (res && (res.status === 200 || res.status === 202))
            acknowledged.add(claim.submissionId);
        }
      };
      const posters = Array.from({ length: 16 }, poster);
      const before = acknowledged.size;
      await until(async () => acknowledged.size >= before + atLeast || false, 30_000);
      await s.stop('SIGKILL');
      killed = true;
      await Promise.all(posters);
    };
    const restart = async (over: Record<string, string> = {}) => {
      const started = Date.now();
      const s = await serve({ dir: dist, env: { ...env, ...over }, pid1: true });
      const first = person();
      await until(async () => {
        const status = (await s.post(first).catch(() => null))?.status;
        return status === 200 || status === 202 || false;
      }, 20_000);
      acknowledged.add(first.submissionId);
      return { s, firstAcceptedMs: Date.now() - started };
    };

    // Without a token every lead is written as it comes: the kill lands mid-write.
    const s = await serve({ dir: dist, env: { ...env, GHL_TOKEN: '' }, pid1: true });
    // node is PID 1 in its namespace, as in a container started without an init.
    const nsPid = (pid: number) =>
      execFileSync('grep', ['^NSpid:', `/proc/${pid}/status`], { encoding: 'utf8' });
    expect(nsPid(s.nodePid()).trim().split(/\s+/).at(-1)).toBe('1');
    await burst(s, 40);
    // With the CRM: the kill cuts first deliveries short.
    const second = await restart();
    expect(second.firstAcceptedMs).toBeLessThan(5000);
    await burst(second.s, 40);
    const third = await restart();
    expect(third.firstAcceptedMs).toBeLessThan(5000);

    // What waited, and what the kill cut short, is delivered by the restarted server, once.
    await until(
      () => readStore(db, async (store) => (await store.counts()).waiting === 0 || false),
      60_000,
    );
    const statuses = await readStore(db, (store) =>
      Promise.all([...acknowledged].map((id) => store.status(id))),
    );
    expect(statuses.filter((st) => st !== 'delivered')).toEqual([]);
    expect(crm.duplicateNotes()).toBe(0);
  }, 150_000);

  it('completes a delivery a kill cut short in a drain without a second note', async () => {
    const crm = await startFakeCrm({ api: 'v2' });
    cleanup.push(() => crm.close());
    const db = path.join(await tempDir(), 'leads.db');
    const env = { ...crm.env(), LEAD_OUTBOX_PATH: db, LEAD_RETRY_INTERVAL_MS: '200' };
    const first = await serve({ dir: dist, env: { ...env, GHL_TOKEN: '' } });
    const claim = person();
    expect((await first.post(claim)).status).toBe(202);
    await first.stop();
    // The next server's drain sends the contact, then the note, which the CRM takes 3 s over
    // and then adds: the server is killed in between.
    crm.fail('note', { stallMs: 3000 });
    const second = await serve({ dir: dist, env, pid1: true });
    await until(async () => crm.contacts.size === 1 || false, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    await second.stop('SIGKILL');
    await until(async () => crm.notes.length === 1 || false, 10_000);
    await serve({ dir: dist, env, pid1: true });
    await until(
      () =>
        readStore(
          db,
          async (store) => (await store.status(claim.submissionId)) === 'delivered' || false,
        ),
      60_000,
    );
    expect(crm.notes).toHaveLength(1);
    expect(crm.contacts.size).toBe(1);
  }, 90_000);

  it('takes no notice of the lock files an older version left, one naming PID 1 among them', async () => {
    const dir = path.join(await tempDir(), 'outbox');
    await mkdir(dir);
    // Left by a container killed as PID 1, and by a full disk between creating a lock and
    // writing its pid: the old store refused every lead for good after either.
    await writeFile(path.join(dir, 'leads.jsonl.lock'), '1');
    await writeFile(path.join(dir, 'leads.jsonl.drain.lock'), '');
    // The setting of the older version's Docker image, kept by the owner.
    const outbox = path.join(dir, 'leads.jsonl');
    const s = await serve({
      dir: dist,
      env: { GHL_TOKEN: '', LEAD_OUTBOX_PATH: outbox },
      pid1: true,
    });
    const t0 = Date.now();
    expect((await s.post(person())).status).toBe(202);
    expect(Date.now() - t0).toBeLessThan(2000);
    // With no token, the owner is told at the start and by the health check.
    expect(s.stderr()).toContain(
      'Warning: GHL_TOKEN is not set: leads are kept, but not delivered to the CRM',
    );
    expect(await health(s)).toEqual({
      status: 200,
      body: { status: 'ok', outbox: { waiting: 1 }, delivery: NOT_DELIVERED },
    });
    // Nothing of the owner's is deleted: the old files stay as they were.
    expect(await readFile(path.join(dir, 'leads.jsonl.lock'), 'utf8')).toBe('1');
  });
});

describe('many posters at once', () => {
  it('takes 1,000 leads from 32 posters on two servers sharing one database with 5,000 waiting, refusing none', async () => {
    // The CRM refuses the token: each lead is kept at once, and both servers drain all along.
    const crm = await startFakeCrm({ api: 'v2', token: 'pit-right', burstLimit: 100_000 });
    cleanup.push(() => crm.close());
    // 5,000 leads wait already (an older version's outbox, imported at the first start).
    const dir = await tempDir();
    const t0 = Date.now() - 3_600_000;
    const waiting = Array.from({ length: 5000 }, (_, i) => {
      const lead = person();
      const receivedAt = new Date(t0 + i).toISOString();
      return JSON.stringify({
        submissionId: lead.submissionId,
        receivedAt,
        lead,
        attempts: 0,
        nextAttemptAt: receivedAt,
        reason: 'CRM down',
      });
    });
    await writeFile(path.join(dir, 'leads.jsonl'), `${waiting.join('\n')}\n`);
    const db = path.join(dir, 'leads.db');
    const env = {
      ...crm.env(),
      GHL_TOKEN: 'pit-revoked',
      LEAD_OUTBOX_PATH: path.join(dir, 'leads.jsonl'),
      LEAD_RETRY_INTERVAL_MS: '100',
    };
    const servers = [await serve({ dir: dist, env }), await serve({ dir: dist, env })];
    const statuses = new Map<number, number>();
    const times: number[] = [];
    let next = 0;
    const poster = async () => {
      while (next < 1000) {
        const i = next++;
        const t0 = performance.now();
        const res = await (servers[i % 2] as ServeProcess).post(person());
        await res.arrayBuffer();
        times.push(performance.now() - t0);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 32 }, poster));
    expect(Object.fromEntries(statuses)).toEqual({ 202: 1000 });
    times.sort((a, b) => a - b);
    expect(times[Math.floor(times.length * 0.95)]).toBeLessThan(8000);
    expect(await readStore(db, (store) => store.counts())).toEqual({ waiting: 6000, dead: 0 });
  }, 120_000);
});

describe('the cap on waiting leads', () => {
  it('tells the owner before it refuses, then refuses with the phone number and says so in health', async () => {
    const alerts: string[] = [];
    const hook: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      alerts.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).text);
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => hook.close(r)));
    const db = path.join(await tempDir(), 'leads.db');
    const s = await serve({
      dir: dist,
      env: {
        GHL_TOKEN: '',
        LEAD_OUTBOX_PATH: db,
        LEAD_MAX_WAITING: '5',
        LEAD_RETRY_INTERVAL_MS: '200',
        LEAD_ALERT_WEBHOOK: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
      },
    });
    for (let i = 0; i < 4; i++) expect((await s.post(person())).status).toBe(202);
    // Four of five: the owner hears of it while leads are still taken.
    await until(async () => alerts.some((a) => a.includes('4 leads wait')) || false, 5000);
    expect((await s.post(person())).status).toBe(202);
    const refused = await s.post(person());
    expect(refused.status).toBe(503);
    expect(await health(s)).toEqual({
      status: 503,
      body: {
        status: 'unavailable',
        reason: '5 leads wait, the most LEAD_MAX_WAITING allows',
        outbox: { waiting: 5 },
      },
    });
    const [oldest] = await readStore(db, (store) => store.waiting({ limit: 1 }));
    expect(
      runCli(['leads', 'drop', oldest?.submissionId ?? '', '--yes', '--outbox', db]).code,
    ).toBe(0);
    expect((await s.post(person())).status).toBe(202);
  });
});
