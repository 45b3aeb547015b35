import type { Server } from 'node:http';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { startServer } from '../../src/serve/server.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { FIXTURE_DATA, tempDir } from '../helpers.js';
import { launchBrowser, openPage } from './harness.js';

let browser: Browser;
let crm: FakeCrm;
let server: Server;
let url: string;
const saved = { ...process.env };

beforeAll(async () => {
  const dist = path.join(await tempDir(), 'dist');
  [browser, crm] = await Promise.all([
    launchBrowser(),
    startFakeCrm({ api: 'v2' }),
    generate({ dataDir: FIXTURE_DATA, outDir: dist }),
  ]);
  Object.assign(process.env, crm.env(), {
    LEAD_OUTBOX_PATH: path.join(dist, '..', 'outbox', 'leads.db'),
    // The time trap has tests of its own; a test browser fills forms faster than people.
    LEAD_MIN_FILL_MS: '0',
  });
  delete process.env.SITE_ORIGIN;
  ({ server, url } = await startServer({ dir: dist, port: 0, host: '127.0.0.1', log: () => {} }));
});
afterAll(async () => {
  process.env = saved;
  await browser?.close();
  await new Promise((r) => server?.close(r));
  await crm?.close();
});

describe('browser to CRM', () => {
  for (const js of [true, false]) {
    it(`a questionnaire sent ${js ? 'by the script' : 'without JavaScript'} becomes a CRM contact with its note`, async () => {
      const before = crm.contacts.size;
      const { page, context } = await openPage(browser, 1280, { javaScriptEnabled: js });
      await page.goto(`${url}/whitehorse/storm-damage-claims`);
      await page.getByLabel('Commercial').check();
      await page.getByLabel('Wind').check();
      if (js) await page.locator('[data-next]').click();
      await page.getByLabel('Estimated value of the damage').selectOption('500k_1m');
      await page.getByLabel('What happened?').fill('Roof membrane torn off in a windstorm.');
      if (js) await page.locator('[data-next]').click();
      await page.getByLabel('Full name').fill(`Jo Tremblay ${js ? 'Script' : 'Plain'}`);
      await page.getByRole('textbox', { name: 'Email' }).fill(`jo.${js}@example.ca`);
      await page
        .getByRole('textbox', { name: 'Phone', exact: true })
        .fill(js ? '867 555 0101' : '867 555 0102');
      await page.getByLabel('Property address').fill('2 Main St, Whitehorse, YT');
      await page.getByRole('radio', { name: 'Phone', exact: true }).check();
      await Promise.all([
        page.waitForURL('**/confirmation/?city=Whitehorse'),
        page.locator('[data-submit]').click(),
      ]);
      expect(crm.contacts.size).toBe(before + 1);
      const contact = [...crm.contacts.values()].at(-1);
      // The storm page's form starts with Storm ticked; the visitor added Wind.
      expect(contact).toMatchObject({
        firstName: 'Jo',
        tags: ['Insurance Claim', 'commercial', 'wind', 'storm'],
        address1: '2 Main St, Whitehorse, YT',
      });
      expect(crm.notes.at(-1)?.body).toContain('Roof membrane torn off in a windstorm.');
      await context.close();
    });
  }
});
