import { cp, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/generate/generate.js';
import { startServer } from '../../src/serve/server.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { BUNDLED_DATA, runCliAsync, tempDir } from '../helpers.js';
import { interceptGoogle } from './fake-google.js';
import { launchBrowser, openPage } from './harness.js';

/**
 * The operator's closed loop in Chromium, on the bundled site with a GA4 measurement id, a
 * tracking number for Google Ads visits and a GHL booking calendar, served with the real lead
 * endpoint in front of the fake GoHighLevel with a pipeline and a speed-to-lead workflow: the
 * number a visit from an ad shows, consent by purpose, the paid click remembered across visits,
 * the opportunity and the enrolment, and the booking step.
 */
const TRACKING = { display: '1-888-555-0101', tel: 'tel:+18885550101' };
const MAIN_TEL = 'tel:+18883399809';
const CALENDAR = 'https://api.leadconnectorhq.com/widget/booking/claims-call';
const DAY = 24 * 3600 * 1000;

let browser: Browser;
let crm: FakeCrm;
let server: Server;
let url: string;
const saved = { ...process.env };

beforeAll(async () => {
  const dir = await tempDir('claimsite-loop-');
  const data = path.join(dir, 'data');
  await cp(BUNDLED_DATA, data, { recursive: true });
  const settings = JSON.parse(await readFile(path.join(data, 'site.json'), 'utf8'));
  await writeFile(
    path.join(data, 'site.json'),
    JSON.stringify({
      ...settings,
      analyticsId: 'G-TEST12345',
      tracking: { phones: [{ source: 'google', medium: 'cpc', number: TRACKING.display }] },
      booking: { calendar: CALENDAR },
    }),
  );
  const dist = path.join(dir, 'dist');
  [browser, crm] = await Promise.all([
    launchBrowser(),
    startFakeCrm({ api: 'v2' }),
    generate({ dataDir: data, outDir: dist }),
  ]);
  const env = { ...crm.env(), ...crm.pipelineEnv() };
  const fix = await runCliAsync(['leads', 'check', '--fix'], { env });
  expect(fix.code, fix.stdout).toBe(0);
  Object.assign(process.env, env, {
    LEAD_OUTBOX_PATH: path.join(dir, 'outbox', 'leads.db'),
    LEAD_RATE_LIMIT: '100',
    LEAD_MIN_FILL_MS: '0',
  });
  for (const k of ['SITE_ORIGIN', 'SITE_URL', 'GHL_CUSTOM_FIELD_IDS', 'LEAD_VALUES'])
    delete process.env[k];
  ({ server, url } = await startServer({ dir: dist, port: 0, host: '127.0.0.1', log: () => {} }));
}, 180_000);
afterAll(async () => {
  process.env = saved;
  await browser?.close();
  await new Promise((r) => server?.close(r));
  await crm?.close();
});

const telLinks = (page: Page) =>
  page.locator('a[href^="tel:"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
const consentCalls = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: IArguments[] }).dataLayer ?? [])
      .map((a) => Array.from(a))
      .filter((a) => a[0] === 'consent'),
  );

async function fillQuestionnaire(page: Page) {
  await page.getByLabel('Residential').check();
  await page.getByLabel('Water').check();
  await page.locator('[data-next]').click();
  await page.getByLabel('Estimated value of the damage').selectOption('100k_250k');
  await page.getByLabel('What happened?').fill('The basement flooded after the storm.');
  await page.locator('[data-next]').click();
  await page.getByLabel('Full name').fill('Gabriel Clickson');
  await page.getByRole('textbox', { name: 'Email' }).fill('  Gabriel@Example.ca ');
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('(416) 555-0177');
  await page.getByLabel('Property address').fill('9 Front St W');
  await page.getByLabel('Postal code (optional)').fill('m5j 1e6');
  await page.getByLabel('Both').check();
}

