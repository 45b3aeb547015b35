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
import { axeViolations, launchBrowser, openPage, WIDTHS } from './harness.js';

/**
 * The operator's loop in Chromium, on the bundled site with a GA4 measurement id, served with
 * the real lead endpoint in front of the strict fake GoHighLevel: where a lead came from reaches
 * the CRM, the conversion reaches GA4 (intercepted in the browser, never Google), and nothing
 * reaches Google before the visitor accepts or after they refuse.
 */
let browser: Browser;
let crm: FakeCrm;
let server: Server;
let url: string;
const saved = { ...process.env };

beforeAll(async () => {
  const dir = await tempDir('claimsite-consent-');
  const data = path.join(dir, 'data');
  await cp(BUNDLED_DATA, data, { recursive: true });
  const settings = JSON.parse(await readFile(path.join(data, 'site.json'), 'utf8'));
  await writeFile(
    path.join(data, 'site.json'),
    JSON.stringify({ ...settings, analyticsId: 'G-TEST12345' }),
  );
  const dist = path.join(dir, 'dist');
  [browser, crm] = await Promise.all([
    launchBrowser(),
    startFakeCrm({ api: 'v2' }),
    generate({ dataDir: data, outDir: dist }),
  ]);
  // The location as GoHighLevel makes it, without our fields: the check creates them, so no
  // field id is typed by hand anywhere.
  const fix = await runCliAsync(['leads', 'check', '--fix'], { env: crm.env() });
  expect(fix.code, fix.stdout).toBe(0);
  Object.assign(process.env, crm.env(), {
    LEAD_OUTBOX_PATH: path.join(dir, 'outbox', 'leads.jsonl'),
    LEAD_RATE_LIMIT: '100',
    // The time trap has tests of its own; a test browser fills forms faster than people.
    LEAD_MIN_FILL_MS: '0',
  });
  for (const k of ['SITE_ORIGIN', 'SITE_URL', 'GHL_CUSTOM_FIELD_IDS']) delete process.env[k];
  ({ server, url } = await startServer({ dir: dist, port: 0, host: '127.0.0.1', log: () => {} }));
}, 300_000);
afterAll(async () => {
  process.env = saved;
  await browser?.close();
  await new Promise((r) => server?.close(r));
  await crm?.close();
});

const banner = (page: Page) => page.locator('[data-consent]');

async function fillQuestionnaire(page: Page, who: { name: string; email: string; phone: string }) {
  await page.getByLabel('Residential').check();
  await page.getByLabel('Water').check();
  await page.locator('[data-next]').click();
  await page.getByLabel('Estimated value of the damage').selectOption('100k_250k');
  await page.getByLabel('What happened?').fill('The spring flood filled the basement.');
  await page.locator('[data-next]').click();
  await page.getByLabel('Full name').fill(who.name);
  await page.getByRole('textbox', { name: 'Email' }).fill(who.email);
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill(who.phone);
  await page.getByLabel('Property address').fill('40 Bay St, Toronto, ON');
  await page.getByLabel('Both').check();
}

