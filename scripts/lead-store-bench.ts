// What accepting a lead and answering health cost with 10 and with 100,000 leads waiting, on
// SQLite and (with --postgres, a throwaway server from Debian's postgresql package, as the tests
// start) on PostgreSQL. Two stores of each engine, one holding 10 waiting leads and one 100,000,
// take turns (A B A B ...), so that the machine's drift touches both alike: the medians of 200
// accepts (one committed transaction each) and 200 health answers through the store and the
// health check the endpoint uses, and the median of the pairs' ratios. Then `claimsite serve`
// runs on each, and 20 rounds of 16 health checks at once are sent to it over HTTP: its peak
// memory (VmHWM) is read from /proc. The health check's own probe (the files checked, SQLite's
// quick_check, a write) is timed on its own, 20 times. Usage: npm run bench:leads -- [--postgres]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import type { Deliverer } from '../src/lead/delivery.js';
import { healthOf, StoreHealth } from '../src/lead/health.js';
import { openLeadStore } from '../src/lead/open-store.js';
import { claimSchema } from '../src/lead/schema.js';
import type { SqlLeadStore } from '../src/lead/sql-store.js';
import { firstWait } from '../src/lead/store.js';
import { startPostgres } from '../tests/lead/postgres.js';

const SIZES = [10, 100_000] as const;
const RUNS = 200;
const bin = path.resolve('bin/claimsite.cjs');

const lead = (i: number, tag: string) =>
  claimSchema.parse({
    form: 'questionnaire',
    submissionId: `bench-${tag}-${String(i).padStart(8, '0')}`,
    page: '/toronto/public-adjusters/',
    city: 'Toronto',
    claimType: 'residential',
    damageTypes: ['water'],
    estimatedValue: '100k_250k',
    hasStartedClaim: false,
    damageDescription: 'A burst pipe flooded the basement and the kitchen above it.',
    fullName: `Bench Person ${i}`,
    email: `bench${i}@example.ca`,
    phone: `416-555-${String(i % 10_000).padStart(4, '0')}`,
    address: `${i} King St W, Toronto, ON`,
    preferredContact: 'both',
  });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function fill(store: SqlLeadStore, size: number) {
  for (let done = 0; done < size; done += 10_000) {
    const batch = Math.min(10_000, size - done);
    await store.importLeads({
      waiting: Array.from({ length: batch }, (_, k) =>
        firstWait(lead(done + k, 'seed'), 'CRM down', {}, Date.now() - 3_600_000),
      ),
      dead: [],
      delivered: [],
    });
  }
}

/** `serve` on a store: its peak memory after 20 rounds of 16 health checks at once. */
async function serveMemory(env: Record<string, string>): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'claimsite-bench-site-'));
  const child = spawn(process.execPath, [bin, 'serve', '--dir', dir, '--port', '0'], {
    env: { ...process.env, GHL_TOKEN: '', ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  while (!/http:\/\/[\d.]+:\d+/.test(out)) await new Promise((r) => setTimeout(r, 20));
  const url = `${/http:\/\/[\d.]+:\d+/.exec(out)?.[0]}/api/health`;
  for (let round = 0; round < 20; round++)
    await Promise.all(Array.from({ length: 16 }, () => fetch(url).then((r) => r.arrayBuffer())));
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  child.kill();
  await rm(dir, { recursive: true, force: true });
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function bench(
  name: string,
  open: (size: number) => Promise<{ store: SqlLeadStore; env: Record<string, string> }>,
) {
  const stores = [];
  for (const size of SIZES) {
    const made = await open(size);
    const t0 = performance.now();
    await fill(made.store, size);
    console.error(
      `${name}: ${size} waiting leads written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const deliverer = {
      store: made.store,
      health: new StoreHealth(made.store),
      maxWaiting: 1_000_000,
    } as unknown as Deliverer;
    stores.push({ size, ...made, deliverer, accept: [] as number[], health: [] as number[] });
  }
  for (let i = 0; i < RUNS; i++)
    for (const s of stores) {
      const t = performance.now();
      await s.store.add(firstWait(lead(i, `add${s.size}`), 'CRM down'), { maxWaiting: 1_000_000 });
      s.accept.push(performance.now() - t);
    }
  for (let i = 0; i < RUNS; i++)
    for (const s of stores) {
      const t = performance.now();
      await healthOf(s.deliverer);
      s.health.push(performance.now() - t);
    }
  // The health check's own probe (issue 47): the files' identity, SQLite's quick_check on a
  // connection of its own, the store id, and the probe write; 20 of each, taking turns.
  const checks = new Map<number, number[]>(stores.map((s) => [s.size, []]));
  const stalls = new Map<number, number[]>(stores.map((s) => [s.size, []]));
  for (let i = 0; i < 20; i++)
    for (const s of stores) {
      if (!s.env.LEAD_OUTBOX_PATH) break;
      // A store makes its full check at most every 10 s: a new one each time, on the same file.
      const fresh = openLeadStore({ outboxPath: s.env.LEAD_OUTBOX_PATH }, () => {});
      await fresh.counts();
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      const t = performance.now();
      await fresh.check();
      checks.get(s.size)?.push(performance.now() - t);
      loop.disable();
      stalls.get(s.size)?.push(loop.max / 1e6);
      await fresh.close();
    }
  const [small, large] = stores as [(typeof stores)[0], (typeof stores)[0]];
  const ratio = (k: 'accept' | 'health') => median(large[k].map((x, i) => x / (small[k][i] ?? 1)));
  const lines = stores.map(
    (s) =>
      `${name.padEnd(10)} ${String(s.size).padStart(7)} waiting   accept ${median(s.accept).toFixed(2).padStart(6)} ms   health ${median(s.health).toFixed(3).padStart(6)} ms`,
  );
  lines.push(
    `${name.padEnd(10)} 100,000 / 10 waiting, median of the pairs' ratios: accept ${ratio('accept').toFixed(2)}, health ${ratio('health').toFixed(2)}`,
  );
  for (const s of stores)
    lines.push(
      `${name.padEnd(10)} ${String(s.size).padStart(7)} waiting   health check's full probe (quick_check on a thread, a write) ${median(checks.get(s.size) ?? []).toFixed(1)} ms, the event loop's longest stall meanwhile ${median(stalls.get(s.size) ?? []).toFixed(1)} ms (medians)`,
    );
  for (const s of stores) await s.store.close();
  for (const s of stores)
    lines.push(
      `${name.padEnd(10)} ${String(s.size).padStart(7)} waiting   serve's peak memory after 20 x 16 health checks at once: ${(await serveMemory(s.env)).toFixed(0)} MB`,
    );
  return lines;
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'claimsite-store-bench-'));
const lines = await bench('SQLite', async (size) => {
  const file = path.join(dir, `leads-${size}.db`);
  return { store: openLeadStore({ outboxPath: file }, () => {}), env: { LEAD_OUTBOX_PATH: file } };
});
if (process.argv.includes('--postgres')) {
  const server = await startPostgres();
  try {
    lines.push(
      ...(await bench('PostgreSQL', async (size) => {
        const admin = new pg.Client({ connectionString: server.url() });
        await admin.connect();
        await admin.query(`CREATE DATABASE leads_${size}`);
        await admin.end();
        const url = server.url(`leads_${size}`);
        return {
          store: openLeadStore({ outboxPath: '', storeUrl: url }, () => {}),
          env: { LEAD_STORE_URL: url },
        };
      })),
    );
  } finally {
    server.stop();
  }
}
await rm(dir, { recursive: true, force: true });
for (const l of lines) console.log(l);