describe('calls attributed first-party', () => {
  it("shows a google / cpc visit the rule's tracking number in every tel: link and every number shown, and the main number without JavaScript", async () => {
    const plain = await openPage(browser, 1280, { javaScriptEnabled: false });
    await plain.page.goto(`${url}/toronto/?utm_source=google&utm_medium=cpc&gclid=Cj0-ad`);
    const before = await telLinks(plain.page);
    expect(before).toContain(MAIN_TEL);
    expect(before).not.toContain(TRACKING.tel);
    await plain.context.close();

    const { page, context, errors } = await openPage(browser, 375);
    const google = await interceptGoogle(context);
    await page.goto(`${url}/toronto/?utm_source=google&utm_medium=cpc&gclid=Cj0-ad`);
    await expect.poll(() => telLinks(page)).not.toContain(MAIN_TEL);
    const after = await telLinks(page);
    // Every link to the main number now calls the tracking one; other numbers (insurers', the
    // province's lines) are left as they are.
    expect(after).toEqual(before.map((h) => (h === MAIN_TEL ? TRACKING.tel : h)));
    expect(after.filter((h) => h === TRACKING.tel).length).toBeGreaterThan(2);
    const text = (await page.locator('body').innerText()).replace(/\u00a0/g, ' ');
    expect(text).toContain(TRACKING.display);
    expect(text).not.toContain('1-888-339-9809');
    expect(await page.locator('.call-bar-call').getAttribute('aria-label')).toContain(
      TRACKING.display,
    );
    // It stays through the visit, and click_to_call says which number was called.
    await page.getByRole('button', { name: 'Accept all', exact: true }).click();
    await page.goto(`${url}/toronto/public-adjusters/`);
    await expect.poll(() => telLinks(page)).not.toContain(MAIN_TEL);
    await page.locator('a[href^="tel:"]:visible').first().click();
    await expect
      .poll(() => google.events.find((e) => e.en === 'click_to_call')?.params.phone_line)
      .toBe('+18885550101');
    expect(errors).toEqual([]);
    await context.close();

    // A visit typed in matches no rule: the main number.
    const typed = await openPage(browser, 1280);
    await typed.page.goto(`${url}/toronto/`);
    await typed.page.waitForLoadState('networkidle');
    expect(await telLinks(typed.page)).toEqual(before);
    await typed.context.close();
  });
});

