// The lead endpoint under load, with the CRM failing a share of calls. Sends N submissions at
// concurrency C to the real Node server, then drains the outbox as `claimsite leads retry`
// does, and counts: sent, delivered, outboxed, lost. Lost must be 0.
// Usage: npm run load -- [N=400] [C=20] [failure share=0.3]
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configFromEnv } from '../src/lead/config.js';
import { createCrmClient } from '../src/lead/crm.js';
import { createLeadHandler } from '../src/lead/handler.js';
import { Outbox } from '../src/lead/outbox.js';
import { startServer } from '../src/serve/server.js';
import { startFakeCrm } from '../tests/fake-crm.js';

const [n = 400, concurrency = 20, failure = 0.3] = process.argv.slice(2).map(Number);
const dir = await mkdtemp(path.join(os.tmpdir(), 'claimsite-load-'));
const crm = await startFakeCrm({ api: 'v2' });
crm.setFailureRate(failure);
const config = configFromEnv({
  ...crm.env(),
  LEAD_OUTBOX_PATH: path.join(dir, 'leads.jsonl'),
  LEAD_RATE_LIMIT: '1000000',
});
const outbox = new Outbox(config.outboxPath);
const { server, url } = await startServer({
  dir,
  port: 0,
  host: '127.0.0.1',
  leadHandler: createLeadHandler({
    config,
    outbox,
    log: (e, f) => {
      if (e === 'lead failed') console.error(e, f);
    },
  }),
});

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
      phone: '416-555-0100',
      address: `${i} Queen St W, Toronto`,
      preferredContact: 'email',
    };
    const t0 = performance.now();
    let status = 0;
    try {
      const res = await fetch(`${url}/api/lead`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
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
const outboxed = (await outbox.list()).length;
const deliveredDirect = crm.contacts.size;

crm.setFailureRate(0);
const client = createCrmClient(config, () => {});
const drained = await outbox.drain(async (lead) => (await client.deliver(lead)).contactId);

const emails = new Set([...crm.contacts.values()].map((c) => c.email));
const lost = n - emails.size;
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(0);
console.log(`CRM failure share ${failure}, ${n} submissions at concurrency ${concurrency}`);
console.log(
  `sent        ${n}   (answers: ${[...statuses].map(([s, c]) => `${s}×${c}`).join(', ')})`,
);
console.log(
  `delivered   ${deliveredDirect} at once, ${drained.delivered} from the outbox afterwards`,
);
console.log(`outboxed    ${outboxed}   (still waiting after the retry: ${drained.kept})`);
console.log(`duplicates  ${crm.contacts.size - emails.size}`);
console.log(`lost        ${lost}`);
console.log(
  `time        ${sendSeconds.toFixed(1)} s to send; latency median ${pct(0.5)} ms, p95 ${pct(0.95)} ms`,
);
server.close();
await crm.close();
if (lost !== 0 || statuses.get(-1)) process.exitCode = 1;
