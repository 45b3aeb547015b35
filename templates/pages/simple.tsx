import type { ReactElement } from 'react';
import type { PageContext } from '../../src/render/context.js';
import { CLAIM_TYPE_NAMES } from '../../src/routes.js';
import type { City } from '../../src/site/model.js';
import { topCities } from '../../src/site/model.js';
import { CLAIM_TYPES, QUESTIONNAIRE_PAGES } from '../../src/site/segments.js';
import { Document } from '../layout/Document.js';
import { Layout } from '../layout/Layout.js';

export type Template = (ctx: PageContext) => ReactElement;

const cityOf = (ctx: PageContext): City => ctx.page.city ?? ctx.site.national;

export const HomePage: Template = (ctx) => (
  <Layout ctx={ctx}>
    <section className="hero">
      <div className="container">
        <h1>Free Property Damage Assessment</h1>
        <p>Licensed public adjusters for fire, water, storm and theft claims across Canada.</p>
      </div>
    </section>
    <section className="container">
      <h2>Public Adjusters in Canada's Largest Cities</h2>
      <ul className="city-grid">
        {topCities(ctx.site, 6).map((c) => (
          <li key={c.slug}>
            <h3>{c.name}</h3>
            <ul>
              {QUESTIONNAIRE_PAGES.map((q) => (
                <li key={q}>
                  <a href={`/${c.slug}/${q}`}>{q.replace(/-/g, ' ')}</a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  </Layout>
);

/** A page with a heading and the city's own sub-pages; the pages issue completes each one. */
export const CityPage: Template = (ctx) => {
  const city = cityOf(ctx);
  return (
    <Layout ctx={ctx}>
      <section className="container">
        <h1>{ctx.page.title}</h1>
        <p>{ctx.page.area ? `${ctx.page.area.name}, ${city.name}` : city.description}</p>
        <h2>Claim Types</h2>
        <ul>
          {CLAIM_TYPES.map((t) => (
            <li key={t.type}>
              <a href={`/${city.slug}/${t.segment}`}>{CLAIM_TYPE_NAMES[t.type]}</a>
            </li>
          ))}
        </ul>
        {city.areas.length > 0 && (
          <>
            <h2>Areas We Serve</h2>
            <ul>
              {city.areas.map((a) => (
                <li key={a.slug}>
                  <a href={`/${city.slug}/${a.slug}`}>{a.name}</a>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </Layout>
  );
};

export const SitePage: Template = (ctx) => (
  <Layout ctx={ctx}>
    <section className="container">
      <h1>{ctx.page.title}</h1>
      <p>{ctx.page.description}</p>
    </section>
  </Layout>
);

export const HtmlSitemapPage: Template = (ctx) => (
  <Layout ctx={ctx}>
    <section className="container">
      <h1>Sitemap</h1>
      <p>
        <a href="/sitemap.xml">XML sitemap</a>
      </p>
      <ul>
        {ctx.pages
          .filter((p) => p.route === 'city-home')
          .map((p) => (
            <li key={p.path}>
              <a href={p.path}>{p.city?.name}</a>
            </li>
          ))}
      </ul>
    </section>
  </Layout>
);

export const ConfirmationPage: Template = (ctx) => (
  <Document ctx={ctx} jsonLd={[]}>
    <main id="main" className="container">
      <h1>Thank You!</h1>
      <p>A team member will contact you within 24 hours.</p>
      <p>
        <a href="/">Return to the homepage</a>
      </p>
    </main>
  </Document>
);

export const NotFoundPage: Template = (ctx) => (
  <Layout ctx={ctx}>
    <section className="container">
      <h1>City Not Found</h1>
      <ul>
        {['toronto', 'vancouver', 'montreal', 'calgary'].map((s) => (
          <li key={s}>
            <a href={`/${s}`}>{s}</a>
          </li>
        ))}
      </ul>
      <a href="/">Go to the homepage</a>
    </section>
  </Layout>
);
