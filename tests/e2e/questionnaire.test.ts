import { describe, expect, it } from 'vitest';
import { browserAndSite, openPage, type Page, WIDTHS } from './harness.js';

const env = browserAndSite();

const form = '#main form[data-questionnaire]';
const next = (page: Page) => page.locator(`${form} [data-next]`);
const back = (page: Page) => page.locator(`${form} [data-back]`);
const submit = (page: Page) => page.locator(`${form} [data-submit]`);

async function fillStep1(page: Page) {
  await page.getByLabel('Residential').check();
  await page.getByLabel('Water').check();
  await page.getByLabel('Storm').check();
}
async function fillStep2(page: Page) {
  await page.getByLabel('Estimated value of the damage').selectOption('100k_250k');
  await page.getByLabel('What happened?').fill('A burst pipe flooded the basement.');
}
async function fillStep3(page: Page) {
  await page.getByLabel('Full name').fill('Marie-Claire van der Berg');
  await page.getByRole('textbox', { name: 'Email' }).fill('marie@example.ca');
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('416-555-0199');
  await page.getByLabel('Property address').fill('12 King St W, Toronto, ON');
  await page.getByLabel('Both').check();
}

for (const width of WIDTHS) {
  describe(`questionnaire at ${width}px`, () => {
    it('Next and Submit, pressed too early, say what is missing and move focus to it', async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/toronto/public-adjusters`);
      await expect
        .poll(() => page.locator(`${form} [data-step-status]`).textContent())
        .toBe('Step 1 of 3');
      const alert = page.locator(`${form} [data-form-error]`);
      const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement).name);
      const status = () => page.locator(`${form} [data-step-status]`).textContent();
      expect(await alert.getAttribute('role')).toBe('alert');
      expect(await back(page).isVisible()).toBe(false);
      expect(await submit(page).isVisible()).toBe(false);
      // Never greyed out: pressed, it names the question and puts focus on it.
      expect(await next(page).isEnabled()).toBe(true);
      await next(page).click();
      expect(await status()).toBe('Step 1 of 3');
      expect(await alert.textContent()).toBe('Still needed before you go on: Type of property');
      expect(await focused()).toBe('claimType');
      await page.getByLabel('Commercial').check();
      await next(page).click();
      expect(await alert.textContent()).toBe(
        'Still needed before you go on: Type of damage (choose all that apply)',
      );
      expect(await focused()).toBe('damageTypes');
      await page.getByLabel('Theft').check();
      await next(page).click();

      // Step 2: announced, focus on its heading, the message gone, Back available.
      expect(await status()).toBe('Step 2 of 3');
      expect(await alert.textContent()).toBe('');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q-step2');
      expect(await back(page).isVisible()).toBe(true);
      await page.getByLabel('Estimated value of the damage').selectOption('over_1m');
      await page.getByLabel('What happened?').fill('   ');
      await next(page).click();
      expect(await status()).toBe('Step 2 of 3');
      expect(await alert.textContent()).toBe('Still needed before you go on: What happened?');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q-description');
      await page.getByLabel('What happened?').fill('Break-in, stock stolen.');
      await back(page).click();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q-step1');
      expect(await page.getByLabel('Theft').isChecked()).toBe(true);
      await next(page).click();
      await next(page).click();

      // Step 3: Submit instead of Next; an implausible e-mail or an empty field is named.
      expect(await next(page).isVisible()).toBe(false);
      await submit(page).click();
      expect(await alert.textContent()).toBe('Still needed before you go on: Full name');
      expect(await focused()).toBe('fullName');
      await fillStep3(page);
      for (const bad of ['marie@example', 'marie example.ca', '@example.ca']) {
        await page.getByRole('textbox', { name: 'Email' }).fill(bad);
        // Left first: its own message shows under it, and the button moves down.
        await page.keyboard.press('Tab');
        await submit(page).click();
        expect(await focused(), bad).toBe('email');
      }
      await page.getByRole('textbox', { name: 'Email' }).fill('m@x.co');
      await page.getByLabel('Property address').fill('');
      await submit(page).click();
      expect(await focused()).toBe('address');
      expect(await alert.textContent()).toBe('Still needed before you go on: Property address');
      expect(env.site.lead.requests.filter((r) => r.body.includes('Break-in'))).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

    it('submits the answers as JSON and lands on the confirmation page with the city', async () => {
      env.site.lead.mode = 'ok';
      env.site.lead.requests.length = 0;
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/toronto/public-adjusters`);
      await fillStep1(page);
      await next(page).click();
      await fillStep2(page);
      await page.getByLabel('I have already started a claim with my insurer').check();
      await next(page).click();
      await fillStep3(page);
      await Promise.all([
        page.waitForURL(/\/confirmation\/\?city=Toronto&ref=[0-9A-F]{8}&damage=water%2Cstorm$/),
        submit(page).click(),
      ]);
      expect(await page.locator('[data-confirmation-city]').textContent()).toBe('Toronto');
      expect(env.site.lead.requests).toHaveLength(1);
      const req = env.site.lead.requests[0];
      expect(req?.contentType).toBe('application/json');
      const body = JSON.parse(req?.body ?? '{}');
      expect(body.submissionId).toMatch(/^[0-9a-f-]{32,36}$/);
      // The consent line under the form, word for word, and its version.
      expect(body.consentText).toBe(
        'By sending this form, you agree that we share your answers with a licensed adjuster who serves your area, so that they can contact you and assess your claim. See our Privacy Policy.',
      );
      expect(body.consentVersion).toMatch(/^en-[0-9a-f]{12}$/);
      expect(body.elapsedMs).toBeGreaterThan(0);
      // A visit typed in: the landing page and when, nothing else.
      expect(body.attribution).toEqual({
        landing_page: '/toronto/public-adjusters/',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect({
        ...body,
        submissionId: undefined,
        consentText: undefined,
        consentVersion: undefined,
        elapsedMs: undefined,
        attribution: undefined,
      }).toEqual({
        form: 'questionnaire',
        city: 'Toronto',
        province: 'ON',
        page: '/toronto/public-adjusters/',
        website: '',
        claimType: 'residential',
        damageTypes: ['water', 'storm'],
        estimatedValue: '100k_250k',
        hasStartedClaim: true,
        damageDescription: 'A burst pipe flooded the basement.',
        fullName: 'Marie-Claire van der Berg',
        email: 'marie@example.ca',
        phone: '416-555-0199',
        address: '12 King St W, Toronto, ON',
        // The property's city and postal code: optional, left empty here.
        propertyCity: '',
        postalCode: '',
        preferredContact: 'both',
        submissionId: undefined,
        consentText: undefined,
        consentVersion: undefined,
        elapsedMs: undefined,
        attribution: undefined,
      });
      expect(errors).toEqual([]);
      await context.close();
    });

    it('shows a message naming the phone on failure, keeps every answer, and can send again', async () => {
      env.site.lead.requests.length = 0;
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/vancouver/fire-damage-claims`);
      await fillStep1(page);
      await next(page).click();
      await fillStep2(page);
      await next(page).click();
      await fillStep3(page);
      const alert = page.locator(`${form} [role="alert"]`);
      for (const mode of ['fail', 'drop', 'limit'] as const) {
        env.site.lead.mode = mode;
        await submit(page).click();
        await expect.poll(() => alert.textContent()).toContain('1-888-339-9809');
        // Too many requests from one visitor: told to wait a minute, not that it failed.
        if (mode === 'limit')
          expect(await alert.textContent()).toContain('please wait a minute and send again');
        expect(page.url()).toContain('/vancouver/fire-damage-claims/');
        expect(await page.getByLabel('Full name').inputValue()).toBe('Marie-Claire van der Berg');
        expect(await page.getByLabel('Both').isChecked()).toBe(true);
        expect(await submit(page).isEnabled()).toBe(true);
      }
      env.site.lead.mode = 'ok';
      await Promise.all([
        page.waitForURL('**/confirmation/?city=Vancouver&*'),
        submit(page).click(),
      ]);
      // Every attempt (Chromium itself resends a POST whose connection dropped) carried the same
      // submission id, so the endpoint can tell a retry from a new lead.
      const ids = new Set(env.site.lead.requests.map((r) => JSON.parse(r.body).submissionId));
      expect(env.site.lead.requests.length).toBeGreaterThanOrEqual(3);
      expect(ids.size).toBe(1);
      expect(JSON.parse(env.site.lead.requests.at(-1)?.body ?? '{}').form).toBe('assessment');
      expect(errors).toEqual([]);
      await context.close();
    });

    it('can be completed with the keyboard alone', async () => {
      env.site.lead.mode = 'ok';
      env.site.lead.requests.length = 0;
      const { page, context } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/ottawa/free-consultation`);
      await page.locator('#q-step1').focus();
      await page.keyboard.press('Tab'); // claim type radio group
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab'); // first damage type
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space'); // third damage type
      const tabTo = async (name: string, max = 12) => {
        for (let i = 0; i < max; i++) {
          await page.keyboard.press('Tab');
          const label = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            return el?.getAttribute('name') || el?.textContent?.trim() || '';
          });
          if (label === name) return;
        }
        throw new Error(`could not reach ${name} with Tab`);
      };
      await tabTo('Next');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('q-step2');
      await tabTo('estimatedValue');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await tabTo('damageDescription');
      await page.keyboard.type('Hail broke the skylights.');
      await tabTo('Next');
      await page.keyboard.press('Enter');
      for (const [field, text] of [
        ['fullName', 'Sam Lee'],
        ['email', 'sam@example.ca'],
        ['phone', '613 555 0100'],
        ['address', '1 Rideau St'],
      ] as const) {
        await tabTo(field);
        await page.keyboard.type(text);
      }
      await tabTo('preferredContact');
      await page.keyboard.press('Space');
      await tabTo('Submit Claim');
      await Promise.all([
        page.waitForURL('**/confirmation/?city=Ottawa&*'),
        page.keyboard.press('Enter'),
      ]);
      const body = JSON.parse(env.site.lead.requests[0]?.body ?? '{}');
      expect(body).toMatchObject({
        claimType: 'residential',
        damageTypes: ['fire', 'wind'],
        estimatedValue: '100k_250k',
        fullName: 'Sam Lee',
        preferredContact: 'phone',
      });
      await context.close();
    });
  });
}

