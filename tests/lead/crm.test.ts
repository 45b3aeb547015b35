import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/lead/config.js';
import { createCrmClient, DEFAULT_RETRY, type RetryPolicy } from '../../src/lead/crm.js';
import { claimSchema } from '../../src/lead/schema.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { sampleClaim } from './sample.js';

const fast: RetryPolicy = {
  ...DEFAULT_RETRY,
  baseMs: 20,
  maxDelayMs: 100,
  totalMs: 5000,
  requestTimeoutMs: 1000,
};
let crm: FakeCrm;
afterEach(() => crm?.close());

function client(policy = fast, extraEnv: Record<string, string> = {}) {
  const logs: Array<[string, Record<string, unknown>]> = [];
  const config = configFromEnv({ ...crm.env(), ...extraEnv });
  return { logs, c: createCrmClient(config, (e, f = {}) => logs.push([e, f]), policy) };
}

const lead = () => claimSchema.parse(sampleClaim());

describe('GoHighLevel API v2 (the default)', () => {
  it('creates the contact with the exact SPEC §7 payload, then its note', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const { c } = client();
    const l = lead();
    const r = await c.deliver(l);
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
    ]) {
      expect(crm.notes[0]?.body).toContain(line);
    }
  });

  it('sends custom field ids where the location maps them', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const { c } = client(fast, {
      GHL_CUSTOM_FIELD_IDS: JSON.stringify({ claim_status: 'fld_9' }),
    });
    await c.deliver(claimSchema.parse(sampleClaim({ hasStartedClaim: false })));
    const fields = crm.contacts.get('c1')?.customFields as Array<Record<string, string>>;
    expect(fields).toContainEqual({ id: 'fld_9', field_value: 'Not Started' });
    expect(fields).toContainEqual({ key: 'claim_started', field_value: 'No' });
  });

  it('is refused by the CRM with a wrong token or without the Version header', async () => {
    crm = await startFakeCrm({ api: 'v2', token: 'pit-right' });
    const { c, logs } = client(fast, { GHL_TOKEN: 'pit-wrong' });
    await expect(c.deliver(lead())).rejects.toThrow('HTTP 401');
    expect(crm.calls.map((x) => x.status)).toEqual([401]); // a 4xx is not retried
    expect(logs[0]?.[0]).toBe('Failed to submit contact to GHL');
    expect(JSON.stringify(logs)).not.toContain('pit-wrong');
  });

  it('retries a failing contact call, then succeeds', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { status: 503 }, { drop: true }, { status: 500 });
    const { c } = client();
    expect((await c.deliver(lead())).contactId).toBe('c1');
    expect(crm.calls.filter((x) => x.path === '/contacts/').map((x) => x.status)).toEqual([
      503, 0, 500, 201,
    ]);
  });

  it('honours Retry-After on 429', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { status: 429, retryAfter: '1' });
    const { c } = client();
    const t0 = Date.now();
    await c.deliver(lead());
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('gives up within the total time limit and times out a stalled call', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { stallMs: 1500 }, { stallMs: 1500 }, { stallMs: 1500 }, { stallMs: 1500 });
    const { c, logs } = client({ ...fast, requestTimeoutMs: 300, totalMs: 1000 });
    const t0 = Date.now();
    await expect(c.deliver(lead())).rejects.toThrow('timed out');
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(logs.map((l) => l[0])).toEqual(['Failed to submit contact to GHL']);
  });

  it('still delivers the lead when the note fails, and logs it', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('note', { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const { c, logs } = client();
    expect(await c.deliver(lead())).toEqual({ contactId: 'c1', noteAdded: false });
    expect(logs.map((l) => l[0])).toEqual(['Failed to add note to contact']);
    expect(crm.contacts.size).toBe(1);
  });

  it('uses the existing contact when the location refuses duplicates', async () => {
    crm = await startFakeCrm({ api: 'v2', allowDuplicates: false });
    const { c } = client();
    await c.deliver(lead());
    expect((await c.deliver(lead())).contactId).toBe('c1');
    expect(crm.contacts.size).toBe(1);
    expect(crm.notes.map((n) => n.contactId)).toEqual(['c1', 'c1']);
  });
});

describe('GoHighLevel API v1 (the spec shape)', () => {
  it('posts /v1/contacts/ with customField as one object, then the note', async () => {
    crm = await startFakeCrm({ api: 'v1' });
    const { c } = client();
    expect(await c.deliver(lead())).toEqual({ contactId: 'c1', noteAdded: true });
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
