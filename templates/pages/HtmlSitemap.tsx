import { fill, fillParts, type Strings } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import type { Formats } from '../../src/site/format.js';
import { type City, type ProvinceGroup, provinceGroups } from '../../src/site/model.js';
import { NATIONAL } from '../../src/site/segments.js';
import type { Links } from '../../src/urls.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { Layout } from '../layout/Layout.js';
import { trail } from './shared.js';

/** The four pages of a city the list links to, and their labels. */
const CITY_LINKS = [
  ['public-adjusters', 'findAdjusters'],
  ['top-adjusters', 'topAdjusters'],
  ['claims-offices', 'claimsOffices'],
  ['free-consultation', 'freeConsultation'],
] as const;

/**
 * One city of the list, rendered on its own: a national network lists 16,800 cities here (16 MB
 * of HTML), which as one React tree took 170 MB for a moment; a city at a time, a few kilobytes.
 */
function SitemapCity({
  city: c,
  s,
  links,
  format,
}: {
  city: City;
  s: Strings['htmlSitemap'];
  links: Links;
  format: Formats;
}) {
  return (
    <li className="sitemap-city">
      <h4>
        <a href={links.city(c)}>{c.name}</a>
      </h4>
      <p className="muted">{fill(s.population, { population: format.whole(c.population) })}</p>
      <p>{c.description}</p>
      <ul className="link-row">
        {CITY_LINKS.map(([segment, label]) => (
          <li key={segment}>
            <a href={links.cityPage(c, segment)}>{s[label]}</a>
          </li>
        ))}
      </ul>
    </li>
  );
}

function Group({
  group,
  t,
  links,
  format,
}: {
  group: ProvinceGroup;
  t: Strings;
  links: Links;
  format: Formats;
}) {
  const id = `p-${group.code.toLowerCase()}`;
  const s = t.htmlSitemap;
  return (
    <section className="sitemap-group" aria-labelledby={id}>
      <h3 id={id}>
        <a href={links.cityPage(NATIONAL, group.slug)}>{group.province}</a>
      </h3>
      <ul className="sitemap-cities">
        {group.cities.map((c) => (
          <Shared key={c.slug} component={SitemapCity} props={{ city: c, s, links, format }} />
        ))}
      </ul>
    </section>
  );
}

/** /sitemap (noindex): provinces alphabetically, cities by population, territories apart. */
export function HtmlSitemapPage(ctx: PageContext) {
  const { site } = ctx;
  const { t, links, format } = site;
  const s = t.htmlSitemap;
  const { provinces, territories } = provinceGroups(site);
  // The site pages in the page's own language.
  const sitePages = ctx.pages.filter(
    (p) =>
      p.lang === ctx.page.lang &&
      ['home', 'about', 'services', 'faq', 'contact', 'blog', 'privacy', 'terms'].includes(p.route),
  );
  return (
    <Layout ctx={ctx}>
      <Breadcrumbs trail={trail(ctx, t.layout.footerSitemap)} t={site.t} />
      <section className="section">
        <div className="container">
          <h1>{t.routes.sitemapTitle}</h1>
          <p>
            {fillParts(s.intro, {
              link: (
                <a key="link" href={links.sitemapXml}>
                  {s.xmlSitemap}
                </a>
              ),
            })}
          </p>
          <h2>{s.sitePages}</h2>
          <ul className="link-row">
            {sitePages.map((p) => (
              <li key={p.path}>
                <a href={links.href(p.path)}>{p.route === 'home' ? t.layout.home : p.title}</a>
              </li>
            ))}
            <li>
              <a href={links.cityPage(NATIONAL, 'public-adjusters')}>
                {t.layout.footerAdjustersInCanada}
              </a>
            </li>
          </ul>
          <h2>{s.provinces}</h2>
          {provinces.map((g) => (
            <Group key={g.code} group={g} t={t} links={links} format={format} />
          ))}
          <h2>{s.territories}</h2>
          {territories.map((g) => (
            <Group key={g.code} group={g} t={t} links={links} format={format} />
          ))}
        </div>
      </section>
    </Layout>
  );
}
