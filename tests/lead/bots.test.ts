import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/lead/config.js';
import { createLeadService } from '../../src/lead/handler.js';
import { withConfiguredStore } from '../../src/lead/open-store.js';
import { startServer } from '../../src/serve/server.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { tempDir } from '../helpers.js';
import { confirmationQuery, formOf, LEAD_FIELDS, sampleClaim } from './sample.js';

const ORIGIN = 'https://www.claimright.ca';
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

async function fakeCrm() {
  const crm = await startFakeCrm({ api: 'v2', fields: LEAD_FIELDS });
  closing.push(() => crm.close());
  return crm;
}

/** The endpoint on loopback as `serve` mounts it, configured from an environment. */
async function endpoint(crm: FakeCrm, env: Record<string, string> = {}) {
  const dir = await tempDir();
  const outbox = path.join(dir, 'outbox', 'leads.db');
  const logs: string[] = [];
  const config = configFromEnv({
    ...crm.env(),
    SITE_ORIGIN: ORIGIN,
    LEAD_OUTBOX_PATH: outbox,
    LEAD_RATE_LIMIT: '50',
    ...env,
  });
  const leads = createLeadService(
    withConfiguredStore({
      config,
      log: (e, f) => logs.push(JSON.stringify({ e, ...f })),
    }),
  );
  const s = await startServer({ dir, port: 0, host: '127.0.0.1', leads, noRetries: true });
  closing.push(async () => {
    await s.close(0);
    await leads.deliverer.store.close();
  });
  const post = (body: string, type = 'application/json') =>
    fetch(`${s.url}/api/lead`, {
      method: 'POST',
      headers: { 'Content-Type': type, Origin: ORIGIN },
      body,
      redirect: 'manual',
    });
  const waiting = async () => (await leads.deliverer.store.counts()).waiting;
  return { post, logs, waiting };
}

let people = 0;
const person = (over: Record<string, unknown> = {}) => {
  people++;
  return {
    ...sampleClaim({ email: `p${people}@example.ca`, phone: `416-555-${1000 + people}` }),
    ...over,
  };
};

describe('the time trap', () => {
  it('answers a form sent faster than a person can exactly as a success, and drops it', async () => {
    const crm = await fakeCrm();
    const e = await endpoint(crm);
    const real = await e.post(JSON.stringify(person({ elapsedMs: 45_000 })));
    const fast = await e.post(JSON.stringify(person({ elapsedMs: 900 })));
    expect([real.status, fast.status]).toEqual([200, 200]);
    expect(await fast.json()).toEqual(await real.json());
    expect(fast.headers.get('content-type')).toBe(real.headers.get('content-type'));
    // Without JavaScript the same: the confirmation page, with the city, a reference and the damage.
    const trapped = person({ elapsedMs: 300, city: 'Toronto' });
    const plain = await e.post(formOf(trapped).toString(), 'application/x-www-form-urlencoded');
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(
      `${ORIGIN}/confirmation/?${confirmationQuery(trapped)}`,
    );
    // Only the real one reached the CRM; nothing waits, and the log says why.
    expect(crm.contacts.size).toBe(1);
    expect(await e.waiting()).toBe(0);
    expect(e.logs.filter((l) => l.includes('"reason":"time trap"'))).toHaveLength(2);
  });

  it('judges no form that sends no time (posted without the script), and is off at 0', async () => {
    const crm = await fakeCrm();
    const e = await endpoint(crm);
    expect((await e.post(JSON.stringify(person()))).status).toBe(200);
    const off = await endpoint(crm, { LEAD_MIN_FILL_MS: '0' });
    expect((await off.post(JSON.stringify(person({ elapsedMs: 10 })))).status).toBe(200);
    expect(crm.contacts.size).toBe(2);
    expect(() => configFromEnv({ LEAD_MIN_FILL_MS: '-1' })).toThrow(
      'LEAD_MIN_FILL_MS must be a number, 0 or more',
    );
  });
});

/**
 * Cloudflare's siteverify on loopback, as documented: a POST (form-encoded) of `secret`,
 * `response` and `remoteip`, answered with `success` and `error-codes`; each token good once.
 */
async function fakeSiteverify(secret: string, good: string[]) {
  const got: URLSearchParams[] = [];
  const used = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    got.push(form);
    const token = form.get('response') ?? '';
    const codes =
      form.get('secret') !== secret
        ? ['invalid-input-secret']
        : !token
          ? ['missing-input-response']
          : used.has(token)
            ? ['timeout-or-duplicate']
            : good.includes(token)
              ? []
              : ['invalid-input-response'];
    if (codes.length === 0) used.add(token);
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ success: codes.length === 0, 'error-codes': codes }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closing.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`, got };
}

describe('Cloudflare Turnstile', () => {
  it('checks each token with siteverify when TURNSTILE_SECRET is set, and refuses a bad or missing one', async () => {
    const crm = await fakeCrm();
    const verify = await fakeSiteverify('0x4AAA-secret', ['token-good-1', 'token-good-2']);
    const e = await endpoint(crm, {
      TURNSTILE_SECRET: '0x4AAA-secret',
      TURNSTILE_VERIFY_URL: verify.url,
    });
    const ok = await e.post(JSON.stringify(person({ turnstileToken: 'token-good-1' })));
    expect(ok.status).toBe(200);
    expect(verify.got[0]?.get('secret')).toBe('0x4AAA-secret');
    expect(verify.got[0]?.get('response')).toBe('token-good-1');
    expect(verify.got[0]?.get('remoteip')).toMatch(/127\.0\.0\.1/);
    for (const token of [undefined, 'token-forged', 'token-good-1']) {
      const res = await e.post(JSON.stringify(person({ turnstileToken: token })));
      expect(res.status, String(token)).toBe(403);
      expect((await res.json()).error).toBe('the bot check failed: send the form again');
    }
    // The widget's own field in a form posted without the script.
    const checked = person();
    const plain = await e.post(
      `${formOf(checked).toString()}&cf-turnstile-response=token-good-2`,
      'application/x-www-form-urlencoded',
    );
    expect(plain.headers.get('location')).toBe(
      `${ORIGIN}/confirmation/?${confirmationQuery(checked)}`,
    );
    expect(crm.contacts.size).toBe(2);
    expect(await e.waiting()).toBe(0);
  });

  it('refuses when siteverify cannot be reached, and asks nothing without a secret', async () => {
    const crm = await fakeCrm();
    const down = await endpoint(crm, {
      TURNSTILE_SECRET: 'secret',
      TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
    });
    expect((await down.post(JSON.stringify(person({ turnstileToken: 't' })))).status).toBe(403);
    const verify = await fakeSiteverify('secret', []);
    const off = await endpoint(crm, { TURNSTILE_VERIFY_URL: verify.url });
    expect((await off.post(JSON.stringify(person({ turnstileToken: 'anything' })))).status).toBe(
      200,
    );
    expect(verify.got).toEqual([]);
  });
});
