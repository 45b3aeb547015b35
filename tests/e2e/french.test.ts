import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fill } from '../../src/i18n/catalogue.js';
import { nuErrors } from '../checks/nu-checker.js';
import { BUNDLED_DATA } from '../helpers.js';
import { browserAndSite, openPage, axeViolations as violations, WIDTHS } from './harness.js';

// The bundled site: its Québec pages have their French translations.
const env = browserAndSite(BUNDLED_DATA);
const t = JSON.parse(await readFile(path.join(BUNDLED_DATA, 'i18n/fr.json'), 'utf8')).strings;
const q = t.questionnaire;

/** One French page of every kind, and the French not-found page. */
const PAGES = [
  '/fr/',
  '/fr/a-propos/',
  '/fr/services/',
  '/fr/faq/',
  '/fr/nous-joindre/',
  '/fr/confidentialite/',
  '/fr/conditions-d-utilisation/',
  '/fr/plan-du-site/',
  '/fr/confirmation/?city=Montr%C3%A9al',
  '/fr/erreur-formulaire/',
  '/fr/montreal/',
  '/fr/montreal/a-propos/',
  '/fr/montreal/experts-en-sinistre/',
  '/fr/montreal/services/',
  '/fr/montreal/dommages-incendie/',
  '/fr/montreal/outremont/',
  '/fr/gatineau/hull/',
  '/fr/canada/quebec/',
  '/fr/canada/degats-d-eau-et-inondations/',
];

describe('the French pages in Chromium', () => {
  for (const width of WIDTHS)
    it(`a visitor from Montréal sends the questionnaire in French at ${width}px`, async () => {
      const { page, context, errors } = await openPage(env.browser, width);
      await page.goto(`${env.site.url}/fr/montreal/experts-en-sinistre/`);
      expect(await page.getAttribute('html', 'lang')).toBe('fr-CA');
      const form = page.locator('#main form[data-questionnaire]');
      await expect
        .poll(() => form.locator('[data-step-status]').textContent())
        .toBe(fill(q.stepCount, { n: 1, total: 3 }));
      await page.getByLabel(q.residential, { exact: true }).check();
      await page.getByLabel(q.damageWater, { exact: true }).check();
      await form.locator('[data-next]').click();
      expect(await form.locator('[data-step-status]').textContent()).toBe(
        fill(q.stepCount, { n: 2, total: 3 }),
      );
      await page.getByLabel(q.estimatedValue).selectOption('100k_250k');
      await page.getByLabel(q.description).fill('Un dégât d’eau au sous-sol.');
      await form.locator('[data-next]').click();
      await page.getByLabel(t.formFields.fullName).fill('Élise Tremblay');
      await page.getByRole('textbox', { name: t.formFields.email }).fill('elise@example.ca');
      await page.getByRole('textbox', { name: q.phone, exact: true }).fill('514-555-0199');
      await page.getByLabel(q.address).fill('1000, rue Sherbrooke Ouest, Montréal');
      await page.getByLabel(q.contactBoth).check();
      // A failure first: the message is French and names the number as Québec writes it.
      env.site.lead.mode = 'fail';
      await form.locator('[data-submit]').click();
      await expect
        .poll(() => form.locator('[data-form-error]').textContent())
        .toBe(fill(t.client.failed, { phone: '1\u00a0888\u00a0339-9809' }));
      env.site.lead.mode = 'ok';
      const requests = env.site.lead.requests.length;
      await form.locator('[data-submit]').click();
      await page.waitForURL(/\/fr\/confirmation\/\?city=Montr%C3%A9al&ref=[0-9A-F]{8}&damage=/);
      expect(await page.getAttribute('html', 'lang')).toBe('fr-CA');
      expect(await page.locator('[data-confirmation-city]').first().textContent()).toBe('Montréal');
      // The request's reference, and what to do while waiting, in French.
      expect(await page.locator('[data-confirmation-ref]').textContent()).toMatch(
        /^Votre numéro de référence : [0-9A-F]{8}\./,
      );
      expect(await page.getByText(t.confirmation.waitRelease).isVisible()).toBe(true);
      // The same fields as an English page, the French page named.
      const sent = JSON.parse(env.site.lead.requests.at(-1)?.body ?? '{}');
      expect(env.site.lead.requests.length).toBe(requests + 1);
      expect(sent).toMatchObject({
        form: 'questionnaire',
        page: '/fr/montreal/experts-en-sinistre/',
        city: 'Montréal',
        claimType: 'residential',
        damageTypes: ['water'],
      });
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);

  it('the header switches to the same page in English, and back', async () => {
    const { page, context, errors } = await openPage(env.browser, 1280);
    await page.goto(`${env.site.url}/fr/montreal/dommages-incendie/`);
    await page.locator('header a[hreflang="en-CA"]').click();
    await page.waitForURL(/\/montreal\/fire-damage-claims\/$/);
    expect(await page.getAttribute('html', 'lang')).toBe('en-CA');
    await page.locator('header a[hreflang="fr-CA"]').click();
    await page.waitForURL(/\/fr\/montreal\/dommages-incendie\/$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an unknown French address gets the French not-found page, which finds a mistyped city', async () => {
    const { page, context } = await openPage(env.browser, 375);
    const res = await page.goto(`${env.site.url}/fr/nulle-part/`);
    expect(res?.status()).toBe(404);
    expect(await page.getAttribute('html', 'lang')).toBe('fr-CA');
    await page.goto(`${env.site.url}/fr/montreall/`);
    await page.waitForURL(/\/fr\/montreal\/$/);
    await context.close();
  });

  for (const width of WIDTHS)
    it(`has no WCAG A/AA violation on any French page kind at ${width}px`, async () => {
      const { page, context } = await openPage(env.browser, width, { reducedMotion: 'reduce' });
      const found: string[] = [];
      for (const p of PAGES) {
        await page.goto(env.site.url + p);
        await page.waitForLoadState('networkidle');
        found.push(...(await violations(page, p)));
      }
      expect(found).toEqual([]);
      await context.close();
    }, 120_000);

  it('is valid HTML (Nu HTML Checker) on every French page kind', async () => {
    const files = PAGES.map((p) => {
      const clean = p.split('?')[0] ?? '';
      return path.join(env.site.dist, clean.endsWith('/') ? `${clean}index.html` : clean);
    });
    files.push(path.join(env.site.dist, 'fr/404.html'));
    expect(await nuErrors(files, env.site.dist)).toEqual([]);
  }, 120_000);
});
