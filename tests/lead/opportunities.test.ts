import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAlerts } from '../../src/lead/alerts.js';
import { configFromEnv } from '../../src/lead/config.js';
import { createCrmClient, DEFAULT_RETRY, RateGate, type RetryPolicy } from '../../src/lead/crm.js';
import { type Deliverer, deliverOrKeep, drain } from '../../src/lead/delivery.js';
import { StoreHealth } from '../../src/lead/health.js';
import { openLeadStore } from '../../src/lead/open-store.js';
import { claimSchema, messageSchema } from '../../src/lead/schema.js';
import type { LeadStore } from '../../src/lead/store.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { FIXTURE_DATA, runCli, tempDir } from '../helpers.js';
import { LEAD_FIELDS, sampleClaim } from './sample.js';
import { readStore, startServe } from './serve-process.js';

/**
 * Each submission an event the operator can act on: one opportunity in the configured pipeline
 * and stage, with its value, and one enrolment in the speed-to-lead workflow, against the fake
 * GoHighLevel's opportunities and workflow endpoints (apps/opportunities.json, apps/contacts.json).
 */
const fast: RetryPolicy = { ...DEFAULT_RETRY, baseMs: 20, maxDelayMs: 100, requestTimeoutMs: 1000 };
const soon = (ms = 5000) => ({ deadline: Date.now() + ms });
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function crmOf(options: Partial<Parameters<typeof startFakeCrm>[0]> = {}): Promise<FakeCrm> {
  const crm = await startFakeCrm({
    api: 'v2',
    fields: [...LEAD_FIELDS, { name: 'lead_source', model: 'opportunity' }],
    ...options,
  });
  cleanup.push(() => crm.close());
  return crm;
}

const clientOf = (crm: FakeCrm, env: Record<string, string> = {}) => {
  const logs: string[] = [];
  const config = configFromEnv({ ...crm.env(), ...crm.pipelineEnv(), ...env });
  return {
    logs,
    config,
    c: createCrmClient(config, (e) => logs.push(e), fast, new RateGate()),
  };
};

const claim = (over = {}) => claimSchema.parse(sampleClaim(over));

describe('each lead an opportunity', () => {
  it('makes one in the pipeline and stage, open, with the value of its loss range and its source', async () => {
    const crm = await crmOf();
    const { c } = clientOf(crm);
    const l = claim({ attribution: { utm_source: 'google', utm_medium: 'cpc', gclid: 'Cj0' } });
    await c.deliver(l, soon());
    expect(crm.opportunities).toHaveLength(1);
    const [o] = crm.opportunities;
    expect(o).toMatchObject({
      pipelineId: 'pl_claims',
      pipelineStageId: 'st_new',
      status: 'open',
      contactId: 'c1',
      // The default table: 10% of $175,000, the middle of $100,000-$250,000.
      monetaryValue: 17_500,
      name: `Marie-Claire van der Berg · Residential: Water, Storm, $100,000 - $250,000 · ${l.submissionId}`,
    });
    expect(o && crm.opportunityFieldsOf(o)).toEqual({ lead_source: 'google / cpc' });
    // Looked up by the submission first, then made.
    expect(
      crm.calls.filter((x) => x.path.startsWith('/opportunities')).map((x) => x.method),
    ).toEqual(['GET', 'POST']);
  });

  it('takes its value from LEAD_VALUES, and a message none', async () => {
    const crm = await crmOf();
    const { c } = clientOf(crm, { LEAD_VALUES: JSON.stringify({ '100k_250k': 4000 }) });
    await c.deliver(claim(), soon());
    await c.deliver(
      messageSchema.parse({
        form: 'contact',
        submissionId: crypto.randomUUID(),
        page: '/contact/',
        fullName: 'Marie-Claire van der Berg',
        email: 'marie@example.ca',
        message: 'A question about my file',
      }),
      soon(),
    );
    expect(crm.opportunities.map((o) => o.monetaryValue)).toEqual([4000, undefined]);
    expect(crm.opportunities[1]?.name).toContain('Website message');
  });

  it('is made once per submission whatever the CRM does: answers lost, failures, a second try', async () => {
    const crm = await crmOf();
    const { c } = clientOf(crm);
    // The search fails, then the create acts and its answer is lost, then fails outright.
    crm.fail('opportunity', { status: 503 }, { pass: true }, { drop: 'after' }, { status: 502 });
    const l = claim();
    await c.deliver(l, soon());
    // The same submission delivered again from the start (a second server, a visitor's retry).
    await c.deliver(l, soon());
    expect(crm.opportunities).toHaveLength(1);
    expect(crm.duplicateOpportunities()).toBe(0);
    expect(crm.opportunities[0]?.monetaryValue).toBe(17_500);
  });

  it('makes one for each submission of a returning contact, and enrols it in the workflow each time', async () => {
    const crm = await crmOf();
    const { c } = clientOf(crm);
    await c.deliver(claim(), soon());
    await c.deliver(claim({ damageTypes: ['fire'], estimatedValue: '500k_1m' }), soon());
    expect(crm.contacts.size).toBe(1);
    expect(crm.opportunities.map((o) => [o.contactId, o.monetaryValue])).toEqual([
      ['c1', 17_500],
      ['c1', 75_000],
    ]);
    expect(crm.enrolments.map((e) => `${e.contactId} ${e.workflowId}`)).toEqual([
      'c1 wf_speed',
      'c1 wf_speed',
    ]);
    // The enrolment comes before the note: the note, last, says the submission is complete.
    const order = crm.calls.slice(-4).map((x) => `${x.method} ${x.path.split('?')[0]}`);
    expect(order).toEqual([
      'GET /opportunities/search',
      'POST /opportunities/',
      'POST /contacts/c1/workflow/wf_speed',
      'POST /contacts/c1/notes',
    ]);
  });

  it('delivers the lead without them when the CRM refuses them for good, and the note says so', async () => {
    const crm = await crmOf({
      scopes: ['contacts.write', 'contacts.readonly', 'locations/customFields.readonly'],
    });
    const { c } = clientOf(crm, { GHL_WORKFLOW_ID: 'wf_gone' });
    expect(await c.deliver(claim(), soon())).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.opportunities).toHaveLength(0);
    const note = crm.notes[0]?.body ?? '';
    expect(note).toContain(
      'Opportunity refused by the CRM: HTTP 401: The token is not authorized for this scope.',
    );
    expect(note).toContain('Workflow enrolment refused by the CRM: HTTP 400: Workflow not found');
  });
});

