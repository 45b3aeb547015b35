import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LEAD_CUSTOM_FIELDS } from '../../src/lead/payload.js';
import { type FakeCrm, type FakeCrmOptions, startFakeCrm } from '../fake-crm.js';
import { runCliAsync } from '../helpers.js';
import { LEAD_FIELDS } from './sample.js';

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function fakeCrm(options: Partial<FakeCrmOptions> = {}) {
  const crm = await startFakeCrm({ api: 'v2', ...options });
  closing.push(() => crm.close());
  return crm;
}

/** Everything the endpoint reads, unset, so the test's own environment decides. */
const CLEAN = Object.fromEntries(
  [
    'GHL_API_VERSION',
    'GHL_TOKEN',
    'GHL_LOCATION_ID',
    'GHL_BASE_URL',
    'GHL_CUSTOM_FIELD_IDS',
    'TURNSTILE_SECRET',
    'TURNSTILE_VERIFY_URL',
    'LEAD_RATE_LIMIT',
  ].map((k) => [k, '']),
);

const check = (env: Record<string, string>, ...args: string[]) =>
  runCliAsync(['leads', 'check', ...args], { env: { ...CLEAN, ...env } });

/** What the check did to the CRM: any change is a failure of "changes nothing". */
const state = (crm: FakeCrm) =>
  JSON.stringify({ contacts: [...crm.contacts], notes: crm.notes, fields: crm.fields });

