import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/lead/config.js';
import { createLeadService, type LeadService } from '../../src/lead/handler.js';
import { NOT_DELIVERED } from '../../src/lead/health.js';
import { openLeadStore, withConfiguredStore } from '../../src/lead/open-store.js';
import type { WaitingLead } from '../../src/lead/store.js';
import { type Serving, startServer } from '../../src/serve/server.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { runCli, runCliAsync, tempDir } from '../helpers.js';
import { confirmationQuery, formOf, LEAD_FIELDS, sampleClaim } from './sample.js';

const ORIGIN = 'https://www.claimright.ca';
let crm: FakeCrm | undefined;
let serving: Serving | undefined;
let leads: LeadService | undefined;
afterEach(async () => {
  await crm?.close();
  await serving?.close(0);
  // The service was made here: its store is closed here too.
  await leads?.deliverer.store.close();
  crm = undefined;
  serving = undefined;
  leads = undefined;
});

/** The endpoint on loopback, mounted by `serve`, configured from an environment like production's. */
async function endpoint(env: Record<string, string>, extra: Record<string, string> = {}) {
  const dir = await tempDir();
  const outbox = path.join(dir, 'outbox', 'leads.db');
  const logs: string[] = [];
  const config = configFromEnv({
    SITE_ORIGIN: ORIGIN,
    LEAD_OUTBOX_PATH: outbox,
    LEAD_RATE_LIMIT: '50',
    ...env,
    ...extra,
  });
  leads = createLeadService(
    withConfiguredStore({
      config,
      log: (e, f) => logs.push(JSON.stringify({ e, ...f })),
    }),
  );
  const s = await startServer({ dir, port: 0, host: '127.0.0.1', leads });
  serving = s;
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${s.url}/api/lead`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...headers },
      body,
      redirect: 'manual',
    });
  return { url: s.url, outbox, logs, post };
}

/** What waits in the store, read as another process (`leads list`) reads it. */
async function outboxLines(file: string): Promise<WaitingLead[]> {
  const store = openLeadStore({ outboxPath: file }, () => {});
  try {
    return await store.waiting();
  } finally {
    await store.close();
  }
}

describe('the lead endpoint', () => {
  it('delivers a questionnaire to the CRM and answers 200', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const e = await endpoint(crm.env());
    const res = await e.post(JSON.stringify(sampleClaim()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, status: 'delivered' });
    expect(crm.contacts.size).toBe(1);
    expect(crm.notes).toHaveLength(1);
    expect(e.logs.join('\n')).not.toContain(crm.token);
  });

  it('answers bad input with 400, 403, 413, 415 or 429 and sends nothing to the CRM', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const e = await endpoint(crm.env());
    const cases: Array<[string, () => Promise<Response>, number, RegExp]> = [
      ['malformed JSON', () => e.post('{"form": "questionnaire",'), 400, /malformed JSON/],
      [
        'a missing field',
        () => e.post(JSON.stringify({ ...sampleClaim(), fullName: undefined })),
        400,
        /fullName/,
      ],
      [
        'no damage type',
        () => e.post(JSON.stringify(sampleClaim({ damageTypes: [] }))),
        400,
        /damageTypes must name at least one/,
      ],
      [
        'a bad e-mail',
        () => e.post(JSON.stringify(sampleClaim({ email: 'marie@example' }))),
        400,
        /email is not an e-mail address/,
      ],
      [
        'an unknown value range',
        () => e.post(JSON.stringify({ ...sampleClaim(), estimatedValue: '1m_2m' })),
        400,
        /estimatedValue/,
      ],
      [
        'an oversized body',
        () => e.post(JSON.stringify(sampleClaim({ damageDescription: 'x'.repeat(17 * 1024) }))),
        413,
        /larger than 16384/,
      ],
      [
        'a wrong content type',
        () => e.post('claimType=residential', { 'Content-Type': 'text/plain' }),
        415,
        /application\/json/,
      ],
      [
        'a wrong origin',
        () => e.post(JSON.stringify(sampleClaim()), { Origin: 'https://evil.example' }),
        403,
        /origin/,
      ],
      [
        'no origin at all',
        () => e.post(JSON.stringify(sampleClaim()), { Origin: '' }),
        403,
        /origin/,
      ],
    ];
    for (const [name, send, status, message] of cases) {
      const res = await send();
      expect(res.status, name).toBe(status);
      expect((await res.json()).error, name).toMatch(message);
    }
    expect(crm.calls).toEqual([]);
    expect(await outboxLines(e.outbox)).toEqual([]);
  });

  it('answers a filled honeypot exactly as a success, keeping and sending nothing, logging no address', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const e = await endpoint(crm.env());
    const shape = async (res: Response) => ({
      status: res.status,
      // Each answer's reference is its own submission's: the same shape, another id.
      headers: [...res.headers]
        .filter(([k]) => k !== 'date' && k !== 'content-length')
        .map(([k, v]) => [k, v.replace(/ref=[^&]+/, 'ref=*')]),
      body: await res.text(),
    });
    const real = await shape(await e.post(JSON.stringify(sampleClaim())));
    const bot = sampleClaim({ email: 'bot@example.ca', website: 'http://spam.example' });
    expect(await shape(await e.post(JSON.stringify(bot)))).toEqual(real);
    // Without JavaScript too: the same redirect to the confirmation page.
    const form = (c: Record<string, unknown>) =>
      e.post(formOf(c).toString(), { 'Content-Type': 'application/x-www-form-urlencoded' });
    const realForm = await shape(
      await form(sampleClaim({ email: 'p2@example.ca', phone: '416-555-0142' })),
    );
    expect(realForm.status).toBe(303);
    expect(await shape(await form({ ...bot, submissionId: 'bot-submission-0000002' }))).toEqual(
      realForm,
    );
    expect(crm.contacts.size).toBe(2);
    expect((await outboxLines(e.outbox)).map((l) => l.lead.email)).not.toContain('bot@example.ca');
    const logged = e.logs.join('\n');
    expect(logged).toContain('honeypot');
    for (const personal of ['127.0.0.1', '::1', 'bot@example.ca'])
      expect(logged).not.toContain(personal);
  });

  it('limits submissions per client with 429 and Retry-After', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const e = await endpoint(crm.env(), { LEAD_RATE_LIMIT: '3' });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await e.post(
        JSON.stringify(sampleClaim({ email: `p${i}@example.ca`, phone: `416-555-010${i}` })),
      );
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(crm.contacts.size).toBe(3);
  });

  it('creates one contact for a submission sent twice, at once or later', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.fail('contact', { stallMs: 200 });
    const e = await endpoint(crm.env());
    const body = JSON.stringify(sampleClaim());
    const [a, b] = await Promise.all([e.post(body), e.post(body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await e.post(body)).status).toBe(200);
    expect(crm.contacts.size).toBe(1);
    expect(crm.notes).toHaveLength(1);
  });

  it('accepts the no-JS form post and answers 303 to the confirmation page', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const e = await endpoint(crm.env());
    const s = sampleClaim({ city: 'Québec City' });
    const form = formOf(s);
    const res = await e.post(form.toString(), {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(303);
    // Posted from the site's origin to the endpoint's: sent back to the site, with the city,
    // the request's reference and its damage.
    expect(res.headers.get('location')).toBe(`${ORIGIN}/confirmation/?${confirmationQuery(s)}`);
    expect(res.headers.get('location')).toMatch(
      /\?city=Qu%C3%A9bec\+City&ref=[0-9A-F]{8}&damage=water%2Cstorm$/,
    );
    expect(crm.contacts.get('c1')?.tags).toEqual([
      'Insurance Claim',
      'residential',
      'water',
      'storm',
    ]);
    form.set('email', 'not-an-email');
    form.set('submissionId', 'another-submission-0001');
    const bad = await e.post(form.toString(), {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(bad.status).toBe(303);
    expect(bad.headers.get('location')).toBe(`${ORIGIN}/form-error/?status=400`);
    expect(crm.contacts.size).toBe(1);
    // Without JavaScript the browser sends no submission id: the endpoint makes one.
    form.set('email', 'plain@example.ca');
    form.set('phone', '416-555-0188');
    form.delete('submissionId');
    const plain = await e.post(form.toString(), {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(plain.headers.get('location')).toMatch(
      /^https:\/\/www\.claimright\.ca\/confirmation\/\?city=/,
    );
    expect(crm.contacts.size).toBe(2);
  });

  it('sends a visitor of a site served from a folder back to its pages under that folder', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const site = 'https://owner.github.io';
    const e = await endpoint(crm.env(), {
      SITE_ORIGIN: site,
      SITE_URL: 'https://owner.github.io/claims/',
    });
    const montreal = sampleClaim({ city: 'Montréal', page: '/fr/montreal/experts-en-sinistre/' });
    const form = formOf(montreal);
    const posted = (body: string, headers: Record<string, string> = {}) =>
      e.post(body, {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: site,
        ...headers,
      });
    expect((await posted(form.toString())).headers.get('location')).toBe(
      `${site}/claims/fr/confirmation/?${confirmationQuery(montreal)}`,
    );
    form.set('email', 'pas-un-courriel');
    form.set('submissionId', 'another-submission-0003');
    expect((await posted(form.toString())).headers.get('location')).toBe(
      `${site}/claims/fr/erreur-formulaire/?status=400`,
    );
    // Refused before the form is read: the page that posted, under the folder, says the language.
    const refused = await posted('x', {
      Referer: `${site}/claims/fr/nous-joindre/`,
      Origin: 'https://elsewhere.example',
    });
    expect(refused.headers.get('location')).toBe('/claims/fr/erreur-formulaire/?status=403');
  });

  it('answers a French page in French and marks its lead so the owner calls back in French', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
    const e = await endpoint(crm.env());
    const s = sampleClaim({ city: 'Montréal', page: '/fr/montreal/experts-en-sinistre/' });
    const form = formOf(s);
    const res = await e.post(form.toString(), {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${ORIGIN}/fr/confirmation/?${confirmationQuery(s)}`);
    const contact = crm.contacts.get('c1') as { tags?: string[] };
    expect(contact.tags).toEqual(['Insurance Claim', 'residential', 'water', 'storm', 'French']);
    expect(crm.fieldsOf('c1')).toMatchObject({ preferred_language: 'French' });
    // A refused form goes back to the French error page.
    form.set('email', 'pas-un-courriel');
    form.set('submissionId', 'another-submission-0002');
    const bad = await e.post(form.toString(), {
      'Content-Type': 'application/x-www-form-urlencoded',
      Referer: `${ORIGIN}/fr/montreal/`,
    });
    expect(bad.headers.get('location')).toBe(`${ORIGIN}/fr/erreur-formulaire/?status=400`);
    // Refused before the form is read (an origin it does not know): the page that posted says.
    const wrongType = await e.post('x', {
      'Content-Type': 'application/x-www-form-urlencoded',
      Referer: `${ORIGIN}/fr/nous-joindre/`,
      Origin: 'https://elsewhere.example',
    });
    expect(wrongType.headers.get('location')).toBe('/fr/erreur-formulaire/?status=403');
    // A message from the French contact page is tagged too.
    const message = await e.post(
      JSON.stringify({
        form: 'contact',
        submissionId: 'msg-0000-0000-0002',
        page: '/fr/nous-joindre/',
        fullName: 'Élise Tremblay',
        email: 'elise@example.ca',
        phone: '',
        message: 'Desservez-vous Lévis?',
      }),
    );
    expect(message.status).toBe(200);
    expect(crm.contacts.get('c2')).toMatchObject({ tags: ['Website Message', 'French'] });
    // An English lead is sent as the spec's payload has it: no language tag or field.
    await e.post(JSON.stringify(sampleClaim({ email: 'en@example.ca', phone: '416-555-0177' })));
    const english = crm.contacts.get('c3') as { tags?: string[] };
    expect(english.tags).not.toContain('French');
    expect(crm.fieldsOf('c3')).not.toHaveProperty('preferred_language');
  });

  it('delivers the contact-page message with its note', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const e = await endpoint(crm.env());
    const res = await e.post(
      JSON.stringify({
        form: 'contact',
        submissionId: 'msg-0000-0000-0001',
        page: '/contact/',
        fullName: 'Ana Silva',
        email: 'ana@example.ca',
        phone: '',
        message: 'Do you cover Cape Breton?',
      }),
    );
    expect(res.status).toBe(200);
    expect(crm.contacts.get('c1')).toMatchObject({
      firstName: 'Ana',
      lastName: 'Silva',
      tags: ['Website Message'],
    });
    expect(crm.notes[0]?.body).toContain('Do you cover Cape Breton?');
  });

  it('keeps a lead in the outbox when the CRM is down, and `leads retry` delivers it once', async () => {
    crm = await startFakeCrm({ api: 'v2' });
    crm.setFailureRate(1);
    const e = await endpoint(crm.env());
    const res = await e.post(JSON.stringify(sampleClaim()));
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true, status: 'queued' });
    const queued = await outboxLines(e.outbox);
    expect(queued).toHaveLength(1);
    expect(queued[0]?.lead.email).toBe('marie@example.ca');
    expect(e.logs.some((l) => l.includes('Failed to submit contact to GHL'))).toBe(true);

    const list = runCli(['leads', 'list', '--outbox', e.outbox]);
    expect(list.stdout).toContain('1 lead waiting');
    expect(list.stdout).toContain('marie@example.ca');

    const stillDown = await runCliAsync(['leads', 'retry', '--outbox', e.outbox], {
      env: crm.env(),
    });
    expect(stillDown.code).toBe(1);
    expect(stillDown.stdout).toContain('Delivered 0, still waiting 1, refused for good now 0.');

    crm.setFailureRate(0);
    const [r1, r2] = await Promise.all([
      runCliAsync(['leads', 'retry', '--outbox', e.outbox], { env: crm.env() }),
      runCliAsync(['leads', 'retry', '--outbox', e.outbox], { env: crm.env() }),
    ]);
    expect([r1.code, r2.code]).toEqual([0, 0]);
    expect(crm.contacts.size).toBe(1);
    expect(await outboxLines(e.outbox)).toEqual([]);
    expect(runCli(['leads', 'list', '--outbox', e.outbox]).stdout).toContain('No leads waiting');
    // The same submission arriving again after the retry delivered it creates nothing new.
    expect((await e.post(JSON.stringify(queued[0]?.lead))).status).toBe(200);
    expect(crm.contacts.size).toBe(1);
  });

  it('queues every lead when no CRM token is configured', async () => {
    const e = await endpoint({});
    const res = await e.post(JSON.stringify(sampleClaim()));
    expect(res.status).toBe(202);
    expect(await outboxLines(e.outbox)).toHaveLength(1);
  });

  it('reports its health with the number of leads waiting, and nothing personal', async () => {
    const e = await endpoint({ GHL_TOKEN: '' });
    const health = async () => {
      const res = await fetch(`${e.url}/api/health`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      return res.json();
    };
    expect(await health()).toEqual({
      status: 'ok',
      outbox: { waiting: 0 },
      delivery: NOT_DELIVERED,
    });
    const claim = sampleClaim();
    expect((await e.post(JSON.stringify(claim))).status).toBe(202);
    await e.post(JSON.stringify(claim));
    expect(await health()).toEqual({
      status: 'ok',
      outbox: { waiting: 1 },
      delivery: NOT_DELIVERED,
    });
    expect(JSON.stringify(await health())).not.toContain(claim.email);
  });
});
