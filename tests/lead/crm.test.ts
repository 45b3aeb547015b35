import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/lead/config.js';
import {
  createCrmClient,
  DEFAULT_RETRY,
  type DeliveryError,
  RateGate,
  type RetryPolicy,
} from '../../src/lead/crm.js';
import { claimSchema } from '../../src/lead/schema.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { sampleClaim } from './sample.js';

const fast: RetryPolicy = { ...DEFAULT_RETRY, baseMs: 20, maxDelayMs: 100, requestTimeoutMs: 1000 };
/** Five seconds from now: the time a delivery may take in these tests. */
const soon = (ms = 5000) => ({ deadline: Date.now() + ms });
let crm: FakeCrm;
afterEach(() => crm?.close());

function client(policy = fast, extraEnv: Record<string, string> = {}) {
  const logs: Array<[string, Record<string, unknown>]> = [];
  const config = configFromEnv({ ...crm.env(), ...extraEnv });
  return {
    logs,
    c: createCrmClient(config, (e, f = {}) => logs.push([e, f]), policy, new RateGate()),
  };
}

const lead = () => claimSchema.parse(sampleClaim());

describe('GoHighLevel API v2 (the default)', () => {
  it('creates the contact with the exact SPEC §7 payload, then its note', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const { c } = client();
    const l = lead();
    const r = await c.deliver(l, soon());
    expect(r).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.contacts.get('c1')).toEqual({
      locationId: 'loc_test_123',
      email: 'marie@example.ca',
      phone: '416-555-0199',
      firstName: 'Marie-Claire',
      lastName: 'van der Berg',
      address1: '12 King St W, Toronto, ON',
      source: 'Website /toronto/public-adjusters/',
      tags: ['Insurance Claim', 'residential', 'water', 'storm'],
      customFields: [
        { key: 'estimated_value', field_value: '100k_250k' },
        { key: 'claim_value', field_value: '$100,000 - $250,000' },
        { key: 'claim_status', field_value: 'Started' },
        {
          key: 'claim_details',
          field_value: 'Residential claim in Toronto: Water, Storm damage, $100,000 - $250,000',
        },
        { key: 'damage_description', field_value: 'A burst pipe flooded the basement.' },
        { key: 'claim_started', field_value: 'Yes' },
        { key: 'preferred_contact', field_value: 'both' },
      ],
    });
    expect(crm.notes).toHaveLength(1);
    expect(crm.notes[0]?.contactId).toBe('c1');
    for (const line of [
      'Claim type: Residential',
      'Damage: Water, Storm',
      'Estimated value: $100,000 - $250,000',
      'Claim with insurer: Started',
      'Description: A burst pipe flooded the basement.',
      'Preferred contact: Both',
      `Submission: ${l.submissionId}`,
    ]) {
      expect(crm.notes[0]?.body).toContain(line);
    }
  });

  it('sends custom field ids where the location maps them', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const { c } = client(fast, {
      GHL_CUSTOM_FIELD_IDS: JSON.stringify({ claim_status: 'fld_9' }),
    });
    await c.deliver(claimSchema.parse(sampleClaim({ hasStartedClaim: false })), soon());
    const fields = crm.contacts.get('c1')?.customFields as Array<Record<string, string>>;
    expect(fields).toContainEqual({ id: 'fld_9', field_value: 'Not Started' });
    expect(fields).toContainEqual({ key: 'claim_started', field_value: 'No' });
  });

  it('is refused with a wrong token (not retried, an auth failure) or without the Version header', async () => {
    crm = await startFakeCrm({ api: 'v2', token: 'pit-right' });
    const { c, logs } = client(fast, { GHL_TOKEN: 'pit-wrong' });
    const err = (await c.deliver(lead(), soon()).catch((e) => e)) as DeliveryError;
    expect(err.crm.kind).toBe('auth');
    expect(err.message).toContain('HTTP 401');
    expect(crm.calls.map((x) => x.status)).toEqual([401]);
    expect(logs[0]?.[0]).toBe('Failed to submit contact to GHL');
    expect(JSON.stringify(logs)).not.toContain('pit-wrong');
  });

  it('writes contacts with the idempotent upsert and retries a failing one', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { status: 503 }, { drop: 'before' }, { status: 500 });
    const { c } = client();
    expect((await c.deliver(lead(), soon())).contactId).toBe('c1');
    expect(crm.calls.filter((x) => x.path === '/contacts/upsert').map((x) => x.status)).toEqual([
      503, 0, 500, 200,
    ]);
    expect(crm.calls.some((x) => x.path === '/contacts/')).toBe(false);
  });

  it('makes one contact and one note when the connection drops after the CRM acted', async () => {
    // A location that allows duplicates: a second create would make a second contact.
    crm = await startFakeCrm({ api: 'v2', allowDuplicates: true });
    crm.fail('contact', { drop: 'after' });
    crm.fail('note', { drop: 'after' }, { status: 502 });
    const { c } = client();
    const l = lead();
    expect(await c.deliver(l, soon())).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.contacts.size).toBe(1);
    expect(crm.notes).toHaveLength(1);
    // The note's second try looked for it first and found it.
    expect(crm.calls.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual([
      'POST /contacts/upsert -200',
      'POST /contacts/upsert 200',
      'POST /contacts/c1/notes -201',
      'GET /contacts/c1/notes 502',
      'GET /contacts/c1/notes 200',
    ]);
  });

  it('carries on from an earlier attempt without doubling: the contact known, a note that may exist', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const { c } = client();
    const l = lead();
    crm.fail('note', { drop: 'after' }, { drop: 'after' }, { drop: 'after' }, { drop: 'after' });
    const first = (await c.deliver(l, soon()).catch((e) => e)) as DeliveryError;
    expect(first.step).toBe('note');
    expect(first.progress).toEqual({ contactId: 'c1', noteMayExist: true });
    expect(crm.notes).toHaveLength(1);
    crm.calls.length = 0;
    await c.deliver(l, { ...soon(), progress: first.progress });
    expect(crm.calls.map((x) => `${x.method} ${x.path}`)).toEqual(['GET /contacts/c1/notes']);
    expect(crm.notes).toHaveLength(1);
  });

  it('waits out the rate limit GoHighLevel announces, or stops when the wait would pass the deadline', async () => {
    crm = await startFakeCrm({ api: 'v2', burstLimit: 2, burstWindowMs: 1000 });
    const { c } = client();
    const t0 = Date.now();
    // Two calls use the window up; the third waits for the next one.
    await c.deliver(lead(), soon());
    await c.deliver(claimSchema.parse(sampleClaim({ email: 'b@example.ca' })), soon());
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(crm.calls.every((x) => x.status !== 429)).toBe(true);
    // A window longer than the time left: no wait, a transient failure for later.
    const slow = await startFakeCrm({ api: 'v2', burstLimit: 1, burstWindowMs: 60_000 });
    const config = configFromEnv({ ...slow.env() });
    const k = createCrmClient(config, () => {}, fast, new RateGate());
    const t1 = Date.now();
    const err = (await k.deliver(lead(), soon(2000)).catch((e) => e)) as DeliveryError;
    expect(err.crm.kind).toBe('transient');
    expect(err.crm.retryAfterMs).toBeGreaterThan(50_000);
    expect(Date.now() - t1).toBeLessThan(1500);
    await slow.close();
  });

  it('honours Retry-After on a 429 when the CRM sends one', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { status: 429, retryAfter: '1' });
    const { c } = client();
    const t0 = Date.now();
    await c.deliver(lead(), soon());
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('ends by its deadline whatever the CRM does', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { stallMs: 3000 }, { stallMs: 3000 }, { stallMs: 3000 });
    const { c, logs } = client({ ...fast, requestTimeoutMs: 5000 });
    const t0 = Date.now();
    const err = (await c.deliver(lead(), soon(1000)).catch((e) => e)) as DeliveryError;
    expect(Date.now() - t0).toBeLessThan(1300);
    expect(err.crm.kind).toBe('transient');
    expect(err.crm.ambiguous).toBe(true);
    expect(logs.map((l) => l[0])).toEqual(['Failed to submit contact to GHL']);
  });

  it("reports a lead the CRM refuses for good, with the CRM's reason, and does not retry it", async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { status: 422, message: ['phone must be a valid phone number'] });
    const { c } = client();
    const err = (await c.deliver(lead(), soon()).catch((e) => e)) as DeliveryError;
    expect(err.crm.kind).toBe('permanent');
    expect(err.message).toBe('contact: HTTP 422: phone must be a valid phone number');
    expect(crm.calls).toHaveLength(1);
  });
});

describe('GoHighLevel API v1 (the spec shape)', () => {
  it('posts /v1/contacts/ with customField as one object, then the note', async () => {
    crm = await startFakeCrm({ api: 'v1' });
    const { c } = client();
    expect(await c.deliver(lead(), soon())).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.contacts.get('c1')).toMatchObject({
      firstName: 'Marie-Claire',
      lastName: 'van der Berg',
      tags: ['Insurance Claim', 'residential', 'water', 'storm'],
      customField: {
        estimated_value: '100k_250k',
        claim_value: '$100,000 - $250,000',
        claim_status: 'Started',
        damage_description: 'A burst pipe flooded the basement.',
        claim_started: 'Yes',
        preferred_contact: 'both',
      },
    });
    expect(crm.calls.map((x) => x.path)).toEqual(['/v1/contacts/', '/v1/contacts/c1/notes/']);
  });
});
