import { type HTMLElement, parse } from 'node-html-parser';
import { describe, expect, it } from 'vitest';
import { buildPages } from '../src/pages.js';
import { FragmentCache } from '../src/render/fragments.js';
import { renderPage } from '../src/render/render.js';
import { aggregateRating } from '../src/render/structured-data.js';
import { shareImages } from '../src/share/share-images.js';
import { CANADA_FEE_TERMS } from '../src/site/content-schema.js';
import { loadSite } from '../src/site/load.js';
import { nearbyCities } from '../src/site/model.js';
import { slugify } from '../src/site/slug.js';
import { percentIncrease } from '../templates/components/Testimonials.js';
import { TEMPLATES } from '../templates/pages/index.js';
import { BUNDLED_DATA, PAGE_ASSETS, textOf } from './helpers.js';

const site = await loadSite(BUNDLED_DATA);
const pages = buildPages(site);
const assets = PAGE_ASSETS;

const share = shareImages(site);
// Fragments shared by pages (a city's FAQ, the layout's parts) are rendered once, as a build does.
const fragments = new FragmentCache();
const byPath = new Map(pages.map((p) => [p.path, p]));

function render(path: string): HTMLElement {
  const page = byPath.get(path);
  if (!page) throw new Error(`no page ${path}`);
  return parse(renderPage({ site, page, pages, assets, share }, TEMPLATES, fragments));
}

const text = textOf;
const hrefs = (root: HTMLElement, selector: string) =>
  root.querySelectorAll(selector).map((a) => a.getAttribute('href'));
const jsonLd = (root: HTMLElement) =>
  root.querySelectorAll('script[type="application/ld+json"]').flatMap((s) => {
    const data = JSON.parse(s.textContent);
    return Array.isArray(data) ? data : [data];
  });
const types = (root: HTMLElement) => jsonLd(root).map((d) => d['@type']);

describe('shared layout', () => {
  it('has the header links, the phone link and the assessment button, scoped to the city', () => {
    const home = render('/');
    const nav = home.querySelector('header nav');
    expect(nav?.querySelectorAll('ul a').map((a) => [text(a), a.getAttribute('href')])).toEqual([
      ['Home', '/'],
      ['About', '/canada/about/'],
      ['Services', '/canada/services/'],
      ['FAQ', '/faq/'],
      ['Blog', '/blog/'],
      ['Contact', '/contact/'],
    ]);
    expect(nav?.querySelector('a[href="tel:+18883399809"]')?.textContent).toBe('1-888-339-9809');
    expect(text(nav?.querySelector('a.button'))).toBe('Free Claim Assessment');
    const toronto = render('/toronto/fire-damage-claims/');
    expect(hrefs(toronto, 'header nav ul a')).toEqual([
      '/',
      '/toronto/about/',
      '/toronto/services/',
      '/faq/',
      '/blog/',
      '/contact/',
    ]);
    for (const sitePage of [
      '/services/',
      '/about/',
      '/faq/',
      '/contact/',
      '/privacy/',
      '/terms/',
      '/sitemap/',
    ]) {
      expect(hrefs(render(sitePage), 'header nav ul a').slice(1, 3), sitePage).toEqual([
        '/canada/about/',
        '/canada/services/',
      ]);
    }
  });

  it('has a mobile menu toggle bound to the menu', () => {
    const root = render('/');
    const toggle = root.querySelector('button[data-menu-toggle]');
    expect(toggle?.getAttribute('aria-expanded')).toBe('false');
    expect(toggle?.getAttribute('aria-controls')).toBe('site-menu');
    expect(root.querySelector('#site-menu')?.hasAttribute('data-menu')).toBe(true);
  });

  it('has the footer links, scoped to the city, with the four most populous cities', () => {
    const check = (path: string, scope: string) => {
      const links = hrefs(render(path), 'footer a');
      for (const seg of [
        'services',
        'residential-claims',
        'commercial-claims',
        'fire-damage-claims',
        'flood-damage-claims',
        'storm-damage-claims',
        'other-damage-claims',
        'public-adjusters',
        'top-adjusters',
        'claims-offices',
      ]) {
        expect(links, `${path} ${seg}`).toContain(`/${scope}/${seg}/`);
      }
      for (const l of [
        '/privacy/',
        '/terms/',
        '/sitemap/',
        '/canada/public-adjusters/',
        '/blog/',
        '/faq/',
        '/contact/',
      ])
        expect(links).toContain(l);
      const cities = links.filter(
        (l) =>
          /^\/[a-z-]+\/public-adjusters\/$/.test(l ?? '') &&
          l !== `/${scope}/public-adjusters/` &&
          l !== '/canada/public-adjusters/',
      );
      expect(cities).toEqual([
        '/toronto/public-adjusters/',
        '/montreal/public-adjusters/',
        '/calgary/public-adjusters/',
        '/ottawa/public-adjusters/',
      ]);
    };
    check('/', 'canada');
    check('/faq/', 'canada');
    check('/vancouver/about/', 'vancouver');
  });

  it('gives every page one h1, lang en-CA, a title, a description and Open Graph tags', () => {
    for (const p of [
      '/',
      '/toronto/',
      '/toronto/scarborough/',
      '/faq/',
      '/blog/after-a-house-fire/',
      '/confirmation/',
    ]) {
      const root = render(p);
      expect(root.querySelectorAll('h1'), p).toHaveLength(1);
      expect(root.querySelector('html')?.getAttribute('lang')).toBe('en-CA');
      expect(root.querySelector('title')?.textContent).toBeTruthy();
      expect(root.querySelector('meta[name="description"]')?.getAttribute('content')).toBeTruthy();
      expect(root.querySelector('meta[property="og:title"]')).not.toBeNull();
    }
  });
});

