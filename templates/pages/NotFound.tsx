import { fillParts } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { notFoundCities } from '../../src/routes.js';
import { CitySearch } from '../components/CityFinder.js';
import { Layout } from '../layout/Layout.js';

/**
 * 404.html. The City Not Found screen shows by default; the browser script looks the first path
 * segment up, redirects to a matching city, or switches to the other screens: Page not found for
 * an address that is no city's page.
 */
export function NotFoundPage(ctx: PageContext) {
  const { t, links } = ctx.site;
  const n = t.notFound;
  return (
    <Layout ctx={ctx}>
      <CityNotFound ctx={ctx} />
      <section className="section" data-not-found="page" hidden>
        <div className="container narrow">
          <h1>{n.pageTitle}</h1>
          <p className="lead">{n.pageLead}</p>
          <CitySearch
            id="not-found-search"
            cityIndex={ctx.assets.cityIndex}
            basePath={ctx.site.basePath}
            t={t}
            links={links}
          />
          <p>
            <a className="button button-primary" href={links.home}>
              {n.home}
            </a>
          </p>
        </div>
      </section>
      <section className="section" data-not-found="service" hidden>
        <div className="container narrow">
          <h2>{t.routes.notFoundTitle}</h2>
          <p className="lead">{n.serviceLead}</p>
          <p>
            <a className="button button-primary" href={links.page('services')}>
              {n.services}
            </a>
          </p>
        </div>
      </section>
      <section className="section" data-not-found="plain" hidden>
        <div className="container narrow">
          <p>{n.plain}</p>
        </div>
      </section>
    </Layout>
  );
}

/** The screen shown by default: no city at the address typed, and the cities most asked for. */
function CityNotFound({ ctx }: { ctx: PageContext }) {
  const { t, links } = ctx.site;
  const n = t.notFound;
  // The most requested cities the site serves, named as the page's language names them.
  const quick = notFoundCities(ctx.site);
  return (
    <section
      className="section"
      data-not-found="city"
      data-city-index={links.href(ctx.assets.cityIndex)}
      data-base-path={ctx.site.basePath || undefined}
    >
      <div className="container narrow">
        <h1>{n.cityTitle}</h1>
        <p className="lead">
          {fillParts(n.cityLead, {
            typed: (
              <strong key="typed" data-typed-slug="">
                {n.typedAddress}
              </strong>
            ),
            sitemap: (
              <a key="sitemap" href={links.page('sitemap')}>
                {n.sitemapLink}
              </a>
            ),
          })}
        </p>
        <ul className="chips">
          {quick.map((c) => (
            <li key={c.slug}>
              <a className="chip" href={links.city(c)}>
                {c.name}
              </a>
            </li>
          ))}
        </ul>
        <p>
          <a className="button button-primary" href={links.home}>
            {n.home}
          </a>
        </p>
      </div>
    </section>
  );
}
