import type { PageContext } from '../../src/render/context.js';
import { links } from '../../src/urls.js';
import { Layout } from '../layout/Layout.js';

/**
 * 404.html. The City Not Found screen shows by default; the browser script looks the first path
 * segment up, redirects to a matching city, or switches to the other screens.
 */
export function NotFoundPage(ctx: PageContext) {
  const quick = [
    { slug: 'toronto', name: 'Toronto' },
    { slug: 'vancouver', name: 'Vancouver' },
    { slug: 'montreal', name: 'Montreal' },
    { slug: 'calgary', name: 'Calgary' },
  ];
  return (
    <Layout ctx={ctx}>
      <section className="section" data-not-found="city" data-city-index={ctx.assets.cityIndex}>
        <div className="container narrow">
          <h1>City Not Found</h1>
          <p className="lead">
            No city matches <strong data-typed-slug="">the address you typed</strong>. Try one of
            our most requested cities, or find yours on the{' '}
            <a href={links.page('sitemap')}>sitemap</a>.
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
              Go to the homepage
            </a>
          </p>
        </div>
      </section>
      <section className="section" data-not-found="service" hidden>
        <div className="container narrow">
          <h2>Page Not Found</h2>
          <p className="lead">The requested service could not be found.</p>
          <p>
            <a className="button button-primary" href={links.page('services')}>
              See our services
            </a>
          </p>
        </div>
      </section>
      <section className="section" data-not-found="plain" hidden>
        <div className="container narrow">
          <p>City not found</p>
        </div>
      </section>
    </Layout>
  );
}
