import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TrustedProxies } from '../../src/lead/client-ip.js';
import { configFromEnv } from '../../src/lead/config.js';
import { openLeadStore } from '../../src/lead/open-store.js';
import { startServer } from '../../src/serve/server.js';
import { startFakeCrm } from '../fake-crm.js';
import { BIN, runCliAsync, tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';

const ORIGIN = 'https://www.claimright.ca';
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/**
 * The endpoint as production runs it: `serve`'s own service (its store, its scheduled retries,
 * its alerts), configured from the environment, on loopback.
 */
async function production(env: Record<string, string>) {
  const dir = await tempDir();
  const outbox = path.join(dir, 'outbox', 'leads.db');
  const saved = { ...process.env };
  Object.assign(process.env, { SITE_ORIGIN: ORIGIN, LEAD_OUTBOX_PATH: outbox, ...env });
  const logs: string[] = [];
  const s = await startServer({
    dir,
    port: 0,
    host: '127.0.0.1',
    log: (e, f) => logs.push(JSON.stringify({ e, ...f })),
  });
  process.env = saved;
  closing.push(() => s.close(0));
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${s.url}/api/lead`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    });
  const store = openLeadStore({ outboxPath: outbox }, () => {});
  closing.push(() => store.close());
  return { url: s.url, outbox, logs, post, store };
}

async function fakeCrm(options: Parameters<typeof startFakeCrm>[0]) {
  const crm = await startFakeCrm(options);
  closing.push(() => crm.close());
  return crm;
}

/** A webhook receiver on loopback: Slack's and Teams' shape, a JSON body with `text`. */
async function receiver() {
  const got: Array<{ text: string }> = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    got.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closing.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

const until = async (check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out waiting');
};

let people = 0;
/** A different person each time: the CRM matches contacts by e-mail, then phone. */
const person = (over = {}) => {
  people++;
  return sampleClaim({
    email: `person${people}@example.ca`,
    phone: `416-555-${String(1000 + people).slice(-4)}`,
    ...over,
  });
};

describe('the client address behind a proxy', () => {
  it('reads X-Forwarded-For only from trusted proxies, taking the right-most untrusted hop', () => {
    const none = new TrustedProxies('');
    expect(none.clientOf('10.0.0.2', '203.0.113.7')).toBe('10.0.0.2');
    const proxies = new TrustedProxies('127.0.0.1, 10.0.0.0/8, fd00::/8');
    expect(proxies.clientOf('::ffff:127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
    // A visitor's own X-Forwarded-For is on the left: ignored.
    expect(proxies.clientOf('10.1.2.3', '1.1.1.1, 203.0.113.7, 10.0.0.9')).toBe('203.0.113.7');
    expect(proxies.clientOf('fd00::1', '2001:db8::5')).toBe('2001:db8::5');
    expect(proxies.clientOf('192.0.2.50', '203.0.113.7')).toBe('192.0.2.50');
    expect(() => new TrustedProxies('10.0.0.0/33')).toThrow('no valid prefix length');
    expect(() => new TrustedProxies('proxy.local')).toThrow('is not an address');
  });

  it('limits each visitor behind a trusted proxy on their own, and says so with the phone', async () => {
    const crm = await fakeCrm({ api: 'v2' });
    const e = await production({
      ...crm.env(),
      LEAD_RATE_LIMIT: '2',
      LEAD_TRUSTED_PROXIES: '127.0.0.1',
    });
    // Ten visitors through the one proxy: none shares another's limit.
    for (let i = 0; i < 10; i++) {
      const res = await e.post(person(), { 'X-Forwarded-For': `203.0.113.${i}` });
      expect(res.status).toBe(200);
    }
    const again = () => e.post(person(), { 'X-Forwarded-For': '203.0.113.1' });
    expect((await again()).status).toBe(200);
    const limited = await again();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // A form posted without JavaScript goes to the page that explains it and names the phone.
    const form = new URLSearchParams(Object.entries(person()).map(([k, v]) => [k, String(v)]));
    const plain = await e.post(form.toString(), {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Forwarded-For': '203.0.113.1',
    });
    expect(plain.headers.get('location')).toBe(`${ORIGIN}/form-error/?status=429`);
  });

  it('trusts no proxy by default: a forged X-Forwarded-For does not escape the limit', async () => {
    const crm = await fakeCrm({ api: 'v2' });
    const e = await production({ ...crm.env(), LEAD_RATE_LIMIT: '2' });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await e.post(person(), { 'X-Forwarded-For': `198.51.100.${i}` })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('input hygiene', () => {
  it('refuses control characters in one-line fields, and trims names', async () => {
    const crm = await fakeCrm({ api: 'v2' });
    const e = await production(crm.env());
    for (const [field, value] of [
      ['fullName', 'Marie\r\nBcc: x@example.org'],
      ['phone', '416-555-0100\n'],
      ['city', 'Toronto\u0000'],
      ['address', '1 King St\r\nW'],
    ]) {
      const res = await e.post(person({ [field as string]: value }));
      expect(res.status, field).toBe(400);
      expect((await res.json()).error).toBe(
        `${field} must be one line, without line breaks or control characters`,
      );
    }
    expect(crm.contacts.size).toBe(0);
    expect((await e.post(person({ fullName: '  Marie   Claire   Tremblay ' }))).status).toBe(200);
    expect([...crm.contacts.values()][0]).toMatchObject({
      firstName: 'Marie',
      lastName: 'Claire Tremblay',
    });
  });
});

describe('one time budget', () => {
  it('answers within 8 s whatever the CRM does, keeps the lead, and later delivers it once', async () => {
    const crm = await fakeCrm({ api: 'v2' });
    // The CRM takes 10 s to answer and then acts: the browser must not wait for it.
    crm.fail('contact', ...Array.from({ length: 4 }, () => ({ stallMs: 10_000 })));
    const e = await production({ ...crm.env(), LEAD_RETRY_INTERVAL_MS: '300' });
    const t0 = Date.now();
    const res = await e.post(person());
    const took = Date.now() - t0;
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ ok: true, status: 'queued' });
    expect(took).toBeLessThan(8000);
    expect(took).toBeGreaterThan(6000);
    // The stalled call acts at last; the retry finds that contact and adds the one note.
    await until(
      async () => (await e.store.waiting()).length === 0 && crm.notes.length === 1,
      20_000,
    );
    expect(crm.contacts.size).toBe(1);
    expect(crm.duplicateNotes()).toBe(0);
  }, 30_000);
});

describe('the outbox drains itself', () => {
  it('delivers what waited once the CRM is back, with nobody running leads retry', async () => {
    const crm = await fakeCrm({ api: 'v2' });
    crm.down(60_000);
    const e = await production({ ...crm.env(), LEAD_RETRY_INTERVAL_MS: '200' });
    for (let i = 0; i < 3; i++) expect((await e.post(person())).status).toBe(202);
    // All three wait (a lead the retry loop is trying at this moment is back once it fails).
    await until(async () => (await e.store.waiting()).length === 3);
    expect(crm.contacts.size).toBe(0);
    crm.down(0);
    await until(async () => crm.contacts.size === 3 && (await e.store.waiting()).length === 0);
    expect(crm.notes).toHaveLength(3);
  });

  it('runs safely beside leads retry: each lead once', async () => {
    const crm = await fakeCrm({ api: 'v2' });
    crm.down(60_000);
    const e = await production({
      ...crm.env(),
      LEAD_RETRY_INTERVAL_MS: '100',
      LEAD_RATE_LIMIT: '100',
    });
    for (let i = 0; i < 8; i++) expect((await e.post(person())).status).toBe(202);
    crm.down(0);
    const retry = await runCliAsync(['leads', 'retry', '--outbox', e.outbox], { env: crm.env() });
    expect(retry.code).toBe(0);
    // A lead the retry loop holds at this moment is neither waiting nor delivered yet.
    await until(async () => crm.contacts.size >= 8 && (await e.store.waiting()).length === 0);
    expect(crm.contacts.size).toBe(8);
    expect(crm.notes).toHaveLength(8);
  });

  it('moves a lead the CRM refuses for good to the dead letters: listed, retry says so and exits 0, drop asks first', async () => {
    const crm = await fakeCrm({ api: 'v2' });
    // A refusal that names no field the lead could go without (one that does is dropped, and the
    // lead delivered without it: tests/lead/crm-data.test.ts).
    crm.fail('contact', { status: 400, message: ['The contact could not be saved'] });
    const e = await production(crm.env());
    const lead = person();
    expect((await e.post(lead)).status).toBe(202);
    expect(await e.store.waiting()).toEqual([]);
    expect(await e.store.dead()).toMatchObject([
      {
        submissionId: lead.submissionId,
        reason: 'contact: HTTP 400: The contact could not be saved',
      },
    ]);
    const list = await runCliAsync(['leads', 'list', '--outbox', e.outbox]);
    expect(list.stdout).toContain('No leads waiting');
    expect(list.stdout).toContain(
      '1 dead letter, refused by the CRM for good (deleted 30 days after):',
    );
    expect(list.stdout).toContain('The contact could not be saved');
    const retry = await runCliAsync(['leads', 'retry', '--outbox', e.outbox], { env: crm.env() });
    expect(retry.code).toBe(0);
    expect(retry.stdout).toContain('1 dead letter waits for you');
    // Asked, and answered no: kept. Answered yes: gone.
    const answer = (text: string) =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, [
          BIN,
          'leads',
          'drop',
          lead.submissionId,
          '--outbox',
          e.outbox,
        ]);
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.stdin.end(`${text}\n`);
        child.on('close', () => resolve(out));
      });
    expect(await answer('n')).toContain('Nothing dropped.');
    expect(await e.store.dead()).toHaveLength(1);
    expect(await answer('y')).toContain(`Dropped lead ${lead.submissionId}.`);
    expect(await e.store.dead()).toEqual([]);
  });
});

describe('someone is told', () => {
  it('alerts a lead waiting too long, a dead letter and a refused token, at most once an hour each, naming no person', async () => {
    const hook = await receiver();
    const crm = await fakeCrm({ api: 'v2', token: 'pit-right' });
    const e = await production({
      ...crm.env(),
      GHL_TOKEN: 'pit-revoked',
      LEAD_ALERT_WEBHOOK: hook.url,
      LEAD_ALERT_AFTER_MS: '300',
      LEAD_RETRY_INTERVAL_MS: '200',
    });
    const a = person({ city: 'Halifax' });
    const b = person({ city: 'Halifax' });
    expect((await e.post(a)).status).toBe(202);
    expect((await e.post(b)).status).toBe(202);
    await until(() => hook.got.some((m) => m.text.includes('refused the API token')));
    await until(() => hook.got.some((m) => m.text.includes('waited')), 10_000);
    const messages = hook.got.map((m) => m.text);
    // Once per condition, however many leads and drains met it.
    expect(messages.filter((t) => t.includes('refused the API token'))).toHaveLength(1);
    expect(messages.filter((t) => t.includes('waited'))).toHaveLength(1);
    for (const text of messages) {
      expect(text).toContain('Halifax');
      for (const personal of [a.email, a.phone, a.fullName, b.email, 'King St'])
        expect(text).not.toContain(personal);
    }
  });

  it('alerts a dead letter by its id and city', async () => {
    const hook = await receiver();
    const crm = await fakeCrm({ api: 'v2' });
    crm.fail(
      'contact',
      { status: 400, message: ['The contact could not be saved'] },
      { status: 400, message: ['The contact could not be saved'] },
    );
    const e = await production({ ...crm.env(), LEAD_ALERT_WEBHOOK: hook.url });
    const a = person({ city: 'Moncton' });
    await e.post(a);
    await e.post(person({ city: 'Moncton' }));
    await until(() => hook.got.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.got).toHaveLength(1);
    expect(hook.got[0]?.text).toContain(a.submissionId);
    expect(hook.got[0]?.text).toContain('Moncton');
    // The status and a digest: the CRM's words, which may quote the person, stay out of alerts.
    expect(hook.got[0]?.text).toMatch(/HTTP 400 \(answer sha256 [0-9a-f]{12}\)/);
    expect(hook.got[0]?.text).not.toContain('The contact could not be saved');
  });
});

describe('who may post', () => {
  it('takes the site from SITE_URL when SITE_ORIGIN is unset, and from the built site for serve', async () => {
    expect(configFromEnv({ SITE_URL: 'https://claims.example.org/' }).allowedOrigins).toEqual([
      'https://claims.example.org',
    ]);
    expect(configFromEnv({}).allowedOrigins).toEqual([]);
    const dir = await tempDir();
    const out = path.join(dir, 'dist');
    const built = await runCliAsync([
      'generate',
      '--data',
      path.join(process.cwd(), 'tests/fixtures/data'),
      '--out',
      out,
      '--quiet',
      '--base-url',
      'https://claims.example.org',
    ]);
    expect(built.code).toBe(0);
    const saved = { ...process.env };
    for (const k of ['SITE_ORIGIN', 'SITE_URL', 'GHL_TOKEN']) delete process.env[k];
    process.env.LEAD_OUTBOX_PATH = path.join(dir, 'outbox', 'leads.db');
    const s = await startServer({ dir: out, port: 0, host: '127.0.0.1', noRetries: true });
    process.env = saved;
    closing.push(() => s.close(0));
    const from = (origin: string) =>
      fetch(`${s.url}/api/lead`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: origin },
        body: JSON.stringify(person()),
      });
    expect((await from('https://claims.example.org')).status).toBe(202);
    expect((await from(s.url)).status).toBe(202);
    expect((await from('https://evil.example')).status).toBe(403);
  });
});
