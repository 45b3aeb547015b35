import { describe, expect, it } from 'vitest';
import { loadSite } from '../src/site/load.js';
import { BUNDLED_DATA, dataCopy, dataIssues, editJson, textOf } from './helpers.js';
import { pageRenderer } from './render-pages.js';

// Trust shown beside the form, from site.json only (issue 38, point 3).
const text = textOf;

const FORM_PAGES = ['/', '/toronto/', '/toronto/fire-damage-claims/', '/toronto/the-annex/'];

describe('trust beside the form', () => {
  it('shows nothing the owner has not given: the bundled site states no credential', async () => {
    const render = pageRenderer(await loadSite(BUNDLED_DATA)).render;
    for (const path of FORM_PAGES) expect(render(path).querySelector('.trust'), path).toBeNull();
  });

  it("shows the legal name, address, year, licences with the regulator's look-up, associations and dated reviews", async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'site.json', (s: Record<string, unknown>) => {
      s.business = {
        legalName: 'Harbour Claims Inc.',
        address: {
          street: '100 King St W',
          city: 'Toronto',
          province: 'ON',
          postalCode: 'M5X 1A9',
        },
        founded: 2009,
        licences: [
          { province: 'ON', issuedBy: 'FSRA', number: 'ON-12345' },
          { province: 'AB', issuedBy: 'Alberta Insurance Council', number: 'AB-678' },
        ],
        associations: [
          { name: 'Example Adjusters Association', url: 'https://example.org/members' },
        ],
      };
      s.reviews = [
        {
          text: 'They documented everything.',
          author: 'J. Smith',
          source: 'Google',
          url: 'https://example.com/review/1',
          date: '2025-03-14',
          rating: 5,
        },
      ];
    });
    expect(await dataIssues(data)).toEqual([]);
    const site = await loadSite(data);
    const { render } = pageRenderer(site);
    for (const path of FORM_PAGES) {
      const trust = render(path).querySelector('.hero .trust');
      expect(trust, path).not.toBeNull();
      const words = text(trust);
      expect(words).toContain('Harbour Claims Inc.');
      expect(words).toContain('100 King St W, Toronto, ON M5X 1A9');
      expect(words).toContain('In business since 2009');
      expect(words).toContain('FSRA licence ON-12345');
      expect(words).toContain('Member of Example Adjusters Association');
      expect(words).toContain('J. Smith, Rated 5 out of 5 on Google, March 14, 2025');
      // Each licence links to its regulator's own look-up where the data has one.
      const lookup = site.facts.provinces.get('AB')?.regulator.lookup?.url;
      expect(lookup).toBeDefined();
      expect(trust?.querySelector(`a[href="${lookup}"]`), path).not.toBeNull();
      expect(trust?.querySelector('a[href="https://example.com/review/1"]')).not.toBeNull();
      expect(trust?.querySelector('time')?.getAttribute('datetime')).toBe('2025-03-14');
    }
    // And in the footer, on every page.
    for (const path of [...FORM_PAGES, '/faq/']) {
      const footer = text(render(path).querySelector('.site-footer'));
      expect(footer, path).toContain('In business since 2009');
      expect(footer, path).toContain('Member of Example Adjusters Association');
      expect(footer, path).toContain('FSRA licence ON-12345');
      // A name that ends in a period ends the sentence too: "Inc.", never "Inc..".
      expect(footer, path).toContain('© Harbour Claims Inc. ');
      expect(footer, path).not.toContain('..');
    }
  });

  it('refuses a review without its source address or with a date that is not one', async () => {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'site.json', (s: Record<string, unknown>) => {
      s.reviews = [
        { text: 'Great', author: 'A', source: 'Google', url: 'http://x', date: '14/03/2025' },
      ];
    });
    const issues = await dataIssues(data);
    expect(issues.map((i) => `${i.file} ${i.record} ${i.field}: ${i.message}`)).toEqual([
      expect.stringMatching(/site\.json .*reviews.*url.*https/),
      expect.stringMatching(/site\.json .*reviews.*date.*YYYY-MM-DD/),
    ]);
  });
});
