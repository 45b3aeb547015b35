import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { configFromEnv } from '../../src/lead/config.js';
import { createLeadService } from '../../src/lead/handler.js';
import { withConfiguredStore } from '../../src/lead/open-store.js';
import { startServer } from '../../src/serve/server.js';
import { createStaticHandler } from '../../src/serve/static.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { dataCopy, FIXTURE_DATA } from '../helpers.js';
import { launchBrowser, openPage } from './harness.js';

/**
 * The deploy recipe of a static host (Cloudflare Pages, GitHub Pages) with the lead endpoint on a
 * Node host: pages on one origin, under their _headers, and the endpoint on another, with the
 * site's origin allowed. Two loopback ports are two origins to the browser.
 */
let browser: Browser;
let crm: FakeCrm;
let site: Server;
let endpoint: Server;
let siteUrl: string;

beforeAll(async () => {
  const { data, out } = await dataCopy(FIXTURE_DATA);
  const serveStatic = createStaticHandler(out);
  site = createServer((req, res) => void serveStatic(req, res));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  [browser, crm] = await Promise.all([launchBrowser(), startFakeCrm({ api: 'v2' })]);
  const config = configFromEnv({
    ...crm.env(),
    SITE_ORIGIN: siteUrl,
    LEAD_OUTBOX_PATH: path.join(out, '..', 'outbox', 'leads.db'),
    // The time trap has tests of its own; a test browser fills forms faster than people.
    LEAD_MIN_FILL_MS: '0',
  });
  const api = await startServer({
    dir: path.join(out, '..'),
    port: 0,
    host: 'localhost',
    leads: createLeadService(withConfiguredStore({ config, log: () => {} })),
  });
  endpoint = api.server;
  const file = path.join(data, 'site.json');
  const settings = JSON.parse(await readFile(file, 'utf8'));
  await writeFile(file, JSON.stringify({ ...settings, leadEndpoint: `${api.url}/api/lead` }));
  await generate({ dataDir: data, outDir: out });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => site?.close(r));
  await new Promise((r) => endpoint?.close(r));
  await crm?.close();
});

describe('pages on a static host, the lead endpoint elsewhere', () => {
  for (const js of [true, false]) {
    it(`delivers a questionnaire ${js ? 'by the script (CORS, preflight)' : 'posted without JavaScript'} and lands on the site's confirmation`, async () => {
      const before = crm.contacts.size;
      const { page, context, errors } = await openPage(browser, 1280, { javaScriptEnabled: js });
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|CORS/i.test(m.text())) violations.push(m.text());
      });
      await page.goto(`${siteUrl}/whitehorse/storm-damage-claims/`);
      await page.getByLabel('Commercial').check();
      await page.getByLabel('Wind').check();
      if (js) await page.locator('[data-next]').click();
      await page.getByLabel('Estimated value of the damage').selectOption('500k_1m');
      await page.getByLabel('What happened?').fill('Roof membrane torn off in a windstorm.');
      if (js) await page.locator('[data-next]').click();
      await page.getByLabel('Full name').fill(`Jo Remote ${js}`);
      await page.getByRole('textbox', { name: 'Email' }).fill(`jo.remote.${js}@example.ca`);
      await page
        .getByRole('textbox', { name: 'Phone', exact: true })
        .fill(js ? '867 555 0101' : '867 555 0102');
      await page.getByLabel('Property address').fill('2 Main St, Whitehorse, YT');
      await page.getByRole('radio', { name: 'Phone', exact: true }).check();
      await Promise.all([
        page.waitForURL(`${siteUrl}/confirmation/?city=Whitehorse&*`),
        page.locator('[data-submit]').click(),
      ]);
      expect(crm.contacts.size).toBe(before + 1);
      expect(violations).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('answers a preflight only for the allowed origin', async () => {
    const url = (endpoint.address() as AddressInfo).port;
    const ask = (origin: string) =>
      fetch(`http://localhost:${url}/api/lead`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
    const ok = await ask(siteUrl);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(siteUrl);
    expect(ok.headers.get('access-control-allow-methods')).toBe('POST');
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(ok.headers.get('vary')).toBe('Origin');
    const other = await ask('https://evil.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
