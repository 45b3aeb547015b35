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
import { LEAD_FIELDS, sampleClaim } from './sample.js';

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
  it('looks the person up, upserts the contact without tags, adds the tags, then the note', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    const { c } = client();
    const l = lead();
    const r = await c.deliver(l, soon());
    expect(r).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.calls.map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual([
      'GET /locations/loc_test_123/customFields?model=contact 200',
      'GET /contacts/search/duplicate?locationId=loc_test_123&email=marie%40example.ca&number=%2B14165550199 200',
      'POST /contacts/upsert 200',
      'POST /contacts/c1/tags 201',
      'POST /contacts/c1/notes 201',
    ]);
    const { customFields, ...contact } = crm.contacts.get('c1') as Record<string, unknown>;
    // The street line the visitor typed; no city, province or country they did not give.
    expect(contact).toEqual({
      locationId: 'loc_test_123',
      email: 'marie@example.ca',
      phone: '+14165550199',
      firstName: 'Marie-Claire',
      lastName: 'van der Berg',
      address1: '12 King St W, Toronto, ON',
      source: 'direct',
      tags: ['Insurance Claim', 'residential', 'water', 'storm'],
    });
    // Every value by the location's own field id.
    const ids = new Map(crm.fields.map((f) => [f.id, f.name]));
    expect((customFields as Array<{ id: string }>).every((f) => ids.has(f.id))).toBe(true);
    expect(crm.fieldsOf('c1')).toMatchObject({
      estimated_value: '100k_250k',
      claim_value: '$100,000 - $250,000',
      claim_status: 'Started',
      claim_details: 'Residential claim in Toronto: Water, Storm damage, $100,000 - $250,000',
      damage_description: 'A burst pipe flooded the basement.',
      claim_started: 'Yes',
      preferred_contact: 'both',
      first_source: 'direct',
      last_source: 'direct',
      last_gclid: '(none)',
    });
    expect(crm.notes).toHaveLength(1);
    expect(crm.notes[0]?.contactId).toBe('c1');
    for (const line of [
      'Claim type: Residential',
      'Damage: Water, Storm',
      'Estimated value: $100,000 - $250,000',
      'Claim with insurer: Started',
      'Description: A burst pipe flooded the basement.',
      'Preferred contact: Both (phone +14165550199, email marie@example.ca)',
      'Source: direct',
      'Attribution: none (no campaign, ad click or referring site)',
      `Submission: ${l.submissionId}`,
    ]) {
      expect(crm.notes[0]?.body).toContain(line);
    }
  });

  it("keeps a returning homeowner's tags: the operator's own and the first lead's", async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    const { c } = client();
    await c.deliver(lead(), soon());
    // Between the two leads, the operator signs the client and a workflow tags the contact.
    crm.tagByHand('c1', 'signed-client', 'workflow: called');
    const again = claimSchema.parse(
      sampleClaim({ damageTypes: ['fire'], claimType: 'commercial', estimatedValue: 'over_1m' }),
    );
    expect((await c.deliver(again, soon())).contactId).toBe('c1');
    expect(crm.contacts.size).toBe(1);
    expect(crm.contacts.get('c1')?.tags).toEqual([
      'Insurance Claim',
      'residential',
      'water',
      'storm',
      'signed-client',
      'workflow: called',
      'commercial',
      'fire',
    ]);
    // The second lead's answers are the contact's now; the fields it did not send are kept.
    expect(crm.fieldsOf('c1')).toMatchObject({ estimated_value: 'over_1m' });
  });

  it('sends custom fields by the ids of the location, listed once and read again once for a field it lacked', async () => {
    crm = await startFakeCrm({
      api: 'v2',
      fields: LEAD_FIELDS.filter((f) => f.name !== 'first_utm_source'),
    });
    const { c, logs } = client();
    await c.deliver(lead(), soon());
    await c.deliver(
      claimSchema.parse(sampleClaim({ email: 'b@example.ca', phone: '416-555-0102' })),
      soon(),
    );
    const listings = () => crm.calls.filter((x) => x.path.includes('/customFields')).length;
    expect(listings()).toBe(1);
    // A lead with a field the location lacks: listed again once, sent without it, logged.
    const withSource = (email: string, phone: string) =>
      claimSchema.parse(
        sampleClaim({ email, phone, attribution: { utm_source: 'google', utm_medium: 'cpc' } }),
      );
    await c.deliver(withSource('c@example.ca', '416-555-0103'), soon());
    expect(listings()).toBe(2);
    expect(crm.fieldsOf('c3')).toMatchObject({ first_utm_medium: 'cpc' });
    expect(crm.fieldsOf('c3')).not.toHaveProperty('first_utm_source');
    expect(logs.find((l) => l[0] === 'custom fields missing in the location')?.[1]).toMatchObject({
      fields: ['first_utm_source'],
    });
    // Still missing a moment later: not listed again for every lead.
    await c.deliver(withSource('d@example.ca', '416-555-0104'), soon());
    expect(listings()).toBe(2);
  });

  it('finds a field created after the client first listed them, on the next lead that needs it', async () => {
    crm = await startFakeCrm({
      api: 'v2',
      fields: LEAD_FIELDS.filter((f) => f.name !== 'first_gclid'),
    });
    const { c } = client();
    await c.deliver(lead(), soon());
    crm.fields.push({
      id: 'fld_new',
      name: 'first_gclid',
      fieldKey: 'contact.first_gclid',
      dataType: 'TEXT',
      model: 'contact',
    });
    await c.deliver(
      claimSchema.parse(
        sampleClaim({
          email: 'g@example.ca',
          phone: '416-555-0107',
          attribution: { gclid: 'Cj0KCQ' },
        }),
      ),
      soon(),
    );
    expect(crm.fieldsOf('c2')).toMatchObject({ first_gclid: 'Cj0KCQ' });
  });

  it('lets an id from GHL_CUSTOM_FIELD_IDS win over the listing', async () => {
    crm = await startFakeCrm({
      api: 'v2',
      fields: [...LEAD_FIELDS, { name: 'Claim status (old)' }],
    });
    const old = crm.fields.find((f) => f.name === 'Claim status (old)')?.id ?? '';
    const { c } = client(fast, { GHL_CUSTOM_FIELD_IDS: JSON.stringify({ claim_status: old }) });
    await c.deliver(claimSchema.parse(sampleClaim({ hasStartedClaim: false })), soon());
    expect(crm.fieldsOf('c1')).toMatchObject({
      claim_status_old: 'Not Started',
      claim_started: 'No',
    });
    expect(crm.fieldsOf('c1')).not.toHaveProperty('claim_status');
  });

  it("carries the visit's touch as last_* fields, and the first touch as source and first_*", async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    const { c } = client();
    const attribution = {
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring-flood',
      gclid: 'Cj0KCQiA',
      referrer: 'https://www.google.com',
      landing_page: '/toronto/',
    };
    await c.deliver(claimSchema.parse(sampleClaim({ attribution })), soon());
    expect(crm.contacts.get('c1')?.source).toBe('google / cpc / spring-flood');
    expect(crm.fieldsOf('c1')).toMatchObject({
      first_source: 'google / cpc / spring-flood',
      first_gclid: 'Cj0KCQiA',
      first_landing_page: '/toronto/',
      last_source: 'google / cpc / spring-flood',
      last_utm_campaign: 'spring-flood',
      last_gclid: 'Cj0KCQiA',
      last_referrer: 'https://www.google.com',
      last_utm_term: '(none)',
    });
    expect(crm.fieldsOf('c1')).not.toHaveProperty('first_utm_term');
    expect(crm.notes[0]?.body).toContain(
      'Attribution: utm_source=google, utm_medium=cpc, utm_campaign=spring-flood, gclid=Cj0KCQiA, referrer=https://www.google.com, landing_page=/toronto/',
    );
  });

  it('delivers the contact and its note when the token may not read custom fields, and says so', async () => {
    crm = await startFakeCrm({
      api: 'v2',
      fields: LEAD_FIELDS,
      scopes: ['contacts.write', 'contacts.readonly'],
    });
    const { c, logs } = client();
    expect(await c.deliver(lead(), soon())).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.fieldsOf('c1')).toEqual({});
    expect(crm.notes[0]?.body).toContain('Description: A burst pipe flooded the basement.');
    // Logged by its status and a digest of the answer: the CRM's words stay out of the logs.
    expect(logs.find((l) => l[0] === 'custom fields not listed')?.[1].error).toMatch(
      /^HTTP 401 \(answer sha256 [0-9a-f]{12}\)$/,
    );
  });

  it('is refused for good as an auth failure when the token may not write contacts', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS, scopes: ['contacts.readonly'] });
    const { c } = client();
    const err = (await c.deliver(lead(), soon()).catch((e) => e)) as DeliveryError;
    expect(err.crm.kind).toBe('auth');
    expect(err.message).toMatch(/^contact: HTTP 401 \(answer sha256 [0-9a-f]{12}\)$/);
    expect(err.crm.messages).toEqual(['The token is not authorized for this scope.']);
    expect(crm.contacts.size).toBe(0);
  });

  it('adds the tags again, harmlessly, after their answer was lost', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    crm.fail('tags', { drop: 'after' }, { status: 502 });
    const { c } = client();
    expect(await c.deliver(lead(), soon())).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.calls.filter((x) => x.path.endsWith('/tags')).map((x) => x.status)).toEqual([
      -201, 502, 201,
    ]);
    expect(crm.contacts.get('c1')?.tags).toEqual([
      'Insurance Claim',
      'residential',
      'water',
      'storm',
    ]);
  });

  it('is refused with a wrong token (not retried, an auth failure) or without the Version header', async () => {
    crm = await startFakeCrm({ api: 'v2', token: 'pit-right' });
    const { c, logs } = client(fast, { GHL_TOKEN: 'pit-wrong' });
    const err = (await c.deliver(lead(), soon()).catch((e) => e)) as DeliveryError;
    expect(err.crm.kind).toBe('auth');
    expect(err.message).toContain('HTTP 401');
    // The field listing is refused, the look-up, then the upsert: none is tried again.
    expect(crm.calls.map((x) => x.status)).toEqual([401, 401, 401]);
    expect(logs.map((l) => l[0])).toEqual([
      'custom fields not listed',
      'Failed to submit contact to GHL',
    ]);
    expect(JSON.stringify(logs)).not.toContain('pit-wrong');
  });

  it('writes contacts with the idempotent upsert and retries a failing one', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
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
    crm = await startFakeCrm({ api: 'v2', allowDuplicates: true, fields: LEAD_FIELDS });
    crm.fail('contact', { drop: 'after' });
    crm.fail('note', { drop: 'after' }, { status: 502 });
    const { c } = client();
    const l = lead();
    expect(await c.deliver(l, soon())).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.contacts.size).toBe(1);
    expect(crm.notes).toHaveLength(1);
    // The note's second try looked for it first and found it.
    expect(crm.calls.map((x) => `${x.method} ${x.path.split('?')[0]} ${x.status}`)).toEqual([
      'GET /locations/loc_test_123/customFields 200',
      'GET /contacts/search/duplicate 200',
      'POST /contacts/upsert -200',
      'GET /contacts/search/duplicate 200',
      'POST /contacts/upsert 200',
      'POST /contacts/c1/tags 201',
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
    // No second contact or note: the note, which comes last, says every step was done.
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
    crm.fail('fields', { stallMs: 3000 }, { stallMs: 3000 }, { stallMs: 3000 });
    const { c, logs } = client({ ...fast, requestTimeoutMs: 5000 });
    const t0 = Date.now();
    const err = (await c.deliver(lead(), soon(1000)).catch((e) => e)) as DeliveryError;
    expect(Date.now() - t0).toBeLessThan(1300);
    expect(err.crm.kind).toBe('transient');
    expect(err.crm.ambiguous).toBe('timeout');
    expect(logs.map((l) => l[0])).toEqual(['Failed to submit contact to GHL']);
    // The field listing had stalled too: nothing was sent without its fields.
    expect(crm.calls.filter((x) => x.path === '/contacts/upsert')).toHaveLength(0);
  });

  it("reports a lead the CRM refuses for good, with the CRM's reason, and does not retry it", async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { status: 400, message: 'Contact could not be saved' });
    const { c } = client();
    const err = (await c.deliver(lead(), soon()).catch((e) => e)) as DeliveryError;
    expect(err.crm.kind).toBe('permanent');
    // The reason as a log may hold it; the CRM's own words kept apart, for the note alone.
    expect(err.message).toMatch(/^contact: HTTP 400 \(answer sha256 [0-9a-f]{12}\)$/);
    expect(err.crm.messages).toEqual(['Contact could not be saved']);
    expect(crm.calls.filter((x) => x.path === '/contacts/upsert')).toHaveLength(1);
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
