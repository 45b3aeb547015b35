import type { PageContext } from '../../src/render/context.js';
import { formatWhole } from '../../src/site/format.js';
import { type ProvinceGroup, provinceGroups } from '../../src/site/model.js';
import { NATIONAL } from '../../src/site/segments.js';
import { slugify } from '../../src/site/slug.js';
import { links } from '../../src/urls.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { Layout } from '../layout/Layout.js';
import { trail } from './shared.js';

function Group({ group }: { group: ProvinceGroup }) {
  const id = `p-${group.code.toLowerCase()}`;
  return (
    <section className="sitemap-group" aria-labelledby={id}>
      <h3 id={id}>
        <a href={links.cityPage(NATIONAL, slugify(group.province))}>{group.province}</a>
      </h3>
      <ul className="sitemap-cities">
        {group.cities.map((c) => (
          <li key={c.slug} className="sitemap-city">
            <h4>
              <a href={links.city(c)}>{c.name}</a>
            </h4>
            <p className="muted">Population {formatWhole(c.population)}</p>
            <p>{c.description}</p>
            <ul className="link-row">
              <li>
                <a href={links.cityPage(c, 'public-adjusters')}>Find adjusters</a>
              </li>
              <li>
                <a href={links.cityPage(c, 'top-adjusters')}>Top adjusters</a>
              </li>
              <li>
                <a href={links.cityPage(c, 'claims-offices')}>Claims offices</a>
              </li>
              <li>
                <a href={links.cityPage(c, 'free-consultation')}>Free consultation</a>
              </li>
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /sitemap (noindex): provinces alphabetically, cities by population, territories apart. */
export function HtmlSitemapPage(ctx: PageContext) {
  const { provinces, territories } = provinceGroups(ctx.site);
  const sitePages = ctx.pages.filter((p) =>
    ['home', 'about', 'services', 'faq', 'contact', 'blog', 'privacy', 'terms'].includes(p.route),
  );
  return (
    <Layout ctx={ctx}>
      <Breadcrumbs trail={trail(ctx, 'Sitemap')} />
      <section className="section">
        <div className="container">
          <h1>Sitemap</h1>
          <p>
            Every city we serve, by province and territory. Search engines can use the{' '}
            <a href={links.sitemapXml}>XML sitemap</a>.
          </p>
          <h2>Site Pages</h2>
          <ul className="link-row">
            {sitePages.map((p) => (
              <li key={p.path}>
                <a href={p.path}>{p.route === 'home' ? 'Home' : p.title}</a>
              </li>
            ))}
            <li>
              <a href={links.cityPage(NATIONAL, 'public-adjusters')}>Public Adjusters in Canada</a>
            </li>
          </ul>
          <h2>Provinces</h2>
          {provinces.map((g) => (
            <Group key={g.code} group={g} />
          ))}
          <h2>Territories</h2>
          {territories.map((g) => (
            <Group key={g.code} group={g} />
          ))}
        </div>
      </section>
    </Layout>
  );
}
