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
        page.waitForURL('**/confirmation/?city=Whitehorse&*'),
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

  it('the night of the damage: "I\'m not sure yet" reaches the CRM as such, and the confirmation gives its reference and what to do meanwhile', async () => {
    const { page, context, errors } = await openPage(browser, 375);
    await page.goto(`${url}/vancouver/public-adjusters`);
    await page.getByLabel('Residential').check();
    await page.getByLabel('Water').check();
    await page.locator('[data-next]').click();
    // The five ranges kept, then the answer of someone who cannot know yet.
    const choices = await page
      .locator('#q-value option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(choices).toEqual([
      '',
      '50k_100k',
      '100k_250k',
      '250k_500k',
      '500k_1m',
      'over_1m',
      'not_sure',
    ]);
    await page
      .getByLabel('Estimated value of the damage')
      .selectOption({ label: "I'm not sure yet" });
    await page.getByLabel('What happened?').fill('The basement flooded last night.');
    await page.locator('[data-next]').click();
    await page.getByLabel('Full name').fill('Sam Night');
    await page.getByRole('textbox', { name: 'Email' }).fill('sam.night@example.ca');
    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('604 555 0111');
    await page.getByLabel('Property address').fill('5 River Rd, Vancouver, BC');
    await page.getByRole('radio', { name: 'Phone', exact: true }).check();
    await Promise.all([
      page.waitForURL(/\/confirmation\/\?city=Vancouver&ref=[0-9A-F]{8}&damage=water$/),
      page.locator('[data-submit]').click(),
    ]);
    const note = crm.notes.at(-1)?.body ?? '';
    expect(note).toContain('Estimated value: Not sure yet');
    const id = /Submission: (\S+)/.exec(note)?.[1] ?? '';
    expect(id).not.toBe('');
    // The reference shown is the submission's, as the owner finds it in the CRM's note.
    const ref = page.locator('[data-confirmation-ref]');
    expect(await ref.isVisible()).toBe(true);
    expect(await ref.locator('strong').textContent()).toBe(id.slice(0, 8).toUpperCase());
    // What happens next in the firm's words (the fixture sets none: no time is promised), and
    // while you wait: the water line shown, the fire one not.
    expect(await page.locator('main').textContent()).not.toContain('24 hours');
    expect(await page.getByText('stop the water at the main valve').isVisible()).toBe(true);
    expect(await page.getByText('fire department says').isVisible()).toBe(false);
    expect(await page.getByText('Do not sign a release').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