describe('home page', () => {
  const root = render('/');
  it('offers a free property damage assessment with the three trust badges', () => {
    expect(text(root.querySelector('h1'))).toBe('Free Property Damage Assessment');
    expect(root.querySelectorAll('.badge h2').map(text)).toEqual([
      'Licensed Adjusters',
      '95% Success Rate',
      '24/7 Support',
    ]);
  });
  it('lists the 6 most populous cities with four links each', () => {
    const cards = root.querySelectorAll('.city-finder-grid > li');
    expect(cards.map((c) => text(c.querySelector('h3')))).toEqual([
      'Toronto',
      'Montreal',
      'Calgary',
      'Ottawa',
      'Edmonton',
      'Winnipeg',
    ]);
    for (const card of cards) {
      const slug = slugify(text(card.querySelector('h3')));
      expect(hrefs(card, 'ul a')).toEqual([
        `/${slug}/public-adjusters/`,
        `/${slug}/top-adjusters/`,
        `/${slug}/claims-offices/`,
        `/${slug}/free-consultation/`,
      ]);
      // Short to the eye, each link names its city to a screen reader.
      expect(card.querySelector('ul a')?.getAttribute('aria-label')).toBe(
        `Find adjusters in ${text(card.querySelector('h3'))}`,
      );
    }
  });

  it('finds a city: a search field, the province pages and every city on the sitemap', () => {
    const form = root.querySelector('.city-finder form[data-city-search]');
    expect(form?.getAttribute('action')).toBe('/sitemap/');
    expect(form?.querySelector('input[type=search][name=city]')).not.toBeNull();
    expect(text(form?.querySelector('label'))).toBe('Find your city');
    // The names it offers as one types: every city, each once.
    const names = form?.querySelectorAll('datalist option').map((o) => o.getAttribute('value'));
    expect(names).toContain('Toronto');
    expect(new Set(names).size).toBe(names?.length);
    expect(hrefs(root, '.city-finder .chips a')).toEqual(
      site.national.areas.map((a) => `/canada/${a.slug}/`),
    );
    expect(hrefs(root, '.city-finder .more-link a')).toEqual(['/sitemap/']);
    // The wall of links is gone: the six cities' four links, and no more.
    expect(root.querySelectorAll('.city-finder-grid a')).toHaveLength(6 * 5);
  });

  it('ends with a call to action and carries the business JSON-LD with the toll-free phone in E.164', () => {
    expect(root.querySelector('.cta a[href="/canada/free-consultation/"]')).not.toBeNull();
    const business = jsonLd(root).find((d) => d['@type'] === 'ProfessionalService');
    expect(business.telephone).toBe('+18883399809');
  });
});