describe('across retries from the store', () => {
  let store: LeadStore;
  const deliverer = (crm: FakeCrm): Deliverer => {
    const config = configFromEnv({ ...crm.env(), ...crm.pipelineEnv() });
    return {
      store,
      crm: createCrmClient(config, () => {}, fast, new RateGate()),
      alert: createAlerts(undefined, store, () => {}),
      log: () => {},
      health: new StoreHealth(store),
      retryIntervalMs: 10,
      alertAfterMs: 60_000,
      maxWaiting: 100,
      deadLetterDays: 30,
    };
  };

  it('keeps what was made: a lead whose note fails after its enrolment is not enrolled again', async () => {
    const crm = await crmOf();
    store = openLeadStore({ outboxPath: path.join(await tempDir(), 'leads.db') }, () => {});
    cleanup.push(() => store.close());
    const d = deliverer(crm);
    crm.fail('note', ...Array.from({ length: DEFAULT_RETRY.attempts }, () => ({ status: 503 })));
    const l = claim();
    expect(await deliverOrKeep(d, l, Date.now() + 3000)).toBe('queued');
    const [kept] = await store.waiting();
    expect(kept).toMatchObject({ contactId: 'c1', enrolled: true, opportunityId: 'op1' });
    // The next attempt, from the store.
    await new Promise((r) => setTimeout(r, 50));
    const r = await drain(d, { all: true });
    expect(r.delivered).toBe(1);
    expect(crm.enrolments).toHaveLength(1);
    expect(crm.opportunities).toHaveLength(1);
    expect(crm.notes).toHaveLength(1);
  });
});

describe('a kill in the middle of a delivery', () => {
  it('leaves one opportunity, made by the CRM after the kill and found by the restarted server', async () => {
    const crm = await crmOf();
    const dist = path.join(await tempDir(), 'dist');
    expect(runCli(['generate', '--data', FIXTURE_DATA, '--out', dist, '--quiet']).code).toBe(0);
    const db = path.join(await tempDir(), 'leads.db');
    const env = {
      ...crm.env(),
      ...crm.pipelineEnv(),
      LEAD_OUTBOX_PATH: db,
      LEAD_RETRY_INTERVAL_MS: '200',
    };
    // The search answers; the create takes 3 s, and the server is killed meanwhile.
    crm.fail('opportunity', { pass: true }, { stallMs: 3000 });
    const first = await startServe({ dir: dist, env });
    cleanup.push(() => first.stop('SIGKILL'));
    const lead = sampleClaim();
    const posted = first.post(lead).catch(() => null);
    const until = async (check: () => boolean | Promise<boolean>, ms: number) => {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('timed out waiting');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(
      () => crm.calls.some((x) => x.method === 'GET' && x.path.startsWith('/opportunities/search')),
      10_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    await first.stop('SIGKILL');
    await posted;
    await until(() => crm.opportunities.length === 1, 10_000);
    const second = await startServe({ dir: dist, env });
    cleanup.push(() => second.stop());
    await until(
      () => readStore(db, async (s) => (await s.status(lead.submissionId)) === 'delivered'),
      40_000,
    );
    expect(crm.opportunities).toHaveLength(1);
    expect(crm.enrolments).toHaveLength(1);
    expect(crm.notes).toHaveLength(1);
    expect(crm.opportunities[0]?.monetaryValue).toBe(17_500);
  }, 90_000);
});
