import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { breadcrumbs, businessFor } from '../../src/render/structured-data.js';
import type { AboutContent } from '../../src/site/content-schema.js';
import { AreaCards } from '../components/AreaCards.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { CallToAction } from '../components/CallToAction.js';
import { Section } from '../components/Section.js';
import { Stats } from '../components/Stats.js';
import { Steps } from '../components/Steps.js';
import { Testimonials } from '../components/Testimonials.js';
import { Layout } from '../layout/Layout.js';
import { isQuebec, termsIn } from './quebec.js';
import { cityOf, trail } from './shared.js';

/** /about and /{city}/about: hero, six service types, statistics, service areas, process, testimonials. */
export function AboutPage(ctx: PageContext) {
  const { site } = ctx;
  const city = cityOf(ctx);
  const place = city.national ? 'Canada' : city.name;
  const heading =
    ctx.page.route === 'about' ? 'About Us' : `About Our Public Adjusters in ${city.name}`;
  const crumbs = trail(ctx, ctx.page.route === 'about' ? 'About Us' : 'About');
  return (
    <Layout ctx={ctx} jsonLd={[businessFor(site, isQuebec(city)), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} />
      <section className="hero">
        <div className="container">
          <h1>{heading}</h1>
          <p className="lead">
            We connect property owners in {place} with licensed public adjusters: independent claim
            professionals who work for the policyholder, never for the insurance company. They read
            your policy, document every part of your loss and negotiate until the settlement
            reflects what your policy actually covers.
          </p>
        </div>
      </section>

      <Shared component={ServiceTypes} props={{ types: site.content.about.serviceTypes }} />

      <Shared component={Stats} props={{ stats: site.content.about.stats }} />

      {city.areas.length > 0 && (
        <Section
          id="areas-title"
          title={
            city.national ? 'Provinces and Territories We Serve' : `Areas We Serve in ${city.name}`
          }
          tone="soft"
        >
          <AreaCards city={city} />
        </Section>
      )}

      <Section id="process-title" title="Our Process">
        <Shared
          component={Steps}
          props={{
            steps: termsIn(isQuebec(city), site.content).steps(site.content.process.aboutProcess),
          }}
        />
      </Section>

      <Shared component={Testimonials} props={{ items: site.content.testimonials }} />

      <Shared
        component={CallToAction}
        props={{
          phone: site.settings.phone,
          scope: scopeSlug(ctx),
          place: place,
          text: termsIn(isQuebec(city), site.content).cta(place),
        }}
      />
    </Layout>
  );
}

/** The six kinds of claim: the same on every About page. */
function ServiceTypes({ types }: { types: AboutContent['serviceTypes'] }) {
  return (
    <Section id="types-title" title="Claims We Handle">
      <ul className="card-grid">
        {types.map((s) => (
          <li key={s.title} className="card">
            <h3>{s.title}</h3>
            <p>{s.description}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