describe('consent by purpose', () => {
  it('with Analytics only, grants no ad_* signal, makes no advertising request and keeps no ad click', async () => {
    const { page, context, errors } = await openPage(browser, 1280);
    const google = await interceptGoogle(context);
    await page.goto(`${url}/ottawa/?utm_source=google&utm_medium=cpc&gclid=Cj0-only-analytics`);
    const banner = page.getByRole('region', { name: 'Cookies and measurement' });
    await expect.poll(() => banner.isVisible()).toBe(true);
    expect(await banner.innerText()).toMatch(/Analytics\. Provider: Google Analytics \(Google\)/);
    expect(await banner.innerText()).toMatch(/Advertising\. Provider: Google Ads/);
    await page.getByRole('checkbox', { name: /^Analytics\./ }).check();
    await page.getByRole('button', { name: 'Save my choices' }).click();
    await expect.poll(() => google.events.map((e) => e.en)).toContain('page_view');
    await page.goto(`${url}/ottawa/public-adjusters/`);
    await expect.poll(() => google.events.length).toBeGreaterThan(1);
    const calls = await consentCalls(page);
    expect(calls.at(-1)).toEqual([
      'consent',
      'update',
      {
        ad_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
        analytics_storage: 'granted',
      },
    ]);
    expect(JSON.stringify(calls)).not.toMatch(/"ad_[a-z_]+":"granted"/);
    expect(google.events.every((e) => e.gcs === 'G101')).toBe(true);
    expect(google.adEvents).toEqual([]);
    expect(
      google.requests.some((r) => /doubleclick|googleads|google\.(com|ca)\//.test(r.url)),
    ).toBe(false);
    expect(await page.evaluate(() => document.cookie)).not.toContain('_gcl_');
    expect(await page.evaluate(() => localStorage.getItem('claimsite-first-touch'))).toBeNull();

    // Advertising accepted too, from the footer: its signals and its requests, and the ad click.
    await page.getByRole('button', { name: 'Cookie settings' }).click();
    expect(await page.getByRole('checkbox', { name: /^Analytics\./ }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: /^Advertising\./ }).check();
    await page.getByRole('button', { name: 'Save my choices' }).click();
    await page.goto(`${url}/ottawa/services/`);
    await expect.poll(() => google.adEvents.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => localStorage.getItem('claimsite-first-touch'))).toContain(
      'Cj0-only-analytics',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('names each purpose and its provider in French', async () => {
    const { page, context } = await openPage(browser, 375);
    await page.goto(`${url}/fr/montreal/`);
    const banner = page.getByRole('region', { name: "Témoins et mesure d'audience" });
    await expect.poll(() => banner.isVisible()).toBe(true);
    const text = await banner.innerText();
    expect(text).toContain("Mesure d'audience. Fournisseur : Google Analytics (Google).");
    expect(text).toContain('Publicité. Fournisseur : Google Ads');
    for (const name of ['Tout accepter', 'Tout refuser', 'Enregistrer mes choix'])
      expect(await page.getByRole('button', { name }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('the paid click remembered', () => {
  it('gives the contact the gclid as first touch and direct as last, after a return three days later typed in; one opportunity with its value, one enrolment', async () => {
    const { page, context, errors } = await openPage(browser, 1280);
    const google = await interceptGoogle(context);
    await page.goto(`${url}/toronto/?utm_source=google&utm_medium=cpc&gclid=Cj0-first-click`);
    await page.getByRole('button', { name: 'Accept all', exact: true }).click();
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('claimsite-first-touch')))
      .toContain('Cj0-first-click');
    await page.close();

    // Three days later, in a new tab (a new visit: its session is new), the site typed in.
    const later = await context.newPage();
    await later.clock.setSystemTime(new Date(Date.now() + 3 * DAY));
    await later.goto(`${url}/toronto/public-adjusters/`);
    // The visit is no ad's: the main number.
    await later.waitForLoadState('networkidle');
    expect(await telLinks(later)).toContain(MAIN_TEL);
    await fillQuestionnaire(later);
    await Promise.all([
      later.waitForURL('**/confirmation/?city=Toronto&*'),
      later.locator('[data-submit]').click(),
    ]);

    const [id, contact] = [...crm.contacts].find(([, c]) => c.email === 'Gabriel@Example.ca') ?? [];
    expect(contact).toMatchObject({
      source: 'google / cpc',
      phone: '+14165550177',
      postalCode: 'M5J 1E6',
      state: 'ON',
      country: 'CA',
    });
    expect(crm.fieldsOf(id ?? '')).toMatchObject({
      first_source: 'google / cpc',
      first_gclid: 'Cj0-first-click',
      first_landing_page: '/toronto/',
      last_source: 'direct',
      last_gclid: '(none)',
      last_landing_page: '/toronto/public-adjusters/',
    });
    // One opportunity in the pipeline's first stage with the range's value, the workflow once.
    const mine = crm.opportunities.filter((o) => o.contactId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      pipelineStageId: 'st_new',
      status: 'open',
      monetaryValue: 17_500,
    });
    expect(mine[0] && crm.opportunityFieldsOf(mine[0])).toEqual({ lead_source: 'google / cpc' });
    expect(crm.enrolments.filter((e) => e.contactId === id)).toHaveLength(1);
    // GA4: the lead with its value, and the person's data for enhanced conversions, as Google
    // asks it, with ad_user_data granted.
    const lead = google.events.find((e) => e.en === 'generate_lead');
    expect(lead?.params).toMatchObject({ value: '17500', currency: 'CAD', lead_source: 'direct' });
    expect(lead?.userData).toEqual({ email: 'gabriel@example.ca', phone_number: '+14165550177' });
    expect(errors).toEqual([]);

    // The booking step: the calendar loads only once opened, under the site's CSP.
    const calendar: string[] = [];
    await context.route(`${new URL(CALENDAR).origin}/**`, (route) => {
      calendar.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Calendar</p>' });
    });
    await later.reload();
    await later.waitForLoadState('networkidle');
    expect(calendar).toEqual([]);
    await later.getByText('Show the calendar').click();
    await expect.poll(() => calendar).toEqual([CALENDAR]);
    await expect
      .poll(() => later.frameLocator('iframe[title="Booking calendar"]').locator('p').innerText())
      .toBe('Calendar');
    expect(errors).toEqual([]);
    await context.close();
  });
});
