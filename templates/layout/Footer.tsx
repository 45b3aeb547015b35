import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { City } from '../../src/site/model.js';
import type { Business } from '../../src/site/schema.js';
import { CLAIM_TYPES, NATIONAL } from '../../src/site/segments.js';
import type { Links } from '../../src/urls.js';
import { BusinessDetails } from '../components/BusinessDetails.js';
import { ConsentSettings } from '../components/Consent.js';

/** The footer: scoped city links, the four most populous cities, and the site pages. */
export function Footer({
  siteName,
  phone,
  tel,
  email,
  scope,
  topCities,
  business,
  t,
  links,
  blog,
  analytics = false,
}: {
  siteName: string;
  phone: string;
  /** The call link of that number (links.tel). */
  tel: string;
  email: string;
  scope: string;
  topCities: readonly City[];
  business?: Business;
  t: Strings;
  links: Links;
  /** The blog's path, where the page's language has it. */
  blog: string | null;
  /** Analytics are on: the footer offers the consent choice again. */
  analytics?: boolean;
}) {
  const l = t.layout;

  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <ServicesColumn scope={scope} t={t} links={links} />
        <AdjustersColumn scope={scope} t={t} links={links} />
        <CitiesColumn topCities={topCities} t={t} links={links} />
        <CompanyColumn blog={blog} phone={phone} tel={tel} email={email} t={t} links={links} />
      </div>
      {/* The links before the copyright line, so that on a phone it runs on after them; wider
          screens put it first again (site.css). */}
      <div className="container footer-legal">
        <ul>
          <li>
            <a href={links.page('privacy')}>{l.footerPrivacy}</a>
          </li>
          <li>
            <a href={links.page('terms')}>{l.footerTerms}</a>
          </li>
          <li>
            <a href={links.page('sitemap')}>{l.footerSitemap}</a>
          </li>
          {analytics && <ConsentSettings t={t} />}
        </ul>
        <p>
          © {sentence(business?.legalName ?? siteName)}{' '}
          <span className="footer-tagline">{l.footerTagline}</span>
        </p>
        <BusinessDetails business={business} t={t} />
      </div>
    </footer>
  );
}

/** The claim types, each for the scope's place. */
function ServicesColumn({ scope, t, links }: { scope: string; t: Strings; links: Links }) {
  const l = t.layout;
  return (
    <section aria-labelledby="footer-services">
      <h2 id="footer-services">{l.footerServices}</h2>
      <ul>
        <li>
          <a href={links.cityPage(scope, 'services')}>{l.footerAllServices}</a>
        </li>
        {/* Short under their heading, so that a phone's two columns hold them on a line. */}
        {CLAIM_TYPES.map((c) => (
          <li key={c.type}>
            <a href={links.cityPage(scope, c.segment)}>
              <Short short={t.footerClaimTypes[c.type]} full={t.claimTypes[c.type]} />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The pages for finding an adjuster, for the scope's place. */
function AdjustersColumn({ scope, t, links }: { scope: string; t: Strings; links: Links }) {
  const l = t.layout;
  return (
    <section aria-labelledby="footer-adjusters">
      <h2 id="footer-adjusters">{l.footerFindAdjuster}</h2>
      <ul>
        <li>
          <a href={links.cityPage(scope, 'public-adjusters')}>{l.footerPublicAdjusters}</a>
        </li>
        <li>
          <a href={links.cityPage(scope, 'top-adjusters')}>{l.footerTopAdjusters}</a>
        </li>
        <li>
          <a href={links.cityPage(scope, 'claims-offices')}>{l.footerClaimsOffices}</a>
        </li>
      </ul>
    </section>
  );
}

/** The most populous cities' adjuster pages, and the country's. */
function CitiesColumn({
  topCities,
  t,
  links,
}: {
  topCities: readonly City[];
  t: Strings;
  links: Links;
}) {
  const l = t.layout;
  return (
    <section aria-labelledby="footer-cities">
      <h2 id="footer-cities">{l.footerPopularCities}</h2>
      <ul>
        {topCities.map((c) => (
          <li key={c.slug}>
            <a href={links.cityPage(c, 'public-adjusters')}>
              <Short short={c.name} full={fill(l.footerAdjustersIn, { city: c.name })} />
            </a>
          </li>
        ))}
        <li>
          <a href={links.cityPage(NATIONAL, 'public-adjusters')}>
            <Short short={l.footerCanada} full={l.footerAdjustersInCanada} />
          </a>
        </li>
      </ul>
    </section>
  );
}

/** The site's own pages and how to reach the firm. */
function CompanyColumn({
  blog,
  phone,
  tel,
  email,
  t,
  links,
}: {
  blog: string | null;
  phone: string;
  tel: string;
  email: string;
  t: Strings;
  links: Links;
}) {
  const l = t.layout;
  return (
    <section aria-labelledby="footer-company">
      <h2 id="footer-company">{l.footerCompany}</h2>
      <ul>
        {blog && (
          <li>
            <a href={blog}>{l.footerBlog}</a>
          </li>
        )}
        <li>
          <a href={links.page('faq')}>{l.faq}</a>
        </li>
        <li>
          <a href={links.page('contact')}>{l.contact}</a>
        </li>
        <li>
          <a href={tel}>{phone}</a>
        </li>
        <li>
          <a href={links.mailto(email)}>{email}</a>
        </li>
      </ul>
    </section>
  );
}

/** Short to the eye under its heading; the full words, which name the page, to a screen reader. */
function Short({ short, full }: { short: string; full: string }) {
  return (
    <>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{full}</span>
    </>
  );
}

/** A name as a sentence: "Harbour Claims Inc." keeps its one period, "Harbour Claims" gets one. */
const sentence = (name: string) => (/[.!?]$/.test(name) ? name : `${name}.`);
