import { parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { claimSchema } from '../src/lead/schema.js';
import { buildPages } from '../src/pages.js';
import { FragmentCache } from '../src/render/fragments.js';
import { renderPage } from '../src/render/render.js';
import { shareImages } from '../src/share/share-images.js';
import { loadSite } from '../src/site/load.js';
import { TEMPLATES } from '../templates/pages/index.js';
import {
  BUNDLED_DATA,
  dataCopy,
  dataIssues,
  editJson,
  FIXTURE_DATA,
  PAGE_ASSETS,
  runCli,
} from './helpers.js';
import { sampleClaim } from './lead/sample.js';

/**
 * The operator's settings of issue 45 (data/site.json): tracking numbers, CallRail, the booking
 * calendar, the value table and the person in charge of personal information. A wrong one is
 * refused naming the file and the field; a right one reaches the pages.
 */
type Settings = Record<string, unknown>;

const render = async (data: string, path: string) => {
  const site = await loadSite(data);
  const pages = buildPages(site);
  const page = pages.find((p) => p.path === path);
  if (!page) throw new Error(`no page ${path}`);
  const html = renderPage(
    { site, page, pages, assets: PAGE_ASSETS, share: shareImages(site) },
    TEMPLATES,
    new FragmentCache(),
  );
  return parse(html);
};

describe("the operator's settings", () => {
  it('refuses a wrong tracking number, rule, CallRail script or calendar, naming the field', async () => {
    const { data } = await dataCopy(FIXTURE_DATA);
    await editJson(data, 'site.json', (s: Settings) => {
      s.tracking = {
        phones: [{ source: 'google', number: '555-0101' }, { number: '1-888-555-0101' }],
        callrail: 'https://evil.example/swap.js',
      };
      s.booking = { calendar: 'https://calendly.com/me' };
    });
    const issues = (await dataIssues(data)).map((i) => `${i.field}: ${i.message}`);
    expect(issues).toEqual([
      expect.stringMatching(
        /^tracking\.phones\.0\.number: "555-0101" is not a valid North American number/,
      ),
      'tracking.phones.1: needs at least one of source, medium, campaign or clickId',
      expect.stringMatching(/^tracking\.callrail: must be CallRail's swap\.js address/),
      expect.stringMatching(/^booking\.calendar: must be a GoHighLevel calendar's booking widget/),
    ]);
  });

  it('refuses a value table naming a loss range the form has not, at build, naming the file and field', async () => {
    const { data, out } = await dataCopy(FIXTURE_DATA);
    await editJson(data, 'site.json', (s: Settings) => {
      s.leadValues = { '100k-250k': 20000 };
    });
    const r = runCli(['generate', '--data', data, '--out', out, '--quiet']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /site\.json, field leadValues: names "100k-250k", which is not one of 50k_100k, 100k_250k/,
    );
  });

  it('puts the rules, the value table and CallRail on the page for the script, and the calendar on the confirmation', async () => {
    const { data } = await dataCopy(FIXTURE_DATA);
    await editJson(data, 'site.json', (s: Settings) => {
      s.analyticsId = 'G-TEST12345';
      s.leadValues = { '100k_250k': 4000 };
      s.tracking = {
        phones: [
          { source: 'Google', medium: 'CPC', number: '1-888-555-0101' },
          { clickId: 'fbclid', number: '416-555-0102' },
        ],
        callrail: 'https://cdn.callrail.com/companies/123456789/abcdef0123456789/12/swap.js',
      };
      s.booking = { calendar: 'https://api.leadconnectorhq.com/widget/booking/abc123' };
    });
    const home = await render(data, '/');
    const html = home.querySelector('html');
    expect(JSON.parse(html?.getAttribute('data-phones') ?? '')).toEqual({
      m: '8883399809',
      p: '1-888-339-9809',
      r: [
        { s: 'google', d: 'cpc', t: 'tel:+18885550101', n: '1-888-555-0101' },
        { k: 'fbclid', t: 'tel:+14165550102', n: '416-555-0102' },
      ],
    });
    expect(JSON.parse(html?.getAttribute('data-values') ?? '')).toMatchObject({
      '50k_100k': 7500,
      '100k_250k': 4000,
    });
    expect(html?.getAttribute('data-callrail')).toContain('cdn.callrail.com');
    expect(home.querySelector('[data-consent]')?.textContent).toContain(', and CallRail for calls');
    const confirmation = await render(data, '/confirmation/');
    const frame = confirmation.querySelector('details.booking-details iframe');
    expect(frame?.getAttribute('src')).toBe(
      'https://api.leadconnectorhq.com/widget/booking/abc123',
    );
    expect(frame?.getAttribute('loading')).toBe('lazy');
    // Without them, none of it.
    const plain = (await render(FIXTURE_DATA, '/')).querySelector('html');
    for (const a of ['data-phones', 'data-values', 'data-callrail'])
      expect(plain?.getAttribute(a)).toBeUndefined();
  });

  it('names the person in charge of personal information in the privacy policy, in English and French', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'site.json', (s: Settings) => {
      s.privacyOfficer = { name: 'Geneviève Roy', title: 'Vice-President, Operations' };
    });
    const text = async (path: string) =>
      ((await render(data, path)).querySelector('main')?.textContent ?? '').replace(/\s+/g, ' ');
    expect(await text('/privacy/')).toContain(
      'The person in charge of the protection of personal information at ClaimRight Canada is Geneviève Roy, Vice-President, Operations.',
    );
    expect(await text('/fr/confidentialite/')).toContain(
      'La personne responsable de la protection des renseignements personnels au sein de ClaimRight Canada est Geneviève Roy, Vice-President, Operations.',
    );
  });
});

describe('the response time, from site.json alone', () => {
  const text = async (data: string, path: string) =>
    ((await render(data, path)).querySelector('main')?.textContent ?? '').replace(/\s+/g, ' ');
  // A page of each kind that says when the firm answers: the hero and the form's note, the
  // contact page, the FAQ, the About page, a guide.
  const PAGES = [
    '/',
    '/toronto/',
    '/contact/',
    '/faq/',
    '/about/',
    '/blog/basement-flood-first-steps/',
  ];
  const FRENCH = ['/fr/', '/fr/montreal/', '/fr/nous-joindre/', '/fr/faq/', '/fr/a-propos/'];

  it("says the bundled promise in each language's words, and the hours and e-mail French pages give", async () => {
    for (const path of PAGES)
      expect(await text(BUNDLED_DATA, path), path).toContain(
        'A team member or adjuster responds within 24 hours.',
      );
    for (const path of FRENCH)
      expect(await text(BUNDLED_DATA, path), path).toContain(
        'Un membre de notre équipe ou un expert en sinistre vous répond dans les 24 heures.',
      );
    const contact = await text(BUNDLED_DATA, '/fr/nous-joindre/');
    expect(contact).toContain("du lundi au vendredi, de 9 h à 20 h (heure de l'Est)");
    // One address for both languages unless fr.email gives the French pages their own (below).
    expect(contact).toContain('help@claimright.ca');
    expect(contact).not.toContain('Mon-Fri');
    // No testimonial in French: no heading, strip or pause button for one on the About page.
    const strip = '#testimonials-title, [data-carousel]';
    expect((await render(BUNDLED_DATA, '/about/')).querySelectorAll(strip).length).toBe(2);
    expect((await render(BUNDLED_DATA, '/fr/a-propos/')).querySelectorAll(strip).length).toBe(0);
    expect(await text(BUNDLED_DATA, '/fr/faq/')).toContain(
      "Nos heures de bureau : du lundi au vendredi, de 9 h à 20 h (heure de l'Est).",
    );
  });

  it('changes everywhere with the setting, and without one no page promises a time', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'site.json', (s: Settings) => {
      s.responsePromise = 'We call you back the same day.';
      s.officeHours = 'Mon-Fri 8am-6pm EST';
      s.fr = { responsePromise: 'Nous vous rappelons le jour même.' };
    });
    for (const path of PAGES) {
      const main = await text(data, path);
      expect(main, path).toContain('We call you back the same day');
      expect(main, path).not.toMatch(/within 24 hours|9am-8pm/);
    }
    expect(await text(data, '/faq/')).toContain('Office hours are Mon-Fri 8am-6pm EST.');
    for (const path of FRENCH) {
      const main = await text(data, path);
      expect(main, path).toContain('Nous vous rappelons le jour même');
      expect(main, path).not.toContain('dans les 24 heures');
    }
    await editJson(data, 'site.json', (s: Settings) => {
      delete s.responsePromise;
      delete s.fr;
    });
    for (const path of [...PAGES, ...FRENCH]) {
      const main = await text(data, path);
      expect(main, path).not.toMatch(/within 24 hours|We call you back|dans les 24 heures/);
      // The sentence left out leaves no gap and no stray placeholder.
      expect(main, path).not.toMatch(/\{responsePromise\}| \./);
    }
  });
});

