import { CLAIM_TYPE_NAMES } from '../../src/routes.js';
import type { City } from '../../src/site/model.js';
import type { Business } from '../../src/site/schema.js';
import { CLAIM_TYPES, NATIONAL } from '../../src/site/segments.js';
import { links } from '../../src/urls.js';
import { BusinessDetails } from '../components/BusinessDetails.js';

/** The footer: scoped city links, the four most populous cities, and the site pages. */
export function Footer({
  siteName,
  phone,
  email,
  scope,
  topCities,
  business,
}: {
  siteName: string;
  phone: string;
  email: string;
  scope: string;
  topCities: readonly City[];
  business?: Business;
}) {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-services">
          <h2 id="footer-services">Services</h2>
          <ul>
            <li>
              <a href={links.cityPage(scope, 'services')}>All Services</a>
            </li>
            {CLAIM_TYPES.map((c) => (
              <li key={c.type}>
                <a href={links.cityPage(scope, c.segment)}>{CLAIM_TYPE_NAMES[c.type]}</a>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-adjusters">
          <h2 id="footer-adjusters">Find an Adjuster</h2>
          <ul>
            <li>
              <a href={links.cityPage(scope, 'public-adjusters')}>Public Adjusters</a>
            </li>
            <li>
              <a href={links.cityPage(scope, 'top-adjusters')}>Top-Rated Adjusters</a>
            </li>
            <li>
              <a href={links.cityPage(scope, 'claims-offices')}>Claims Offices</a>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-cities">
          <h2 id="footer-cities">Popular Cities</h2>
          <ul>
            {topCities.map((c) => (
              <li key={c.slug}>
                <a href={links.cityPage(c, 'public-adjusters')}>Public Adjusters in {c.name}</a>
              </li>
            ))}
            <li>
              <a href={links.cityPage(NATIONAL, 'public-adjusters')}>Public Adjusters in Canada</a>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-company">
          <h2 id="footer-company">Company</h2>
          <ul>
            <li>
              <a href={links.page('blog')}>Blog</a>
            </li>
            <li>
              <a href={links.page('faq')}>FAQ</a>
            </li>
            <li>
              <a href={links.page('contact')}>Contact</a>
            </li>
            <li>
              <a href={links.tel(phone)}>{phone}</a>
            </li>
            <li>
              <a href={links.mailto(email)}>{email}</a>
            </li>
          </ul>
        </section>
      </div>
      <div className="container footer-legal">
        <p>
          © {business?.legalName ?? siteName}. Licensed public adjusters working for policyholders,
          never for insurers.
        </p>
        <BusinessDetails business={business} />
        <ul>
          <li>
            <a href={links.page('privacy')}>Privacy Policy</a>
          </li>
          <li>
            <a href={links.page('terms')}>Terms of Service</a>
          </li>
          <li>
            <a href={links.page('sitemap')}>Sitemap</a>
          </li>
        </ul>
      </div>
    </footer>
  );
}