describe('city pages', () => {
  it('city home: questionnaire, intro, neighbourhoods, its catastrophes, claims rules, nearby cities', () => {
    const root = render('/toronto/');
    const toronto = site.bySlug.get('toronto');
    expect(root.querySelector('form[data-questionnaire]')?.getAttribute('action')).toBe(
      '/api/lead',
    );
    // The description, then where each of its statements can be checked.
    const intro = root.querySelector('#intro-title ~ .prose p');
    expect(text(intro).startsWith(toronto?.description ?? '-')).toBe(true);
    expect(intro && hrefs(intro, '.source a')).toEqual(
      toronto?.descriptionSources.map((s) => s.url),
    );
    expect(toronto?.descriptionSources.length).toBeGreaterThan(0);
    expect(hrefs(root, '#intro-title ~ .prose .muted a')).toEqual([
      site.facts.populationSource?.url,
    ]);
    expect(hrefs(root, '.chips a')).toEqual(toronto?.areas.map((a) => `/toronto/${a.slug}/`));
    // The insured catastrophes the data set links to Toronto, each with its source.
    const events = root.querySelectorAll('#catastrophes-title ~ ul > li');
    const expected = site.facts.catastrophes.filter((c) => c.cities.includes('toronto'));
    expect(events).toHaveLength(expected.length);
    expect(expected.length).toBeGreaterThan(0);
    for (const [i, li] of events.entries()) {
      expect(text(li)).toContain(expected[i]?.insuredDamage);
      expect(li.querySelector('.source a')?.getAttribute('href')).toBe(expected[i]?.source.url);
    }
    // Ontario's rules are on Ontario's page; the city's page names the regulator and links it.
    expect(text(root.querySelector('#rules-title')?.parentNode)).toContain('FSRA');
    expect(hrefs(root, '#rules-title ~ p a')).toEqual(['/canada/ontario/']);
    const nearby = root.querySelectorAll('#nearby-title ~ ul > li');
    expect(nearby).toHaveLength(6);
    const nearest = toronto && nearbyCities(site, toronto, 6)[0];
    expect(text(nearby[0])).toMatch(new RegExp(`^${nearest?.name} \\(Ontario, \\d+ km\\)$`));
    // The process and the FAQ, the same in every city, are on the city's other pages.
    expect(root.querySelector('#how-title')).toBeNull();
    expect(root.querySelector('.accordion')).toBeNull();
    expect(text(root)).toContain('5-15%');
    expect(root.querySelector('.cta')).not.toBeNull();
    expect(types(root)).toEqual(['ProfessionalService', 'BreadcrumbList', 'Service']);
  });

  it("names the sources of a city's neighbourhood names and coordinates where the data has them", () => {
    const root = render('/vancouver/');
    const vancouver = site.bySlug.get('vancouver');
    expect(vancouver?.sources.areas && vancouver.sources.coordinates).toBeTruthy();
    expect(hrefs(root, '#areas-title ~ .muted .source a')).toEqual([vancouver?.sources.areas?.url]);
    expect(hrefs(root, '#nearby-title ~ .section-intro .source a')).toEqual([
      vancouver?.sources.coordinates?.url,
    ]);
  });

  it('cites each page that names one neighbourhood on its own, and shows no chips where no page names any', () => {
    const vancouver = site.bySlug.get('vancouver');
    if (!vancouver) throw new Error('vancouver missing');
    const own = { publisher: 'A local paper', url: 'https://news.example/kitsilano' };
    const areas = [
      ...vancouver.areas.filter((a) => !a.description),
      { name: 'Extra Place', slug: 'extra-place', source: own },
    ];
    const named = { ...vancouver, areas };
    const bySlug = new Map(site.bySlug).set('vancouver', named);
    const edited = {
      ...site,
      cities: site.cities.map((c) => (c === vancouver ? named : c)),
      bySlug,
    };
    const renderIn = (s: typeof site, path: string) => {
      const all = buildPages(s);
      const page = all.find((p) => p.path === path);
      if (!page) throw new Error(`no page ${path}`);
      return parse(
        renderPage({ site: s, page, pages: all, assets, share: shareImages(s) }, TEMPLATES),
      );
    };
    const root = renderIn(edited, '/vancouver/');
    expect(hrefs(root, '#areas-title ~ .muted .source a')).toEqual([vancouver.sources.areas?.url]);
    expect(hrefs(root, '#areas-title ~ .muted > a')).toEqual([own.url]);
    expect(text(root.querySelector('#areas-title ~ .muted'))).toContain(
      'Extra Place (A local paper)',
    );
    expect(
      hrefs(renderIn(edited, '/vancouver/extra-place/'), '#local-title ~ .prose .source a'),
    ).toContain(own.url);
    const bare = { ...vancouver, areas: [] };
    const empty = {
      ...site,
      cities: site.cities.map((c) => (c === vancouver ? bare : c)),
      bySlug: new Map(site.bySlug).set('vancouver', bare),
    };
    expect(renderIn(empty, '/vancouver/').querySelector('#areas-title')).toBeNull();
    expect(renderIn(empty, '/vancouver/about/').querySelector('#areas-title')).toBeNull();
    expect(text(renderIn(empty, '/vancouver/'))).toContain(vancouver.description);
  });

  it("the header's assessment button goes to the form on a page that has it, else to the form's page", () => {
    const button = (root: HTMLElement) =>
      root.querySelector('.site-header .button-accent')?.getAttribute('href');
    for (const path of ['/toronto/', '/toronto/fire-damage-claims/', '/toronto/the-annex/']) {
      const root = render(path);
      expect(button(root), path).toBe('#claim-form');
      expect(root.querySelector('#claim-form')?.getAttribute('data-questionnaire')).toBe('');
    }
    expect(button(render('/faq/'))).toBe('/canada/free-consultation/');
    expect(button(render('/toronto/about/'))).toBe('/toronto/free-consultation/');
  });

  it('shows the business a homeowner can check, as much as site.json says, and nothing it does not', () => {
    const business = {
      legalName: 'Example Claims Services Inc.',
      address: {
        street: '100 King St W',
        city: 'Toronto',
        province: 'ON' as const,
        postalCode: 'M5X 1A9',
      },
      licences: [{ province: 'ON' as const, issuedBy: 'FSRA', number: 'TEST-123' }],
    };
    const owned = { ...site, settings: { ...site.settings, business } };
    const at = (path: string) => {
      const page = pages.find((p) => p.path === path);
      if (!page) throw new Error(path);
      return parse(
        renderPage({ site: owned, page, pages, assets, share: shareImages(owned) }, TEMPLATES),
      );
    };
    const home = at('/toronto/');
    expect(text(home.querySelector('.footer-legal'))).toContain('© Example Claims Services Inc.');
    expect(text(home.querySelector('.footer-legal address'))).toBe(
      '100 King St W, Toronto, ON M5X 1A9',
    );
    expect(text(home.querySelector('.footer-legal .licences'))).toBe(
      'Ontario: FSRA licence TEST-123',
    );
    expect(text(at('/contact/'))).toContain('Who We Are');
    const org = jsonLd(home).find((d) => d['@type'] === 'ProfessionalService');
    expect(org.legalName).toBe('Example Claims Services Inc.');
    expect(org.address).toMatchObject({ streetAddress: '100 King St W', postalCode: 'M5X 1A9' });
    // The bundled site.json says none of it: nothing of it is shown or claimed.
    const bare = render('/toronto/');
    expect(bare.querySelector('.footer-legal address')).toBeNull();
    expect(jsonLd(bare).find((d) => d['@type'] === 'ProfessionalService').address).toBeUndefined();
    expect(text(render('/contact/'))).not.toContain('Who We Are');
  });

  it('says under the submit button who receives the answers, linking the privacy policy', () => {
    for (const path of ['/toronto/', '/montreal/fire-damage-claims/', '/toronto/the-annex/']) {
      const consent = render(path).querySelector('form[data-questionnaire] .form-consent');
      expect(text(consent), path).toContain('we share your answers with a licensed adjuster');
      expect(consent?.querySelector('a')?.getAttribute('href')).toBe('/privacy/');
    }
    expect(text(render('/privacy/'))).toContain('Your consent when you send a form.');
  });

  it("a city's other landing pages keep How It Works and the four FAQs", () => {
    const root = render('/toronto/public-adjusters/');
    expect(root.querySelectorAll('#how-title ~ .steps > li')).toHaveLength(3);
    const faq = root.querySelectorAll('.accordion-heading button').map(text);
    expect(faq).toHaveLength(4);
    expect(faq.join(' ')).toContain('Toronto');
    expect(types(root)).toEqual(['ProfessionalService', 'BreadcrumbList', 'Service', 'FAQPage']);
  });

  it("Québec's pages say how claims adjusting works there, not the rest of Canada's terms", () => {
    const home = render('/montreal/');
    expect(text(home.querySelector('.lead'))).toContain(
      'a claims adjuster certified by the Autorité des marchés financiers',
    );
    const main = home.querySelector('main');
    expect(text(main)).not.toContain('5-15%');
    expect(text(main)).not.toContain('licensed public adjuster');
    expect(text(home.querySelector('.promise-list'))).toContain('written contract');
    const faq = render('/montreal/public-adjusters/');
    // Nowhere on a Québec page: not its text, its search snippet or its structured data.
    const quebecPages = pages.filter(
      (p) => p.city?.provinceCode === 'QC' || p.path === '/canada/quebec/',
    );
    expect(quebecPages.length).toBeGreaterThan(500);
    const promising = quebecPages.filter((p) => {
      const root = render(p.path);
      const snippet = root.querySelector('meta[name="description"]')?.getAttribute('content');
      return CANADA_FEE_TERMS.test(
        `${text(root.querySelector('main'))} ${snippet} ${JSON.stringify(jsonLd(root))}`,
      );
    });
    expect(promising.map((p) => p.path)).toEqual([]);
    expect(text(faq)).toContain('an hourly rate plus disbursements');
    // The province's page holds the regulator's facts, each with the regulator's own source.
    const quebec = render('/canada/quebec/');
    expect(text(quebec)).toContain('Chambre de l');
    const sources = hrefs(
      quebec,
      '#rules-title ~ * .source a, #rules-title ~ .fact-list .source a',
    );
    expect(sources.some((u) => u?.startsWith('https://lautorite.qc.ca/'))).toBe(true);
    expect(sources.some((u) => u?.startsWith('https://chad.ca/'))).toBe(true);
    expect(text(quebec.querySelector('main'))).not.toContain('5-15%');
  });

  it("links where a province lets homeowners check an adjuster's licence, with its source", () => {
    for (const path of ['/canada/prince-edward-island/', '/charlottetown/', '/canada/alberta/']) {
      const link = [...render(path).querySelectorAll('main a')].find((a) =>
        text(a).startsWith('Check an adjuster'),
      );
      expect(link?.getAttribute('href'), path).toMatch(
        /^https:\/\/www\.(princeedwardisland\.ca|abcouncil\.ab\.ca)\//,
      );
      expect(link?.parentNode?.querySelector('.source a'), path).not.toBeNull();
    }
    // Where the data knows of no look-up, the page does not pretend there is one.
    expect(text(render('/canada/ontario/').querySelector('main'))).not.toContain(
      'Check an adjuster',
    );
  });

  it('canada/public-adjusters has no neighbourhood chips', () => {
    const root = render('/canada/public-adjusters/');
    expect(text(root.querySelector('h1'))).toBe('Public Adjusters in Canada');
    expect(root.querySelector('.chips')).toBeNull();
    const service = jsonLd(root).find((d) => d['@type'] === 'Service');
    expect(service.areaServed).toContainEqual({
      '@type': 'GeoCircle',
      geoMidpoint: { '@type': 'GeoCoordinates', latitude: 56.13, longitude: -106.35 },
      geoRadius: 50000,
    });
  });

  it('a city service area is a 50 km circle around the city', () => {
    const service = jsonLd(render('/calgary/public-adjusters/')).find(
      (d) => d['@type'] === 'Service',
    );
    const calgary = site.bySlug.get('calgary');
    expect(service.areaServed[0]).toMatchObject({
      '@type': 'City',
      name: 'Calgary',
      containedInPlace: { name: 'Alberta' },
    });
    expect(service.areaServed[1]).toEqual({
      '@type': 'GeoCircle',
      geoMidpoint: {
        '@type': 'GeoCoordinates',
        latitude: calgary?.coordinates.lat,
        longitude: calgary?.coordinates.lng,
      },
      geoRadius: 50000,
    });
  });

  it('questionnaire pages carry the spec titles where they deliver them, else what they deliver', () => {
    // Nothing here rates adjusters or lists claims offices: the two pages say what they give.
    expect(text(render('/toronto/top-adjusters/').querySelector('h1'))).toBe(
      'Choosing a Public Adjuster in Toronto',
    );
    expect(text(render('/toronto/claims-offices/').querySelector('h1'))).toBe(
      'Where to Report a Claim in Toronto',
    );
    expect(text(render('/toronto/free-consultation/').querySelector('h1'))).toBe(
      'Free Insurance Claim Assessment in Toronto',
    );
    expect(
      render('/toronto/top-adjusters/').querySelector('form[data-questionnaire]'),
    ).not.toBeNull();
  });

  it('city about: six service types, the statistics, area cards, process, testimonials', () => {
    const root = render('/halifax/about/');
    expect(root.querySelectorAll('#types-title ~ .card-grid > li')).toHaveLength(6);
    expect(
      root
        .querySelectorAll('.stat')
        .map((s) => [text(s.querySelector('dd')), text(s.querySelector('dt'))]),
    ).toEqual([
      // The spec's figures the data marks as samples say so until replaced (issue 44).
      ['1000+ Sample: replace before publishing', 'Satisfied Clients'],
      ['95% Sample: replace before publishing', 'Success Rate'],
      ['24/7', 'Emergency Response'],
    ]);
    const halifax = site.bySlug.get('halifax');
    expect(hrefs(root, '.area-card')).toEqual(halifax?.areas.map((a) => `/halifax/${a.slug}/`));
    expect(root.querySelectorAll('#process-title ~ .steps > li').length).toBeGreaterThanOrEqual(3);
  });

  it('testimonials: six, rated 5, listed once, with the percentage increase formula', () => {
    const root = render('/toronto/about/');
    const lists = root.querySelectorAll('.carousel-list');
    expect(lists).toHaveLength(1);
    const cards = lists[0]?.querySelectorAll('.testimonial') ?? [];
    expect(cards).toHaveLength(6);
    site.content.testimonials.forEach((t, i) => {
      expect(text(cards[i]?.querySelector('.increase'))).toBe(
        `+${Math.round((t.finalSettlement / t.insurerOffer - 1) * 100)}%`,
      );
      expect(cards[i]?.querySelector('.stars')?.getAttribute('aria-label')).toBe(
        'Rated 5 out of 5',
      );
    });
    expect(percentIncrease({ insurerOffer: 40000, finalSettlement: 62500 })).toBe(56);
    expect(percentIncrease({ insurerOffer: 3, finalSettlement: 4 })).toBe(33);
  });

  it('the aggregate rating is the mean of the first half of the testimonials', () => {
    // The bundled testimonials are samples: as if they were real.
    const t = site.content.testimonials.map((x) => ({ ...x, sample: undefined }));
    expect(aggregateRating(t)).toMatchObject({ ratingValue: 5, reviewCount: 3 });
    const mixed = t.map((x, i) => ({ ...x, rating: [5, 4, 3, 1, 1, 1][i] })) as unknown as typeof t;
    expect(aggregateRating(mixed)?.ratingValue).toBe(4);
    // Sample testimonials count for nothing: with only samples there is no rating to publish.
    const samples = t.map((x, i) => ({ ...x, sample: i < 4 ? true : undefined })) as typeof t;
    expect(aggregateRating(samples)).toMatchObject({ ratingValue: 5, reviewCount: 1 });
    expect(aggregateRating(t.map((x) => ({ ...x, sample: true as const })))).toBeUndefined();
  });

  it('services: six cards with the spec titles, four features each, linking to claim-type pages', () => {
    for (const [path, scope] of [
      ['/services/', 'canada'],
      ['/regina/services/', 'regina'],
    ] as const) {
      const root = render(path);
      const cards = root.querySelectorAll('.service-card');
      expect(cards.map((c) => text(c.querySelector('h3')))).toEqual([
        'Residential',
        'Commercial',
        'Fire Damage',
        'Flood Damage',
        'Wind & Storm',
        'Other Damage',
      ]);
      for (const c of cards) expect(c.querySelectorAll('.checklist li')).toHaveLength(4);
      expect(cards.map((c) => c.querySelector('.card-link')?.getAttribute('href'))).toEqual(
        [
          'residential-claims',
          'commercial-claims',
          'fire-damage-claims',
          'flood-damage-claims',
          'storm-damage-claims',
          'other-damage-claims',
        ].map((s) => `/${scope}/${s}/`),
      );
    }
  });

  it('claim-type pages: assessment form, Assessment/Documentation/Negotiation, features, causes, coverage, FAQs', () => {
    const seen = new Set<string>();
    for (const seg of [
      'residential-claims',
      'commercial-claims',
      'fire-damage-claims',
      'flood-damage-claims',
      'storm-damage-claims',
      'other-damage-claims',
    ]) {
      const root = render(`/winnipeg/${seg}/`);
      expect(
        root.querySelector('form[data-questionnaire] input[name="form"]')?.getAttribute('value'),
      ).toBe('assessment');
      expect(root.querySelectorAll('#how-title ~ .steps h3').map(text)).toEqual([
        'Assessment',
        'Documentation',
        'Negotiation',
      ]);
      expect(root.querySelectorAll('#features-title ~ .checklist li').length).toBeGreaterThan(0);
      expect(root.querySelectorAll('#causes-title ~ ul li').length).toBeGreaterThan(0);
      expect(root.querySelectorAll('#coverage-title ~ ul li').length).toBeGreaterThan(0);
      expect(root.querySelectorAll('.accordion-item').length).toBeGreaterThan(0);
      expect(types(root)).toContain('FAQPage');
      seen.add(text(root.querySelector('.hero .lead')));
    }
    expect(seen.size).toBe(6);
  });

  it('area pages: the form, nearby cities and FAQs, naming the area and the city', () => {
    const root = render('/toronto/scarborough/');
    expect(text(root.querySelector('h1'))).toBe('Public Adjusters in Scarborough, Toronto');
    expect(root.querySelector('form[data-questionnaire]')).not.toBeNull();
    const nearby = hrefs(root, '.city-links a');
    expect(nearby).toHaveLength(6);
    expect(nearby).not.toContain('/toronto/public-adjusters/');
    expect(nearby[0]).toMatch(
      /^\/(mississauga|markham|vaughan|richmond-hill|pickering)\/public-adjusters\/$/,
    );
    expect(root.querySelectorAll('.accordion-item')).toHaveLength(4);
    expect(text(root.querySelector('#faq-title')?.parentNode)).toContain('Scarborough, Toronto');
  });

  it('province pages under canada list the province cities', () => {
    const root = render('/canada/saskatchewan/');
    expect(text(root.querySelector('h1'))).toBe('Public Adjusters in Saskatchewan');
    expect(hrefs(root, '.city-links a')).toEqual(
      site.cities.filter((c) => c.provinceCode === 'SK').map((c) => `/${c.slug}/public-adjusters/`),
    );
  });
});

