import { describe, expect, it } from 'vitest';
import { planPhotos } from '../src/photos/plan.js';
import { loadSite } from '../src/site/load.js';
import { BUNDLED_DATA, dataCopy, dataIssues, editJson, PAGE_ASSETS, textOf } from './helpers.js';
import { pageRenderer } from './render-pages.js';

const text = textOf;

const bundled = await loadSite(BUNDLED_DATA);
const { render } = pageRenderer(bundled);

describe('top-adjusters: choosing an adjuster', () => {
  it("names the province's licensing body, its licence look-up where it has one, and what to ask", () => {
    const main = render('/calgary/top-adjusters/').querySelector('main');
    const licence = main?.querySelector('[aria-labelledby="licence-title"]');
    expect(text(licence)).toContain('Alberta Insurance Council');
    // Alberta's regulator publishes a licence search: the page links it.
    const lookup = bundled.facts.provinces.get('AB')?.regulator.lookup;
    expect(lookup).toBeDefined();
    expect(licence?.querySelector(`a[href="${lookup?.url}"]`)).not.toBeNull();
    expect(main?.querySelectorAll('[aria-labelledby="ask-title"] li')).toHaveLength(5);
  });

  it("shows the province's own rules, fees among them, each with its source", () => {
    const main = render('/montreal/top-adjusters/').querySelector('main');
    const licence = main?.querySelector('[aria-labelledby="licence-title"]');
    expect(text(licence)).toContain('Autorité des marchés financiers');
    for (const fact of bundled.facts.provinces.get('QC')?.facts ?? [])
      expect(text(licence)).toContain(fact.text);
    expect(licence?.querySelectorAll('.source a').length).toBeGreaterThan(1);
  });

  it('shows no adjuster and no rating the owner has not given', () => {
    const root = render('/toronto/top-adjusters/');
    expect(root.querySelector('[aria-labelledby="adjusters-title"]')).toBeNull();
    expect(text(root.querySelector('main'))).not.toMatch(/top-rated|best-rated|★/i);
  });
});

describe('claims-offices: where to report a claim', () => {
  it("lists insurers' claims lines, each linked to dial and cited at the insurer's page", () => {
    const section = render('/winnipeg/claims-offices/').querySelector(
      '[aria-labelledby="insurers-title"]',
    );
    const items = section?.querySelectorAll('li') ?? [];
    expect(items.length).toBe(bundled.facts.insurers.length);
    expect(items.length).toBeGreaterThan(0);
    for (const [i, insurer] of bundled.facts.insurers.entries()) {
      const item = items[i];
      expect(text(item)).toContain(insurer.name);
      expect(
        item?.querySelector(`a[href="tel:+${insurer.phone.replace(/\D/g, '')}"]`),
      ).not.toBeNull();
      expect(item?.querySelector(`.source a[href="${insurer.source.url}"]`)).not.toBeNull();
    }
  });

  it("lists the province's complaint services and the national ombudservice", () => {
    const section = render('/toronto/claims-offices/').querySelector(
      '[aria-labelledby="complaints-title"]',
    );
    expect(text(section)).toContain('FSRA');
    expect(text(section)).toContain('General Insurance OmbudService');
  });

  it('shows no office where the owner has none', () => {
    expect(
      render('/toronto/claims-offices/').querySelector('[aria-labelledby="office-title"]'),
    ).toBeNull();
  });
});

describe("the firm's own adjusters and offices, from site.json", () => {
  async function withBusiness(business: Record<string, unknown>) {
    const { data } = await dataCopy(BUNDLED_DATA);
    await editJson(data, 'site.json', (s: { business?: Record<string, unknown> }) => {
      s.business = { ...s.business, ...business };
    });
    return data;
  }

  it("shows each adjuster on the pages of the cities they serve, and each office in its city's", async () => {
    const data = await withBusiness({
      adjusters: [
        {
          name: 'Test Adjuster One',
          title: 'Senior claims adjuster',
          photo: '/images/one.jpg',
          licences: [{ province: 'ON', issuedBy: 'FSRA', number: 'TEST-1' }],
          cities: ['toronto'],
        },
        {
          name: 'Test Adjuster Two',
          licences: [{ province: 'QC', issuedBy: 'AMF', number: 'TEST-2' }],
          cities: ['montreal', 'laval'],
        },
      ],
      offices: [
        {
          city: 'toronto',
          street: '1 Test Street',
          postalCode: 'M5V 2T6',
          phone: '1-416-555-0100',
        },
      ],
    });
    // The portrait as the build resizes it (tests/photos.test.ts makes the files themselves).
    const portrait = planPhotos(
      [
        {
          src: '/images/one.jpg',
          role: 'portrait',
          record: 'business.adjusters[0]',
          field: 'photo',
          bytes: new Uint8Array(),
          digest: 'a'.repeat(64),
          width: 600,
          height: 800,
        },
      ],
      'test',
    );
    const r = pageRenderer(await loadSite(data), { ...PAGE_ASSETS, photos: portrait }).render;
    const toronto = r('/toronto/top-adjusters/').querySelector(
      '[aria-labelledby="adjusters-title"]',
    );
    expect(text(toronto)).toContain('Test Adjuster One');
    expect(text(toronto)).toContain('Senior claims adjuster');
    expect(text(toronto)).toContain('TEST-1');
    // Never the original file: its resized copies, at the size it shows.
    expect(toronto?.querySelector('img[src="/images/one.jpg"]')).toBeNull();
    const img = toronto?.querySelector('picture img');
    expect(img?.getAttribute('alt')).toBe('Test Adjuster One');
    expect(img?.getAttribute('src')).toBe(portrait.portraits['/images/one.jpg']?.src);
    expect([img?.getAttribute('width'), img?.getAttribute('height')]).toEqual(['96', '96']);
    expect(text(toronto)).not.toContain('Test Adjuster Two');
    expect(text(r('/laval/top-adjusters/').querySelector('main'))).toContain('Test Adjuster Two');
    const office = r('/toronto/claims-offices/').querySelector('[aria-labelledby="office-title"]');
    expect(text(office)).toContain('1 Test Street');
    expect(text(office)).toContain('M5V 2T6');
    expect(office?.querySelector('a[href="tel:+14165550100"]')).not.toBeNull();
    expect(
      r('/ottawa/claims-offices/').querySelector('[aria-labelledby="office-title"]'),
    ).toBeNull();
  });

  it('a city slug that is not a city of the data set is a data error naming site.json and the field', async () => {
    const data = await withBusiness({
      adjusters: [{ name: 'A', licences: [], cities: ['toronto', 'atlantis'] }],
      offices: [{ city: 'gotham', street: '1 Main', postalCode: 'M5V 2T6' }],
    });
    const issues = await dataIssues(data);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: expect.stringMatching(/site\.json$/),
          field: 'business.adjusters.0.cities.1',
          message: expect.stringContaining('"atlantis" is not a city'),
        }),
        expect.objectContaining({
          file: expect.stringMatching(/site\.json$/),
          field: 'business.offices.0.city',
          message: expect.stringContaining('"gotham" is not a city'),
        }),
      ]),
    );
  });

  it('a photo that is not an image path under public/ is a data error', async () => {
    const data = await withBusiness({
      adjusters: [
        { name: 'A', photo: 'https://example.com/a.jpg', licences: [], cities: ['toronto'] },
      ],
    });
    const issues = await dataIssues(data);
    expect(issues.some((i) => i.field === 'business.adjusters.0.photo')).toBe(true);
  });
});