describe('claimsite leads check', () => {
  it('says all is ready on a right setup, naming each custom field, and changes nothing', async () => {
    const crm = await fakeCrm({ fields: LEAD_FIELDS });
    const before = state(crm);
    const r = await check(crm.env());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ok   GHL_TOKEN is accepted');
    expect(r.stdout).toContain('ok   GHL_LOCATION_ID loc_test_123 is a location the token may use');
    for (const scope of ['contacts.readonly', 'contacts.write', 'locations/customFields.readonly'])
      expect(r.stdout).toContain(`ok   GHL_TOKEN has the scope ${scope}`);
    for (const f of LEAD_CUSTOM_FIELDS)
      expect(r.stdout).toMatch(new RegExp(`ok   custom field ${f.key}: fld\\d+`));
    expect(r.stdout).toContain(
      'Ready: GoHighLevel will take the leads as the endpoint sends them.',
    );
    expect(r.stdout).not.toContain('FIX');
    expect(state(crm)).toBe(before);
    // It read, and asked for one write GoHighLevel refuses before acting (no location): 422.
    expect(crm.calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'GET /locations/loc_test_123/customFields?model=contact 200',
      'POST /contacts/search 200',
      'POST /contacts/upsert 422',
    ]);
  });

  it('names each wrong part of a bad setup: a scope, missing fields, a wrong id, a refused Turnstile secret', async () => {
    const crm = await fakeCrm({
      fields: LEAD_FIELDS.filter((f) => !['gclid', 'utm_source'].includes(f.name)),
      scopes: ['contacts.write', 'locations/customFields.readonly'],
    });
    const verify = await siteverify('0x-right-secret');
    const before = state(crm);
    const r = await check({
      ...crm.env(),
      GHL_CUSTOM_FIELD_IDS: JSON.stringify({
        claim_status: 'fld_gone',
        favourite_colour: 'fld001',
      }),
      TURNSTILE_SECRET: '0x-wrong-secret',
      TURNSTILE_VERIFY_URL: verify.url,
    });
    expect(r.code).toBe(1);
    const fixes = r.stdout.split('\n').filter((l) => l.includes('FIX'));
    expect(fixes).toEqual([
      expect.stringContaining('GHL_TOKEN lacks the scope contacts.readonly'),
      expect.stringContaining(
        'GHL_CUSTOM_FIELD_IDS maps claim_status to fld_gone, which is no custom field of the location',
      ),
      expect.stringContaining('GHL_CUSTOM_FIELD_IDS names favourite_colour, which no lead fills'),
      expect.stringContaining(
        'custom field utm_source is missing: run claimsite leads check --fix',
      ),
      expect.stringContaining('custom field gclid is missing'),
      expect.stringContaining('TURNSTILE_SECRET is refused by Cloudflare (invalid-input-secret)'),
    ]);
    expect(r.stdout).toContain('6 things to fix before leads reach the CRM.');
    expect(state(crm)).toBe(before);
  });

  it('stops at the first thing nothing else can be checked without, naming its variable', async () => {
    const crm = await fakeCrm({ fields: LEAD_FIELDS });
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...crm.env(), GHL_TOKEN: '' }, 'GHL_TOKEN is not set'],
      [
        { ...crm.env(), GHL_TOKEN: 'pit-revoked' },
        'GHL_TOKEN is refused by GoHighLevel (HTTP 401: Invalid JWT)',
      ],
      [
        { ...crm.env(), GHL_LOCATION_ID: 'loc_other' },
        'GHL_LOCATION_ID loc_other is not a location this token may use (HTTP 403: The token does not have access to this location.)',
      ],
      [{ ...crm.env(), GHL_LOCATION_ID: '' }, 'GHL_LOCATION_ID is required with a v2 token'],
      [
        { ...crm.env(), GHL_CUSTOM_FIELD_IDS: '{claim_status' },
        'GHL_CUSTOM_FIELD_IDS must be a JSON object of field key to field id',
      ],
      [{ ...crm.env(), LEAD_RATE_LIMIT: 'many' }, 'LEAD_RATE_LIMIT must be a number above 0'],
      [
        { ...crm.env(), GHL_BASE_URL: 'http://127.0.0.1:9' },
        'GHL_BASE_URL http://127.0.0.1:9 did not answer',
      ],
      [{ ...crm.env(), GHL_API_VERSION: 'v1' }, 'GHL_API_VERSION is v1'],
    ];
    for (const [env, said] of cases) {
      const r = await check(env);
      expect(r.code, said).toBe(1);
      expect(r.stdout, said).toContain(`FIX  ${said}`);
      expect(r.stdout).toContain('1 thing to fix before leads reach the CRM.');
    }
    expect(crm.contacts.size).toBe(0);
  });

  it('creates the missing custom fields with --fix, and only those', async () => {
    const crm = await fakeCrm({ fields: [{ name: 'estimated_value' }] });
    const kept = crm.fields[0];
    const r = await check(crm.env(), '--fix');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ok {3}custom field utm_source: created, fld\d+/);
    expect(crm.fields[0]).toEqual(kept);
    expect(crm.fields.map((f) => [f.fieldKey, f.dataType]).sort()).toEqual(
      LEAD_CUSTOM_FIELDS.map((f) => [`contact.${f.key}`, f.dataType]).sort(),
    );
    // Now the plain check passes, and a second --fix creates nothing.
    expect((await check(crm.env())).code).toBe(0);
    expect((await check(crm.env(), '--fix')).code).toBe(0);
    expect(crm.fields).toHaveLength(LEAD_CUSTOM_FIELDS.length);
  });

  it('says which scope --fix lacks to create a field', async () => {
    const crm = await fakeCrm({
      scopes: ['contacts.write', 'contacts.readonly', 'locations/customFields.readonly'],
    });
    const r = await check(crm.env(), '--fix');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'FIX  custom field claim_details is missing, and GHL_TOKEN lacks the scope locations/customFields.write to create it',
    );
    expect(crm.fields).toEqual([]);
  });
});

/** Cloudflare's siteverify on loopback: a made-up token with the right secret is invalid-input-response. */
async function siteverify(secret: string) {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const codes =
      form.get('secret') === secret ? ['invalid-input-response'] : ['invalid-input-secret'];
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ success: false, 'error-codes': codes }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closing.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify` };
}
