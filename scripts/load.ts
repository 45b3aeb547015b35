// The lead endpoint under a storm, as production runs it: the real Node server (`serve`'s own
// service, with its store and its scheduled retries) behind a trusted proxy that forwards many
// visitors' addresses, and a local fake CRM that keeps GoHighLevel's contract (upsert, notes,
// rate limits, duplicates allowed, the riskiest setting) and fails a share of calls, drops a
// share of connections after it acted, and is down for a while at the start. Nobody runs
// `claimsite leads retry`: the server drains its own outbox once the CRM is back. Then it counts
// sent, delivered, outboxed, dead-lettered, lost and duplicated; lost and duplicated must be 0.
// Usage: npm run load -- [N=400] [C=20] [failure share=0.25] [drop-after share=0.1]
//                        [CRM down for, seconds=60] [visitors=200]
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openLeadStore } from '../src/lead/open-store.js';
import { startServer } from '../src/serve/server.js';
import { startFakeCrm } from '../tests/fake-crm.js';

const [
  n = 400,
  concurrency = 20,
  failure = 0.25,
  dropAfter = 0.1,
  downSeconds = 60,
  visitors = 200,
] = process.argv.slice(2).map(Number);
const dir = await mkdtemp(path.join(os.tmpdir(), 'claimsite-load-'));
const crm = await startFakeCrm({ api: 'v2', allowDuplicates: true });
crm.setFailureRate(failure);
crm.setDropAfterRate(dropAfter);
crm.down(downSeconds * 1000);
const outbox = path.join(dir, 'outbox', 'leads.db');
Object.assign(process.env, crm.env(), {
  SITE_ORIGIN: 'https://www.claimright.ca',
  LEAD_OUTBOX_PATH: outbox,
  // The proxy in front is on loopback; every visitor keeps GoHighLevel's default limit.
  LEAD_TRUSTED_PROXIES: '127.0.0.1',
  LEAD_RETRY_INTERVAL_MS: '5000',
});
const logged = new Map<string, number>();
const { server, url } = await startServer({
  dir,
  port: 0,
  host: '127.0.0.1',
  log: (e) => logged.set(e, (logged.get(e) ?? 0) + 1),
});
const store = openLeadStore({ outboxPath: outbox }, () => {});

const statuses = new Map<number, number>();
const latencies: number[] = [];
let next = 0;
const started = performance.now();
async function worker() {
  while (next < n) {
    const i = next++;
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
    const t0 = performance.now();
    let status = 0;
    try {
      const res = await fetch(`${url}/api/lead`, {
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
    latencies.push(performance.now() - t0);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const sendSeconds = (performance.now() - started) / 1000;
const atOnce = statuses.get(200) ?? 0;
const outboxed = statuses.get(202) ?? 0;

// Nobody runs leads retry: the server's own schedule drains the outbox once the CRM is back.
const deadline = Date.now() + downSeconds * 1000 + 10 * 60_000;
while ((await store.waiting()).length > 0 && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 1000));
const drainedSeconds = (performance.now() - started) / 1000;

const dead = (await store.dead()).length;
const waiting = (await store.waiting()).length;
const emails = new Set([...crm.contacts.values()].map((c) => c.email));
const accepted = atOnce + outboxed;
const lost = accepted - emails.size - dead;
const duplicated = crm.duplicates() + crm.duplicateNotes();
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(0);
console.log(
  `${n} submissions at concurrency ${concurrency} from ${visitors} visitors behind one trusted proxy; the CRM fails ${failure * 100}% of calls, drops ${dropAfter * 100}% of connections after acting, and is down for the first ${downSeconds} s`,
);
console.log(
  `sent          ${n}   (answers: ${[...statuses].map(([s, c]) => `${s}×${c}`).join(', ')})`,
);
console.log(`delivered     ${emails.size}   (${atOnce} at once, the rest from the outbox)`);
console.log(`outboxed      ${outboxed}   (still waiting at the end: ${waiting})`);
console.log(`dead-lettered ${dead}`);
console.log(`lost          ${lost}`);
console.log(
  `duplicated    ${duplicated}   (contacts ${crm.duplicates()}, notes ${crm.duplicateNotes()})`,
);
console.log(
  `time          ${sendSeconds.toFixed(1)} s to send (answers: median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, slowest ${pct(1)} ms); outbox empty after ${drainedSeconds.toFixed(0)} s`,
);
server.close();
await crm.close();
if (lost !== 0 || duplicated !== 0 || waiting !== 0 || statuses.get(-1)) process.exitCode = 1;
