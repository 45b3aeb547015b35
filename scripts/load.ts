// The lead endpoint under a storm, as production runs it: `claimsite serve` in a process of its
// own (its store, its scheduled retries) behind a trusted proxy that forwards many visitors'
// addresses, and a local fake CRM that keeps GoHighLevel's contract (upsert, notes, rate limits,
// duplicates allowed, the riskiest setting) and fails a share of calls, drops a share of
// connections after it acted, and is down for a while at the start. Midway the disk holding the
// database fills for a few seconds (a tmpfs, when run as root), and later the server is killed
// outright (kill -9) and started again. A visitor told to try again (503, or no answer while the
// server is down) sends the same submission again a second later, for up to a minute, as the
// form lets them. Nobody runs `claimsite leads retry`. Then it counts sent, delivered, outboxed,
// dead-lettered, lost and duplicated; lost and duplicated must be 0.
// Usage: npm run load -- [N=400] [C=20] [failure share=0.25] [drop-after share=0.1]
//                        [CRM down for, seconds=60] [visitors=200] [disk full for, seconds=5]
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openLeadStore } from '../src/lead/open-store.js';
import { startFakeCrm } from '../tests/fake-crm.js';
import { type ServeProcess, startServe } from '../tests/lead/serve-process.js';

const [
  n = 400,
  concurrency = 20,
  failure = 0.25,
  dropAfter = 0.1,
  downSeconds = 60,
  visitors = 200,
  fullSeconds = 5,
] = process.argv.slice(2).map(Number);
const dir = await mkdtemp(path.join(os.tmpdir(), 'claimsite-load-'));
const volume = path.join(dir, 'volume');
await mkdir(volume);
// The database on a disk that can be filled: a small tmpfs of its own (root only).
const root = process.getuid?.() === 0;
if (root) {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m,mode=0700', 'tmpfs', volume]);
  // Unmounted however the run ends (an error, Ctrl-C).
  process.on('exit', () => {
    try {
      execFileSync('umount', ['-l', volume], { stdio: 'ignore' });
    } catch {
      // Unmounted already.
    }
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => process.exit(130));
}
const db = path.join(volume, 'outbox', 'leads.db');
const crm = await startFakeCrm({ api: 'v2', allowDuplicates: true });
crm.setFailureRate(failure);
crm.setDropAfterRate(dropAfter);
crm.down(downSeconds * 1000);
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const p = (probe.address() as { port: number }).port;
    probe.close(() => resolve(p));
  });
});
const env = {
  ...crm.env(),
  SITE_ORIGIN: 'https://www.claimright.ca',
  LEAD_OUTBOX_PATH: db,
  // The proxy in front is on loopback; every visitor keeps GoHighLevel's default limit.
  LEAD_TRUSTED_PROXIES: '127.0.0.1',
  // Each visitor may send again while the store is full or the server restarts.
  LEAD_RATE_LIMIT: '100',
  LEAD_RETRY_INTERVAL_MS: '5000',
};
const bin = path.resolve('bin/claimsite.cjs');
let server: ServeProcess = await startServe({ dir, env, port, pid1: root, bin });

const firstAnswers = new Map<number, number>();
const finalAnswers = new Map<number, number>();
const count = (m: Map<number, number>, k: number) => m.set(k, (m.get(k) ?? 0) + 1);
const accepted = new Set<string>();
const emailOf = new Map<string, string>();
const latencies: number[] = [];
let next = 0;
let retriedByVisitors = 0;
const events: string[] = [];
const started = performance.now();
const at = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

async function fillDisk() {
  if (!root) {
    events.push('disk not filled: run as root to mount a tmpfs');
    return;
  }
  const filler = path.join(volume, 'filler');
  await writeFile(filler, Buffer.alloc(128 * 1024 * 1024)).catch(() => {});
  events.push(`${at()} disk full`);
  await new Promise((r) => setTimeout(r, fullSeconds * 1000));
  await rm(filler);
  events.push(`${at()} disk has room again`);
}

async function restart() {
  await server.stop('SIGKILL');
  events.push(`${at()} server killed (kill -9)`);
  server = await startServe({ dir, env, port, pid1: root, bin });
  events.push(`${at()} server started again${root ? ' as PID 1' : ''}`);
}

