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
    'GHL_PIPELINE_ID',
    'GHL_PIPELINE_STAGE_ID',
    'GHL_WORKFLOW_ID',
    'LEAD_VALUES',
    'TURNSTILE_SECRET',
    'TURNSTILE_VERIFY_URL',
    'LEAD_RATE_LIMIT',
  ].map((k) => [k, '']),
);

const check = (env: Record<string, string>, ...args: string[]) =>
  runCliAsync(['leads', 'check', ...args], { env: { ...CLEAN, ...env } });

/** What the check did to the CRM: any change is a failure of "changes nothing". */
const state = (crm: FakeCrm) =>
  JSON.stringify({
    contacts: [...crm.contacts],
    notes: crm.notes,
    fields: crm.fields,
    opportunities: crm.opportunities,
    enrolments: crm.enrolments,
  });

/** A location set up for leads: the contacts' fields and the opportunities' source field. */
const READY = [...LEAD_FIELDS, { name: 'lead_source', model: 'opportunity' as const }];

describe('claimsite leads check', () => {
  it('says all is ready on a right setup, naming each custom field, and changes nothing', async () => {
    const crm = await fakeCrm({ fields: READY });
    const before = state(crm);
    const r = await check({ ...crm.env(), ...crm.pipelineEnv() });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('ok   GHL_TOKEN is accepted');
    expect(r.stdout).toContain('ok   GHL_LOCATION_ID loc_test_123 is a location the token may use');
    for (const scope of [
      'contacts.readonly',
      'contacts.write',
      'locations/customFields.readonly',
      'opportunities.readonly',
      'opportunities.write',
      'workflows.readonly',
    ])
      expect(r.stdout).toContain(`ok   GHL_TOKEN has the scope ${scope}`);
    for (const f of LEAD_CUSTOM_FIELDS)
      expect(r.stdout).toMatch(new RegExp(`ok   custom field ${f.key}: fld\\d+`));
    expect(r.stdout).toMatch(/ok {3}opportunity custom field lead_source: fld\d+/);
    expect(r.stdout).toContain('ok   new leads go to the pipeline Claims, stage New lead');
    expect(r.stdout).toContain('ok   each lead enrols its contact in the workflow Speed to lead');
    expect(r.stdout).toContain('ok   LEAD_VALUES: 50k_100k $7,500, 100k_250k $17,500');
    expect(r.stdout).toContain(
      'Ready: GoHighLevel will take the leads as the endpoint sends them.',
    );
    expect(r.stdout).not.toContain('FIX');
    expect(state(crm)).toBe(before);
    // It read, and asked for two writes GoHighLevel refuses before acting (nothing to write): 422.
    expect(crm.calls.map((c) => `${c.method} ${c.path.split('?')[0]} ${c.status}`)).toEqual([
      'GET /locations/loc_test_123/customFields 200',
      'POST /contacts/search 200',
      'POST /contacts/upsert 422',
      'GET /opportunities/pipelines 200',
      'POST /opportunities/ 422',
      'GET /locations/loc_test_123/customFields 200',
      'GET /workflows/ 200',
    ]);
  });

  it('names a pipeline, stage or workflow the location lacks, a draft workflow, and the scopes they need', async () => {
    const crm = await fakeCrm({
      fields: READY,
      workflows: [{ id: 'wf_draft', name: 'Speed to lead', status: 'draft' }],
    });
    const env = { ...crm.env(), GHL_PIPELINE_STAGE_ID: 'st_new', GHL_WORKFLOW_ID: 'wf_draft' };
    const fixes = async (over: Record<string, string>) =>
      (await check({ ...env, ...over })).stdout.split('\n').filter((l) => l.includes('FIX'));
    expect(await fixes({ GHL_PIPELINE_ID: 'pl_gone' })).toEqual([
      expect.stringContaining(
        'GHL_PIPELINE_ID pl_gone is no pipeline of the location; its pipelines: Claims (pl_claims)',
      ),
      expect.stringContaining('the workflow Speed to lead is draft: publish it'),
    ]);
    expect(
      await fixes({
        GHL_PIPELINE_ID: 'pl_claims',
        GHL_PIPELINE_STAGE_ID: 'st_x',
        GHL_WORKFLOW_ID: 'wf_x',
      }),
    ).toEqual([
      expect.stringContaining(
        'GHL_PIPELINE_STAGE_ID st_x is no stage of the pipeline Claims; its stages: New lead (st_new), Contacted (st_contacted), Signed (st_signed)',
      ),
      expect.stringContaining('GHL_WORKFLOW_ID wf_x is no workflow of the location'),
    ]);
    const scoped = await fakeCrm({
      fields: READY,
      scopes: ['contacts.readonly', 'contacts.write', 'locations/customFields.readonly'],
    });
    const r = await check({ ...scoped.env(), ...scoped.pipelineEnv() });
    expect(r.stdout.split('\n').filter((l) => l.includes('FIX'))).toEqual([
      expect.stringContaining('GHL_TOKEN lacks the scope opportunities.readonly'),
      expect.stringContaining('GHL_TOKEN lacks the scope opportunities.write'),
      expect.stringContaining('GHL_TOKEN lacks the scope workflows.readonly'),
    ]);
  });

  it('names each wrong part of a bad setup: a scope, missing fields, a wrong id, a refused Turnstile secret', async () => {
    const crm = await fakeCrm({
      fields: LEAD_FIELDS.filter((f) => !['first_gclid', 'last_utm_source'].includes(f.name)),
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
      expect.stringContaining('custom field first_gclid is missing'),
      expect.stringContaining(
        'custom field last_utm_source is missing: run claimsite leads check --fix',
      ),
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
    const env = { ...crm.env(), ...crm.pipelineEnv() };
    const r = await check(env, '--fix');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/ok {3}custom field first_utm_source: created, fld\d+/);
    expect(r.stdout).toMatch(/ok {3}opportunity custom field lead_source: created, fld\d+/);
    expect(crm.fields[0]).toEqual(kept);
    expect(crm.fields.map((f) => [f.fieldKey, f.dataType]).sort()).toEqual(
      [
        ...LEAD_CUSTOM_FIELDS.map((f) => [`contact.${f.key}`, f.dataType]),
        ['opportunity.lead_source', 'TEXT'],
      ].sort(),
    );
    // Now the plain check passes, and a second --fix creates nothing.
    expect((await check(env)).code).toBe(0);
    expect((await check(env, '--fix')).code).toBe(0);
    expect(crm.fields).toHaveLength(LEAD_CUSTOM_FIELDS.length + 1);
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
