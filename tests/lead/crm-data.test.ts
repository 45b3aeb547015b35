import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/lead/config.js';
import {
  createCrmClient,
  DEFAULT_RETRY,
  type DeliveryError,
  RateGate,
  type RetryPolicy,
} from '../../src/lead/crm.js';
import { claimSchema, messageSchema } from '../../src/lead/schema.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { LEAD_FIELDS, sampleClaim } from './sample.js';

/**
 * The operator's data in GoHighLevel is never degraded by a lead: the fake CRM replaces a
 * contact's fields with whatever an upsert sends, empty strings included (UpsertContactDto marks
 * them nullable and promises nothing about empty values), so these tests show what survives.
 */
const fast: RetryPolicy = { ...DEFAULT_RETRY, baseMs: 20, maxDelayMs: 100, requestTimeoutMs: 1000 };
const soon = (ms = 5000) => ({ deadline: Date.now() + ms });
let crm: FakeCrm;
afterEach(() => crm?.close());

function client(env: Record<string, string> = {}) {
  const logs: Array<[string, Record<string, unknown>]> = [];
  const config = configFromEnv({ ...crm.env(), ...env });
  return {
    logs,
    c: createCrmClient(config, (e, f = {}) => logs.push([e, f]), fast, new RateGate()),
  };
}

const message = (over: Record<string, unknown> = {}) =>
  messageSchema.parse({
    form: 'contact',
    submissionId: crypto.randomUUID(),
    page: '/contact/',
    fullName: 'Marie',
    email: 'marie@example.ca',
    message: 'Any news about my file?',
    ...over,
  });

/** Every upsert body sent: none may hold an empty or null standard field. */
const upserts = () =>
  crm.calls
    .filter((x) => x.path === '/contacts/upsert' && x.status === 200)
    .map((x) => x.body as Record<string, unknown>);

describe("a returning homeowner's contact", () => {
  it('keeps its phone, address, first source and the operator tags through a contact-form lead', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    const { c } = client();
    const claim = claimSchema.parse(
      sampleClaim({
        phone: '(416) 555-0199 ext. 22',
        propertyCity: 'Toronto',
        postalCode: 'm5v2t6',
        attribution: {
          utm_source: 'google',
          utm_medium: 'cpc',
          utm_campaign: 'flood-to',
          gclid: 'Cj0KCQ-first',
          landing_page: '/toronto/',
          at: '2026-03-01T10:00:00.000Z',
        },
      }),
    );
    await c.deliver(claim, soon());
    expect(crm.contacts.get('c1')).toMatchObject({
      phone: '+14165550199',
      address1: '12 King St W, Toronto, ON',
      city: 'Toronto',
      state: 'ON',
      postalCode: 'M5V 2T6',
      country: 'CA',
      source: 'google / cpc / flood-to',
    });
    // The extension is in the note, beside the number as the CRM has it.
    expect(crm.notes[0]?.body).toContain('phone +14165550199 ext. 22');
    crm.tagByHand('c1', 'signed-client');

    // Weeks later, from a Facebook ad: a message, one word for a name, no phone.
    await c.deliver(
      message({
        attribution: { utm_source: 'facebook', utm_medium: 'paid', landing_page: '/contact/' },
      }),
      soon(),
    );
    expect(crm.contacts.size).toBe(1);
    const after = crm.contacts.get('c1');
    expect(after).toMatchObject({
      firstName: 'Marie',
      lastName: 'van der Berg',
      phone: '+14165550199',
      address1: '12 King St W, Toronto, ON',
      city: 'Toronto',
      state: 'ON',
      postalCode: 'M5V 2T6',
      country: 'CA',
      source: 'google / cpc / flood-to',
    });
    expect(after?.tags).toEqual([
      'Insurance Claim',
      'residential',
      'water',
      'storm',
      'signed-client',
      'Website Message',
    ]);
    expect(crm.fieldsOf('c1')).toMatchObject({
      first_source: 'google / cpc / flood-to',
      first_gclid: 'Cj0KCQ-first',
      first_at: '2026-03-01T10:00:00.000Z',
      last_source: 'facebook / paid',
      last_gclid: '(none)',
      last_landing_page: '/contact/',
      // The claim's answers are left as the claim wrote them.
      estimated_value: '100k_250k',
    });
    // What the second lead sent: no empty field, no source, no first touch.
    const second = upserts()[1] ?? {};
    expect(Object.keys(second).sort()).toEqual([
      'customFields',
      'email',
      'firstName',
      'locationId',
    ]);
    for (const body of upserts())
      for (const [k, v] of Object.entries(body))
        expect(v, k).not.toSatisfy((x) => x === '' || x === null);
    // The note names the latest source.
    expect(crm.notes[1]?.body).toContain('Source: facebook / paid');
  });

  it("sends the page's city nowhere as the property's, and the province only from a postal code", async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    const { c } = client();
    await c.deliver(claimSchema.parse(sampleClaim({ postalCode: 'X0A 0H0' })), soon());
    const contact = crm.contacts.get('c1');
    expect(contact).toMatchObject({ postalCode: 'X0A 0H0', state: 'NU', country: 'CA' });
    expect(contact).not.toHaveProperty('city');
    // The page's city stays in the claim's details and note, which say it is the page's.
    expect(crm.fieldsOf('c1').claim_details).toContain('Toronto');
  });

  it('keeps a phone libphonenumber cannot read out of the phone field, and in the note as typed', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    const { c } = client();
    await c.deliver(claimSchema.parse(sampleClaim({ phone: '555-01' })), soon());
    expect(crm.contacts.get('c1')).not.toHaveProperty('phone');
    expect(crm.notes[0]?.body).toContain('555-01 (as typed: not a valid number');
  });
});