describe('without JavaScript', () => {
  it('is a real form with every step visible that posts to the endpoint', async () => {
    env.site.lead.mode = 'ok';
    env.site.lead.requests.length = 0;
    const { page, context } = await openPage(env.browser, 375, { javaScriptEnabled: false });
    await page.goto(`${env.site.url}/toronto/scarborough`);
    for (const n of [1, 2, 3]) expect(await page.locator(`#q-step${n}`).isVisible()).toBe(true);
    expect(await page.locator(`${form} [data-next]`).isVisible()).toBe(false);
    // Native validation stops an empty submission.
    await page.locator(`${form} [data-submit]`).click();
    expect(env.site.lead.requests).toHaveLength(0);
    await fillStep1(page);
    await fillStep2(page);
    await fillStep3(page);
    await Promise.all([
      page.waitForURL('**/confirmation/?city=Toronto'),
      page.locator(`${form} [data-submit]`).click(),
    ]);
    const req = env.site.lead.requests[0];
    expect(req?.contentType).toBe('application/x-www-form-urlencoded');
    const data = new URLSearchParams(req?.body);
    expect(data.getAll('damageTypes')).toEqual(['water', 'storm']);
    expect(data.get('form')).toBe('assessment');
    expect(data.get('email')).toBe('marie@example.ca');
    await context.close();
  });
});

