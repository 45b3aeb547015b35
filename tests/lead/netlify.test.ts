import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';

let crm: FakeCrm;
let handler: (req: Request, ctx: { ip?: string }) => Promise<Response>;
let routeConfig: { path: string };

beforeAll(async () => {
  crm = await startFakeCrm({ api: 'v2' });
  // The function reads its configuration from the environment when it loads, as on Netlify.
  Object.assign(process.env, crm.env(), {
    SITE_ORIGIN: 'https://www.claimright.ca',
    LEAD_OUTBOX_PATH: path.join(await tempDir(), 'leads.jsonl'),
  });
  const mod = await import('../../netlify/functions/lead.js');
  handler = mod.default;
  routeConfig = mod.config;
});
afterAll(async () => {
  for (const k of [
    'GHL_API_VERSION',
    'GHL_TOKEN',
    'GHL_LOCATION_ID',
    'GHL_BASE_URL',
    'SITE_ORIGIN',
    'LEAD_OUTBOX_PATH',
  ])
    delete process.env[k];
  await crm.close();
});

const request = (body: string) =>
  new Request('https://www.claimright.ca/api/lead', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: 'https://www.claimright.ca' },
    body,
  });

describe('the Netlify Functions adapter', () => {
  it('is mounted at the lead endpoint path', () => {
    expect(routeConfig.path).toBe('/api/lead');
  });

  it('delivers a lead to the CRM from a Request', async () => {
    const res = await handler(request(JSON.stringify(sampleClaim())), { ip: '203.0.113.9' });
    expect(res.status).toBe(200);
    expect(crm.contacts.size).toBe(1);
  });

  it('rejects bad input the same way', async () => {
    const res = await handler(request('{'), { ip: '203.0.113.9' });
    expect(res.status).toBe(400);
    expect(crm.contacts.size).toBe(1);
  });
});