describe('a field the CRM refuses', () => {
  it('is dropped, and the lead delivered without it; the note names it', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    crm.fail('contact', { status: 422, message: ['phone must be a valid phone number'] });
    const { c, logs } = client();
    const l = claimSchema.parse(sampleClaim());
    expect(await c.deliver(l, soon())).toEqual({ contactId: 'c1', noteAdded: true });
    expect(crm.contacts.get('c1')).not.toHaveProperty('phone');
    expect(crm.contacts.get('c1')).toMatchObject({ email: 'marie@example.ca' });
    expect(crm.notes[0]?.body).toContain(
      "Refused by the CRM, so not in the contact's fields (the answers above have them): phone",
    );
    expect(crm.notes[0]?.body).toContain('phone +14165550199');
    expect(logs.find((x) => x[0].startsWith('CRM refused fields'))?.[1]).toEqual({
      submissionId: l.submissionId,
      fields: ['phone'],
    });
  });

  it('is named by its key when it is a custom field, and by the property for an unknown one', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    crm.fail('contact', {
      status: 422,
      message: ['customFields.0.field_value must be shorter than or equal to 255 characters'],
    });
    const { c } = client();
    await c.deliver(claimSchema.parse(sampleClaim()), soon());
    const first = upserts()[0]?.customFields as Array<{ id: string }>;
    const refusal = crm.calls.find((x) => x.status === 422)?.body as
      | { customFields?: Array<{ id: string }> }
      | undefined;
    const refusedId = refusal?.customFields?.[0]?.id;
    const key = crm.fields.find((f) => f.id === refusedId)?.name ?? '';
    expect(key).not.toBe('');
    expect(first.some((f) => f.id === refusedId)).toBe(false);
    expect(crm.notes[0]?.body).toContain(`(the answers above have them): ${key}`);
  });

  it('dead-letters a lead that would lose its only way to be found again', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    crm.fail('contact', { status: 422, message: ['email must be an email'] });
    const { c } = client();
    const err = (await c.deliver(message(), soon()).catch((e) => e)) as DeliveryError;
    expect(err.crm.kind).toBe('permanent');
    expect(crm.contacts.size).toBe(0);
  });
});