describe('contact page message form', () => {
  it('delivers through the lead endpoint and answers in place', async () => {
    env.site.lead.mode = 'ok';
    env.site.lead.requests.length = 0;
    const { page, context, errors } = await openPage(env.browser, 1280);
    await page.goto(`${env.site.url}/contact`);
    await page.getByLabel('Full name').fill('Ana Silva');
    await page.getByRole('textbox', { name: 'Email' }).fill('ana@example.ca');
    await page.getByLabel('Phone number').fill('902 555 0142');
    await page.getByLabel('Message', { exact: true }).fill('Do you cover Cape Breton?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect
      .poll(() => page.locator('[data-form-done]').textContent())
      .toContain('Your message has been sent.');
    // The fixture's site.json sets no responsePromise: the thanks promise no time of their own.
    expect(await page.locator('[data-form-done]').textContent()).not.toContain('24 hours');
    const body = JSON.parse(env.site.lead.requests[0]?.body ?? '{}');
    expect(body).toMatchObject({
      form: 'contact',
      fullName: 'Ana Silva',
      email: 'ana@example.ca',
      message: 'Do you cover Cape Breton?',
    });
    expect(await page.getByLabel('Full name').inputValue()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('what the form says', () => {
  it('says what is wrong with an e-mail address once the field is left, and no more once it is right', async () => {
    const { page, context, errors } = await openPage(env.browser, 375);
    await page.goto(`${env.site.url}/toronto/public-adjusters`);
    await fillStep1(page);
    await next(page).click();
    await fillStep2(page);
    await next(page).click();
    await fillStep3(page);
    const email = page.getByRole('textbox', { name: 'Email' });
    const message = page.locator('#q-email-error');
    await email.fill('jane@example');
    // Nothing while typing: the field is not left yet.
    expect(await message.textContent()).toBe('');
    await page.keyboard.press('Tab');
    expect(await message.isVisible()).toBe(true);
    expect(await message.textContent()).toBe(
      'Enter a complete email address, such as name@example.com.',
    );
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    // Read with the field, as its description.
    expect(
      await email.evaluate(
        (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent,
      ),
    ).toBe(await message.textContent());
    await email.fill('jane@example.ca');
    expect(await message.textContent()).toBe('');
    expect(await message.isVisible()).toBe(false);
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    expect(await submit(page).isEnabled()).toBe(true);
    // Left empty, it is not called wrong: Submit, pressed, says a field is missing.
    await email.fill('');
    await page.keyboard.press('Tab');
    expect(await message.textContent()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('answers a loss below the first range with a line and the phone number, the five ranges kept', async () => {
    const { page, context } = await openPage(env.browser, 375);
    await page.goto(`${env.site.url}/toronto/public-adjusters`);
    await fillStep1(page);
    await next(page).click();
    const select = page.getByLabel('Estimated value of the damage');
    const values = await select
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(values).toEqual([
      '',
      '50k_100k',
      '100k_250k',
      '250k_500k',
      '500k_1m',
      'over_1m',
      'not_sure',
    ]);
    const hint = page.locator(
      `#${await select.getAttribute('aria-describedby').then((id) => id ?? 'none')}`,
    );
    expect(await hint.isVisible()).toBe(true);
    expect(await hint.textContent()).toMatch(/^Under \$50,000\? .+ Call 1-888-339-9809 /);
    expect(await hint.locator('a').getAttribute('href')).toBe('tel:+18883399809');
    await context.close();
  });
});