describe('attribution, conversions and consent', () => {
  it('takes a campaign visit to a GHL contact that carries it, and its submission id to generate_lead; nothing reaches Google before consent', async () => {
    const { page, context, errors } = await openPage(browser, 1280);
    const google = await interceptGoogle(context);
    await page.goto(`${url}/toronto/?utm_source=google&utm_medium=cpc&utm_campaign=x&gclid=y`);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    // A click to another page of the site, the banner still asking.
    await Promise.all([
      page.waitForURL('**/toronto/public-adjusters/'),
      page.locator('footer a[href="/toronto/public-adjusters/"]').first().click(),
    ]);
    await page.waitForLoadState('networkidle');
    expect(await banner(page).isVisible()).toBe(true);
    expect(google.outside()).toEqual([]);

    await page.getByRole('button', { name: 'Accept all', exact: true }).click();
    expect(await banner(page).isVisible()).toBe(false);
    // Accepted on the second page: the landing page's page_view is replayed first, with its own
    // address, campaign and click id, then this page's.
    await expect
      .poll(() => google.events.map((e) => `${e.en} ${e.dl.replace(url, '')}`))
      .toEqual([
        'page_view /toronto/?utm_source=google&utm_medium=cpc&utm_campaign=x&gclid=y',
        'page_view /toronto/public-adjusters/',
      ]);
    await fillQuestionnaire(page, {
      name: 'Rosa Campaign',
      email: 'rosa@example.ca',
      phone: '416-555-0142',
    });
    await Promise.all([
      page.waitForURL('**/confirmation/?city=Toronto&*'),
      page.locator('[data-submit]').click(),
    ]);

    // The contact: its source, its phone in E.164, no address part it was not given (the page's
    // city is not the property's), and the touch as its first and last.
    expect(crm.contacts.size).toBe(1);
    const [id, contact] = [...crm.contacts][0] ?? [];
    expect(contact).toMatchObject({
      email: 'rosa@example.ca',
      phone: '+14165550142',
      source: 'google / cpc / x',
    });
    expect(contact).not.toHaveProperty('city');
    expect(crm.fieldsOf(id ?? '')).toMatchObject({
      first_utm_source: 'google',
      first_gclid: 'y',
      last_utm_medium: 'cpc',
      last_utm_campaign: 'x',
      last_gclid: 'y',
      last_landing_page: '/toronto/',
      last_referrer: '(none)',
    });
    expect(crm.fieldsOf(id ?? '')).not.toHaveProperty('first_referrer');
    const note = crm.notes[0]?.body ?? '';
    expect(note).toContain(
      'Attribution: utm_source=google, utm_medium=cpc, utm_campaign=x, gclid=y, landing_page=/toronto/',
    );
    expect(note).toMatch(
      /Consent shown under the form \(en-[0-9a-f]{12}\), given by sending it at /,
    );
    expect(note).toContain('Analytics cookies: granted');
    expect(note).toContain('Advertising cookies: granted');
    const submission = /Submission: (\S+)/.exec(note)?.[1];

    // GA4 got the form's start and the lead, with the submission's id, once.
    const leads = google.events.filter((e) => e.en === 'generate_lead');
    expect(leads).toEqual([
      expect.objectContaining({
        tid: 'G-TEST12345',
        params: {
          transaction_id: submission,
          form_name: 'questionnaire',
          lead_source: 'google / cpc / x',
          city: 'Toronto',
          // The value of its loss range ($100,000-$250,000) by the default table, in CAD.
          value: '17500',
          currency: 'CAD',
        },
        // Enhanced conversions: the e-mail and phone as Google asks them, with ad_user_data.
        userData: { email: 'rosa@example.ca', phone_number: '+14165550142' },
      }),
    ]);
    expect(google.events.filter((e) => e.en === 'form_start')).toHaveLength(1);
    // The confirmation page counts a page view, never a second lead, even reloaded.
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(google.events.filter((e) => e.en === 'generate_lead')).toHaveLength(1);
    // A tap on the phone number.
    await page.locator('a[href^="tel:"]:visible').first().click();
    await expect
      .poll(() => google.events.filter((e) => e.en === 'click_to_call').map((e) => e.params))
      .toEqual([{ link_url: 'tel:+18883399809', phone_line: '+18883399809' }]);
    // Only the tag and its collect requests left the site (DoubleClick's with Advertising
    // accepted), all of them intercepted here.
    expect(
      google
        .outside()
        .every((r) =>
          /^https:\/\/(www\.googletagmanager\.com|region1\.google-analytics\.com|stats\.g\.doubleclick\.net)\//.test(
            r.url,
          ),
        ),
    ).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps a returning homeowner's earlier tags, the operator's own among them", async () => {
    const first = [...crm.contacts.keys()][0] ?? '';
    crm.tagByHand(first, 'signed-client');
    const { page, context } = await openPage(browser, 375);
    await interceptGoogle(context);
    await page.goto(`${url}/toronto/fire-damage-claims/`);
    await page.getByRole('button', { name: 'Refuse all', exact: true }).click();
    await page.getByLabel('Residential').check();
    await page.locator('[data-next]').click();
    await page.getByLabel('Estimated value of the damage').selectOption('50k_100k');
    await page.getByLabel('What happened?').fill('A kitchen fire, months later.');
    await page.locator('[data-next]').click();
    await page.getByLabel('Full name').fill('Rosa Campaign');
    await page.getByRole('textbox', { name: 'Email' }).fill('rosa@example.ca');
    await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('416-555-0142');
    await page.getByLabel('Property address').fill('40 Bay St, Toronto, ON');
    await page.getByLabel('Both').check();
    await Promise.all([
      page.waitForURL('**/confirmation/?city=Toronto&*'),
      page.locator('[data-submit]').click(),
    ]);
    expect(crm.contacts.size).toBe(1);
    expect(crm.contacts.get(first)?.tags).toEqual([
      'Insurance Claim',
      'residential',
      'water',
      'signed-client',
      'fire',
    ]);
    // A visit typed in: the contact keeps its first source and touch; the last one says direct.
    expect(crm.contacts.get(first)?.source).toBe('google / cpc / x');
    expect(crm.fieldsOf(first)).toMatchObject({
      first_utm_campaign: 'x',
      last_source: 'direct',
      last_utm_campaign: '(none)',
      last_landing_page: '/toronto/fire-damage-claims/',
    });
    await context.close();
  });

  it('sends nothing to Google after a refusal, on any page, and lets the visitor change their mind from the footer', async () => {
    const { page, context, errors } = await openPage(browser, 375);
    const google = await interceptGoogle(context);
    await page.goto(`${url}/ottawa/?utm_source=newsletter&utm_medium=email`);
    await page.getByRole('button', { name: 'Refuse all', exact: true }).click();
    for (const p of ['/ottawa/public-adjusters/', '/faq/', '/contact/']) {
      await page.goto(url + p);
      await page.waitForLoadState('networkidle');
      expect(await banner(page).isVisible(), p).toBe(false);
    }
    await page.locator('a[href^="tel:"]:visible').first().click();
    expect(google.outside()).toEqual([]);
    // No ad click is kept without consent; the session's touch is.
    expect(
      await page.evaluate(() => [
        localStorage.getItem('claimsite-first-touch'),
        JSON.parse(sessionStorage.getItem('claimsite-touch') ?? '{}').utm_source,
      ]),
    ).toEqual([null, 'newsletter']);

    // The footer's Cookie settings: the banner again, focus on it, then back on the link.
    const settings = page.getByRole('button', { name: 'Cookie settings' });
    await settings.click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('consent-title');
    await page.getByRole('button', { name: 'Accept all', exact: true }).click();
    await expect.poll(() => google.events.map((e) => e.en)).toContain('page_view');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cookie settings');
    expect(await page.evaluate(() => document.cookie)).toContain('_ga=');
    // A newsletter is no ad click, but the first touch the visit had: kept with Advertising.
    expect(await page.evaluate(() => localStorage.getItem('claimsite-first-touch'))).toContain(
      'newsletter',
    );

    // Taken back: the tag stops at once on this page, its cookie and the first touch go.
    await settings.click();
    await page.getByRole('button', { name: 'Refuse all', exact: true }).click();
    const refused = Date.now();
    await page.locator('a[href^="tel:"]:visible').first().click();
    // Read to the end: the tag, still on the page, reports scrolls of itself unless switched off.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.cookie)).not.toContain('_ga=');
    expect(await page.evaluate(() => localStorage.getItem('claimsite-first-touch'))).toBeNull();
    await page.goto(`${url}/ottawa/services/`);
    await page.waitForLoadState('networkidle');
    expect(google.outside(refused)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks again after twelve months, and not before', async () => {
    for (const [months, shown] of [
      [11, false],
      [13, true],
    ] as const) {
      const { page, context } = await openPage(browser, 1280);
      await page.addInitScript((at) => {
        localStorage.setItem(
          'claimsite-consent',
          JSON.stringify({ analytics: false, ads: false, at }),
        );
      }, new Date(Date.now() - months * 30.5 * 24 * 3600 * 1000).toISOString());
      await page.goto(`${url}/toronto/`);
      await page.waitForLoadState('networkidle');
      expect(await banner(page).isVisible(), `${months} months`).toBe(shown);
      await context.close();
    }
  });

  for (const width of WIDTHS)
    it(`shows an accessible banner in English and French at ${width}px, moving nothing on the page`, async () => {
      for (const [path, title, accept, refuse, settings] of [
        ['/toronto/', 'Cookies and measurement', 'Accept all', 'Refuse all', 'Cookie settings'],
        [
          '/fr/montreal/',
          "Témoins et mesure d'audience",
          'Tout accepter',
          'Tout refuser',
          'Paramètres des témoins',
        ],
        [
          '/confirmation/?city=Toronto',
          'Cookies and measurement',
          'Accept all',
          'Refuse all',
          'Cookie settings',
        ],
      ] as const) {
        const { page, context, errors } = await openPage(browser, width);
        await page.goto(url + path);
        await expect.poll(() => banner(page).isVisible(), { message: path }).toBe(true);
        await page.waitForLoadState('networkidle');
        expect(await page.getByRole('region', { name: title }).isVisible(), path).toBe(true);
        expect(await page.getByRole('button', { name: accept, exact: true }).isVisible()).toBe(
          true,
        );
        expect(await page.getByRole('button', { name: refuse, exact: true }).isVisible()).toBe(
          true,
        );
        expect(await page.getByRole('button', { name: settings }).count(), path).toBe(1);
        expect(await axeViolations(page, `${path} ${width}px`)).toEqual([]);
        // Every element of the page is where it was with the banner gone: it moved nothing.
        const boxes = () =>
          page.evaluate(() =>
            Array.from(
              document.body.querySelectorAll('body > *:not([data-consent]), main *'),
              (e) => {
                const r = e.getBoundingClientRect();
                return `${Math.round(r.left)},${Math.round(r.top + scrollY)},${Math.round(r.width)}x${Math.round(r.height)}`;
              },
            ).join(' '),
          );
        expect(await banner(page).evaluate((e) => getComputedStyle(e).position)).toBe('fixed');
        const shown = await boxes();
        await page.getByRole('button', { name: refuse, exact: true }).click();
        expect(await banner(page).isVisible()).toBe(false);
        expect(await boxes(), path).toBe(shown);
        expect(errors).toEqual([]);
        await context.close();
      }
    });
});