async function send(i: number): Promise<void> {
  const body = {
    form: 'questionnaire',
    submissionId: `load-${String(i).padStart(8, '0')}-${Date.now()}`,
    page: '/toronto/public-adjusters/',
    city: 'Toronto',
    claimType: i % 2 ? 'commercial' : 'residential',
    damageTypes: ['water'],
    estimatedValue: '100k_250k',
    hasStartedClaim: false,
    damageDescription: `Load test submission ${i}`,
    fullName: `Load Tester ${i}`,
    email: `load${i}@example.ca`,
    phone: `416-555-${String(i).padStart(4, '0')}`,
    address: `${i} Queen St W, Toronto`,
    preferredContact: 'email',
  };
  const giveUp = Date.now() + 60_000;
  for (let attempt = 0; ; attempt++) {
    const t0 = performance.now();
    let status = 0;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/lead`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Origin: 'https://www.claimright.ca',
          'X-Forwarded-For': `198.51.100.${i % visitors}`,
        },
        body: JSON.stringify(body),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = -1;
    }
    if (attempt === 0) {
      latencies.push(performance.now() - t0);
      count(firstAnswers, status);
    }
    if (status === 200 || status === 202) {
      accepted.add(body.submissionId);
      emailOf.set(body.submissionId, body.email);
    }
    if ((status !== 503 && status !== -1) || Date.now() > giveUp) {
      count(finalAnswers, status);
      return;
    }
    retriedByVisitors++;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const faults: Promise<void>[] = [];
async function worker() {
  while (next < n) {
    const i = next++;
    if (i === Math.floor(n * 0.3)) faults.push(fillDisk());
    if (i === Math.floor(n * 0.6)) faults.push(restart());
    await send(i);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await Promise.all(faults);
const sendSeconds = (performance.now() - started) / 1000;

// Nobody runs leads retry: the server's own schedule drains the store once the CRM is back.
const store = openLeadStore({ outboxPath: db }, () => {});
const deadline = Date.now() + downSeconds * 1000 + 10 * 60_000;
while ((await store.counts()).waiting > 0 && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 1000));
const drainedSeconds = (performance.now() - started) / 1000;

const { waiting, dead } = await store.counts();
const statuses = new Map(
  await Promise.all([...accepted].map(async (id) => [id, await store.status(id)] as const)),
);
await store.close();
const emails = new Set([...crm.contacts.values()].map((c) => c.email));
// Accepted, and neither in the CRM nor a dead letter the owner was told of.
const lost = [...accepted].filter(
  (id) => !emails.has(emailOf.get(id)) && statuses.get(id) !== 'dead',
).length;
const duplicated = crm.duplicates() + crm.duplicateNotes();
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(0);
const answers = (m: Map<number, number>) =>
  [...m]
    .sort(([a], [b]) => a - b)
    .map(([s, c]) => `${s === -1 ? 'no answer' : s}×${c}`)
    .join(', ');
console.log(
  `${n} submissions at concurrency ${concurrency} from ${visitors} visitors behind one trusted proxy; the CRM fails ${failure * 100}% of calls, drops ${dropAfter * 100}% of connections after acting, and is down for the first ${downSeconds} s; the disk fills for ${fullSeconds} s at 30% and the server is killed and restarted at 60%`,
);
for (const e of events) console.log(`  ${e}`);
console.log(`sent          ${n}   (first answers: ${answers(firstAnswers)})`);
console.log(
  `              ${retriedByVisitors} tries again by visitors told to retry; final answers: ${answers(finalAnswers)}`,
);
console.log(`accepted      ${accepted.size}`);
console.log(
  `delivered     ${emails.size}   (${firstAnswers.get(200) ?? 0} at once, the rest from the store)`,
);
console.log(`outboxed      ${firstAnswers.get(202) ?? 0}   (still waiting at the end: ${waiting})`);
console.log(`dead-lettered ${dead}`);
console.log(`lost          ${lost}`);
console.log(
  `duplicated    ${duplicated}   (contacts ${crm.duplicates()}, notes ${crm.duplicateNotes()})`,
);
console.log(
  `time          ${sendSeconds.toFixed(1)} s to send (first answers: median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, slowest ${pct(1)} ms); store empty after ${drainedSeconds.toFixed(0)} s`,
);
await server.stop();
await crm.close();
if (root) execFileSync('umount', ['-l', volume]);
await rm(dir, { recursive: true, force: true });
const refused = [...finalAnswers].filter(([s]) => s !== 200 && s !== 202).length;
if (lost !== 0 || duplicated !== 0 || waiting !== 0 || refused) process.exitCode = 1;
