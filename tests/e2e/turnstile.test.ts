import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { contentSecurityPolicy } from '../../src/generate/host-files.js';
import { startServer } from '../../src/serve/server.js';
import { loadSite } from '../../src/site/load.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { dataCopy, FIXTURE_DATA, fixtureSite } from '../helpers.js';
import { LEAD_FIELDS } from '../lead/sample.js';
import { launchBrowser, openPage } from './harness.js';

/**
 * Cloudflare Turnstile on the built site: Cloudflare's script stands in for itself in the browser
 * (its documented explicit-render API: `turnstile.render(container, { sitekey })` puts a frame
 * and a `cf-turnstile-response` field in the container; `reset` makes a new token), siteverify
 * is a server on loopback, the endpoint and the pages are the real ones under their _headers.
 */
const SITE_KEY = '1x00000000000000000000AA';
const SECRET = '1x0000000000000000000000000000000AA';
const FAKE_TURNSTILE = `(() => {
  let tokens = 0;
  const widgets = {};
  window.turnstile = {
    render(el, options) {
      const frame = document.createElement('iframe');
      frame.src = 'https://challenges.cloudflare.com/cdn-cgi/challenge-platform/widget';
      frame.title = 'Widget containing a Cloudflare security challenge';
      frame.width = '300';
      frame.height = '65';
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = 'cf-turnstile-response';
      el.append(frame, input);
      const id = 'w' + Object.keys(widgets).length;
      const issue = () => setTimeout(() => { input.value = options.sitekey + ':token-' + ++tokens; }, 50);
      widgets[id] = issue;
      issue();
      return id;
    },
    reset(id) { widgets[id](); },
  };
})();`;

let browser: Browser;
let crm: FakeCrm;
let server: Server;
let verify: Server;
let url: string;
const checked: URLSearchParams[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  verify = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    checked.push(form);
    const good =
      form.get('secret') === SECRET &&
      (form.get('response') ?? '').startsWith(`${SITE_KEY}:token-`) &&
      checked.filter((f) => f.get('response') === form.get('response')).length === 1;
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(
        JSON.stringify({ success: good, 'error-codes': good ? [] : ['invalid-input-response'] }),
      );
  });
  await new Promise<void>((r) => verify.listen(0, '127.0.0.1', r));
  const { data, out } = await dataCopy(FIXTURE_DATA);
  const file = path.join(data, 'site.json');
  // The key comes from the build's environment, as in a deploy.
  process.env.TURNSTILE_SITE_KEY = SITE_KEY;
  [browser, crm] = await Promise.all([
    launchBrowser(),
    startFakeCrm({ api: 'v2', fields: LEAD_FIELDS }),
    generate({ dataDir: data, outDir: out }),
  ]);
  delete process.env.TURNSTILE_SITE_KEY;
  expect(JSON.parse(await readFile(file, 'utf8')).turnstileSiteKey).toBeUndefined();
  Object.assign(process.env, crm.env(), {
    LEAD_OUTBOX_PATH: path.join(out, '..', 'outbox', 'leads.jsonl'),
    LEAD_MIN_FILL_MS: '0',
    TURNSTILE_SECRET: SECRET,
    TURNSTILE_VERIFY_URL: `http://127.0.0.1:${(verify.address() as AddressInfo).port}/siteverify`,
  });
  for (const k of ['SITE_ORIGIN', 'SITE_URL']) delete process.env[k];
  ({ server, url } = await startServer({ dir: out, port: 0, host: '127.0.0.1', log: () => {} }));
}, 120_000);
afterAll(async () => {
  process.env = saved;
  await browser?.close();
  await new Promise((r) => server?.close(r));
  await new Promise((r) => verify?.close(r));
  await crm?.close();
});

describe('Cloudflare Turnstile', () => {
  it("allows Cloudflare's origin in the Content-Security-Policy only with a site key", async () => {
    const { settings } = await fixtureSite();
    expect(contentSecurityPolicy(settings)).not.toContain('challenges.cloudflare.com');
    const csp = contentSecurityPolicy({ ...settings, turnstileSiteKey: SITE_KEY });
    expect(csp).toMatch(/script-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    expect(csp).toMatch(/frame-src https:\/\/challenges\.cloudflare\.com(;|$)/);
    // A key that is not one, from the build's environment, is named as such.
    process.env.TURNSTILE_SITE_KEY = 'not-a-key';
    const err = await loadSite(FIXTURE_DATA).catch((e) => e);
    delete process.env.TURNSTILE_SITE_KEY;
    expect(String(err)).toContain('TURNSTILE_SITE_KEY');
    expect(String(err)).toContain('must be a Turnstile site key');
  });

  it('loads the widget when the visitor enters the form, and the endpoint delivers a lead whose token siteverify accepts', async () => {
    const { page, context, errors } = await openPage(browser, 375);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const cloudflare: string[] = [];
    await context.route('https://challenges.cloudflare.com/**', (route) => {
      cloudflare.push(route.request().url());
      return new URL(route.request().url()).pathname === '/turnstile/v0/api.js'
        ? route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_TURNSTILE })
        : route.fulfill({ status: 200, contentType: 'text/html', body: '<p>challenge</p>' });
    });
    await page.goto(`${url}/toronto/public-adjusters/`);
    await page.waitForLoadState('networkidle');
    // Nothing of Cloudflare for a visitor who has not started the form.
    expect(cloudflare).toEqual([]);
    await page.getByLabel('Residential').check();
    await page.getByLabel('Water').check();
    await page.locator('[data-next]').click();
    await page.getByLabel('Estimated value of the damage').selectOption('100k_250k');
    await page.getByLabel('What happened?').fill('Water came through the foundation.');
    await page.locator('[data-next]').click();
    await page.getByLabel('Full name').fill('Tess Turnstile');
    await page.getByRole('textbox', { name: 'Email' }).fill('tess@example.ca');
    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('416-555-0177');
    await page.getByLabel('Property address').fill('1 Front St, Toronto, ON');
    await page.getByLabel('Both').check();
    expect(cloudflare[0]).toBe(
      'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    );
    expect(await page.locator('.turnstile-slot iframe').isVisible()).toBe(true);
    await Promise.all([
      page.waitForURL('**/confirmation/?city=Toronto&*'),
      page.locator('[data-submit]').click(),
    ]);
    expect([...crm.contacts.values()].map((c) => c.email)).toEqual(['tess@example.ca']);
    expect(checked.map((f) => [f.get('secret'), f.get('response')])).toEqual([
      [SECRET, `${SITE_KEY}:token-1`],
    ]);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