describe('site pages', () => {
  it('/faq: five accordion groups and FAQPage JSON-LD in the head', () => {
    const root = render('/faq/');
    expect(root.querySelectorAll('.accordion')).toHaveLength(5);
    expect(
      root
        .querySelectorAll('section h2')
        .map((h) => h.getAttribute('id'))
        .filter((id) =>
          ['general', 'process', 'residential', 'commercial', 'specialized'].includes(id ?? ''),
        ),
    ).toEqual(['general', 'process', 'residential', 'commercial', 'specialized']);
    const faq = root
      .querySelectorAll('head script[type="application/ld+json"]')
      .flatMap((s) => JSON.parse(s.textContent))
      .find((d) => d['@type'] === 'FAQPage');
    expect(faq.mainEntity).toHaveLength(
      site.content.faq.groups.reduce((n, g) => n + g.items.length, 0),
    );
  });

  it('/contact: phone 24/7, e-mail, hours, service areas, reasons and a message form', () => {
    const root = render('/contact/');
    const all = text(root);
    for (const t of [
      '24/7 Emergency Line',
      '1-888-339-9809',
      'help@claimright.ca',
      'Mon-Fri 9am-8pm EST',
      'Emergency line',
      'Service Areas',
      'Why Choose Us',
    ])
      expect(all).toContain(t);
    const form = root.querySelector('form[data-contact-form]');
    expect(
      form
        ?.querySelectorAll('label')
        .map(text)
        .filter((l) => !l.startsWith('Leave')),
    ).toEqual(['Full name', 'Email', 'Phone number', 'Message']);
    expect(hrefs(root, '.area-card')).toHaveLength(13);
  });

  it("/privacy: the seven sections, the analytics one and Québec's, last updated 14 March 2024, privacy e-mail and phone", () => {
    const root = render('/privacy/');
    expect(text(root)).toContain('Last updated 14 March 2024');
    // The spec's seven, what the consent banner asks (issue 37: Law 25 wants it said), and where
    // information is kept outside Québec (issue 45).
    expect(root.querySelectorAll('.prose h2').map(text)).toEqual([
      'Information We Collect',
      'How We Use Your Information',
      'How We Share Your Information',
      'Cookies, Analytics and Where Visits Come From',
      'Data Security',
      'Your Rights',
      'Information Kept Outside Québec',
      'Contact Us',
      'Updates to This Policy',
    ]);
    const main = text(root.querySelector('main'));
    expect(main).toContain('privacy@claimright.ca');
    expect(main).toContain('1-888-339-9809');
    // Law 25: the person in charge named (the law's default while site.json names no one), the
    // rights it adds, and the Commission d'accès à l'information as the way to complain.
    expect(main).toContain(
      'The person in charge of the protection of personal information at ClaimRight Canada is the person with the highest authority at ClaimRight Canada.',
    );
    for (const right of ['access', 'rectification', 'portability', 'de-indexation'])
      expect(main).toContain(`(${right})`);
    expect(main).toContain(
      "Commission d'accès à l'information du Québec, online at plainte.cai.gouv.qc.ca",
    );
  });

  it('/terms: last updated March 14, 2024, fees only on success, negotiation then mediation then arbitration', () => {
    const root = render('/terms/');
    const main = text(root.querySelector('main'));
    expect(main).toContain('Last updated March 14, 2024');
    expect(main).toMatch(/no upfront fees/i);
    expect(main).toMatch(/negotiat[\s\S]*mediation[\s\S]*binding arbitration/i);
    expect(main).toMatch(/e-?mail/i);
  });

  it('/sitemap: noindex, provinces alphabetical, cities by population, Territories apart, link to sitemap.xml', () => {
    const root = render('/sitemap/');
    expect(root.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(root.querySelector('link[rel="canonical"]')).toBeNull();
    expect(root.querySelector('a[href="/sitemap.xml"]')).not.toBeNull();
    const headings = root.querySelectorAll('main h2, main h3').map(text);
    const terr = headings.indexOf('Territories');
    expect(headings.slice(headings.indexOf('Provinces') + 1, terr)).toEqual([
      'Alberta',
      'British Columbia',
      'Manitoba',
      'New Brunswick',
      'Newfoundland and Labrador',
      'Nova Scotia',
      'Ontario',
      'Prince Edward Island',
      'Quebec',
      'Saskatchewan',
    ]);
    expect(headings.slice(terr + 1)).toEqual(['Northwest Territories', 'Nunavut', 'Yukon']);
    const ontario = root.querySelector('#p-on')?.parentNode;
    const cities = ontario?.querySelectorAll('.sitemap-city') ?? [];
    const pops = cities.map((c) => Number(text(c.querySelector('.muted')).replace(/\D/g, '')));
    expect(pops).toEqual([...pops].sort((a, b) => b - a));
    expect(pops[0]).toBe(2794356);
    expect(hrefs(cities[0] as HTMLElement, '.link-row a')).toEqual([
      '/toronto/public-adjusters/',
      '/toronto/top-adjusters/',
      '/toronto/claims-offices/',
      '/toronto/free-consultation/',
    ]);
    expect(root.querySelectorAll('.sitemap-city')).toHaveLength(site.cities.length);
  });

  it('/confirmation: outside the layout, noindex, 24 hours, phone and e-mail, return button, "your city"', () => {
    const root = render('/confirmation/');
    expect(root.querySelector('.site-header')).toBeNull();
    expect(root.querySelector('.site-footer')).toBeNull();
    expect(root.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    const main = text(root.querySelector('main'));
    expect(main).toContain('within 24 hours');
    expect(main).toContain('1-888-339-9809');
    expect(main).toContain('help@claimright.ca');
    expect(text(root.querySelector('[data-confirmation-city]'))).toBe('your city');
    expect(text(root.querySelector('[data-history-back]'))).toBe('Return to Previous Page');
    // The reference and the damage's own step wait for the script (?ref=, ?damage=); the
    // general steps are there without it.
    expect(root.querySelector('[data-confirmation-ref]')?.hasAttribute('hidden')).toBe(true);
    const wait = root.querySelectorAll('.confirm-wait li');
    expect(wait.filter((li) => !li.hasAttribute('hidden')).map(text)).toEqual([
      'Photograph or film all the damage, room by room, before anything is cleaned up or thrown away.',
      'Keep damaged items, or clear photos of them, until your insurer has seen them.',
      "Write down the name and phone number of your insurer's adjuster and your claim number.",
      'Do not sign a release or accept a final offer before you have had advice.',
      'Keep the receipts for what you spend to protect the property or to stay elsewhere.',
    ]);
    expect(wait.map((li) => li.getAttribute('data-wait')).filter(Boolean)).toEqual([
      'water',
      'fire',
      'wind storm',
      'theft',
    ]);
  });

  it('404: City Not Found with quick links, and the Page Not Found screen', () => {
    const root = render('/404.html');
    expect(text(root.querySelector('h1'))).toBe('City Not Found');
    expect(hrefs(root, '[data-not-found="city"] .chips a')).toEqual([
      '/toronto/',
      '/vancouver/',
      '/montreal/',
      '/calgary/',
    ]);
    expect(root.querySelector('[data-not-found="city"] a[href="/"]')).not.toBeNull();
    const service = root.querySelector('[data-not-found="service"]');
    expect(text(service?.querySelector('h2'))).toBe('Page Not Found');
    expect(text(service)).toContain('The requested service could not be found.');
    expect(text(root.querySelector('[data-not-found="plain"]'))).toBe('City not found');
    // For an address that is no city's page: Page not found, with the city search.
    const page = root.querySelector('[data-not-found="page"]');
    expect(page?.getAttribute('hidden')).not.toBeNull();
    expect(text(page?.querySelector('h1'))).toBe('Page not found');
    expect(page?.querySelector('form[data-city-search] input[type=search]')).not.toBeNull();
  });

  it('/canada/: links to every province and territory page', () => {
    const root = render('/canada/');
    expect(text(root.querySelector('#provinces-title'))).toBe('Provinces and Territories');
    expect(hrefs(root, '.area-grid a')).toEqual(
      site.national.areas.map((a) => `/canada/${a.slug}/`),
    );
    expect(site.national.areas).toHaveLength(13);
  });

  it('/contact: the 24/7 emergency line and the office hours apart', () => {
    const root = render('/contact/');
    const cards = root.querySelectorAll('.contact-cards .card');
    const phone = cards.find((c) => c.querySelector('a[href^="tel:"]'));
    expect(text(phone?.querySelector('h2'))).toBe('24/7 Emergency Line');
    const hours = root.querySelector('.hours');
    expect(hours?.querySelectorAll('dt').map(text)).toEqual([
      'Emergency line',
      'Office hours (questions, documents, appointments)',
    ]);
    expect(hours?.querySelectorAll('dd').map(text)).toEqual(['24/7', 'Mon-Fri 9am-8pm EST']);
    expect(text(root)).not.toContain('Phone Support 24/7');
  });

  it('/blog lists at least three articles and each renders from Markdown', () => {
    const root = render('/blog/');
    const links = hrefs(root, '.post-list h2 a');
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const slug of [
      'basement-flood-first-steps',
      'after-a-house-fire',
      'public-adjuster-fees-explained',
    ])
      expect(links).toContain(`/blog/${slug}/`);
    const post = render('/blog/public-adjuster-fees-explained/');
    expect(post.querySelectorAll('.prose h2').length).toBeGreaterThan(1);
    expect(types(post)).toContain('Article');
  });
});

describe('structured data', () => {
  it('parses on every page, with BreadcrumbList on every nested page', () => {
    // The JSON-LD scripts alone: every page is rendered, so skip building a DOM for each.
    const scripts = /<script type="application\/ld\+json">([^<]*)<\/script>/g;
    // Shared fragments rendered once, as the build does: this renders every page of the site.
    const fragments = new FragmentCache();
    for (const page of pages) {
      const html = renderPage(
        { site, page, pages, assets, share: shareImages(site) },
        TEMPLATES,
        fragments,
      );
      const t = [...html.matchAll(scripts)]
        .flatMap((m) => [JSON.parse(m[1] ?? '')].flat())
        .map((d) => d['@type']);
      if (page.sitemap !== null) expect(t, page.path).toContain('ProfessionalService');
      // Nested below its language's home (/fr/ is the French site's top).
      const depth = page.path.split('/').filter(Boolean).length - (page.lang === 'en' ? 0 : 1);
      if (depth > 1) expect(t, page.path).toContain('BreadcrumbList');
      if (['claim-type', 'area', 'city-home', 'questionnaire'].includes(page.route))
        expect(t, page.path).toContain('Service');
    }
  }, 120_000);
});