describe("the property's address", () => {
  it('takes a postal code in any case or spacing, and refuses what is not one', () => {
    expect(claimSchema.parse(sampleClaim({ postalCode: ' k1a0b1 ' })).postalCode).toBe('K1A 0B1');
    expect(claimSchema.parse(sampleClaim()).postalCode).toBe('');
    const bad = claimSchema.safeParse(sampleClaim({ postalCode: '90210' }));
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('is not a Canadian postal code, such as M5V 2T6');
  });

  it("promises a time to call back only in the firm's words, and gives French pages its French hours and e-mail", async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'site.json', (s: Settings) => {
      s.responsePromise = 'We call you back the same day.';
      s.fr = { officeHours: 'lun.-ven. 9 h à 17 h', email: 'aide@example.ca' };
    });
    const text = async (path: string) =>
      ((await render(data, path)).querySelector('body')?.textContent ?? '').replace(/\s+/g, ' ');
    const en = await text('/confirmation/');
    expect(en).toContain('We call you back the same day.');
    expect(en).toContain('Office hours: Mon-Fri 9am-8pm EST.');
    expect(en).not.toContain('24 hours');
    // No French promise given: the French page promises nothing, in no language.
    const fr = await text('/fr/confirmation/');
    expect(fr).not.toContain('We call you back');
    expect(fr).not.toContain('dans les 24 heures');
    expect(fr).toContain('Heures de bureau : lun.-ven. 9 h à 17 h.');
    expect(fr).toContain('aide@example.ca');
    const contact = await text('/fr/nous-joindre/');
    expect(contact).toContain('lun.-ven. 9 h à 17 h');
    expect(contact).toContain('aide@example.ca');
    expect(contact).not.toContain('Mon-Fri');
    expect(contact).not.toContain('help@claimright.ca');
    // Without a promise, none: the bundled words say no time of their own.
    const plain =
      (await render(FIXTURE_DATA, '/confirmation/')).querySelector('main')?.textContent ?? '';
    expect(plain).not.toMatch(/24 hours|within a day/);
    await editJson(data, 'site.json', (s: Settings) => {
      s.fr = { email: 'pas-un-courriel' };
    });
    expect((await dataIssues(data)).map((i) => `${i.field}: ${i.message}`)).toEqual([
      'fr.email: must be an e-mail address',
    ]);
  });
});
