import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { breadcrumbs, businessFor } from '../../src/render/structured-data.js';
import type { AboutContent } from '../../src/site/content-schema.js';
import { type City, regionName } from '../../src/site/model.js';
import type { Business } from '../../src/site/schema.js';
import { businessShown } from '../../src/site/service-area.js';
import { AreaCards } from '../components/AreaCards.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { BusinessDetails } from '../components/BusinessDetails.js';
import { SiteCallToAction } from '../components/CallToAction.js';
import { AdjustersSection, adjustersIn } from '../components/ClaimsHelp.js';
import { Illustration } from '../components/Illustration.js';
import { PhotoGallery } from '../components/Photo.js';
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
  const { t } = site;
  const city = cityOf(ctx);
  const place = city.national ? regionName(site) : city.name;
  const heading =
    ctx.page.route === 'about' ? t.about.title : fill(t.about.cityTitle, { city: city.name });
  const crumbs = trail(ctx, ctx.page.route === 'about' ? t.about.title : t.layout.about);
  return (
    <Layout ctx={ctx} jsonLd={[businessFor(site, isQuebec(city)), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} t={site.t} />
      <AboutHero heading={heading} lead={fill(t.about.lead, { place })} />

      <Shared
        component={ServiceTypes}
        props={{ types: site.content.about.serviceTypes, title: t.pages.claimsWeHandle }}
      />

      {site.content.about.stats.length > 0 && (
        <Shared component={Stats} props={{ stats: site.content.about.stats, t: site.t }} />
      )}

      <Identity ctx={ctx} city={city} />

      <PhotoGallery
        photos={site.settings.photos}
        pictures={ctx.assets.photos}
        lang={site.lang}
        t={t}
        links={site.links}
      />

      {city.areas.length > 0 && (
        <Section
          id="areas-title"
          title={
            city.national ? t.about.provincesTitle : fill(t.about.areasTitle, { city: city.name })
          }
        >
          <AreaCards city={city} links={site.links} />
        </Section>
      )}

      <Section id="process-title" title={t.about.processTitle}>
        <Shared
          component={Steps}
          props={{
            steps: termsIn(isQuebec(city), site.content).steps(site.content.process.aboutProcess),
          }}
        />
      </Section>

      {/* No figures or testimonials (not yet; French pages translate no one's words): no section. */}
      {site.content.testimonials.length > 0 && (
        <Shared
          component={Testimonials}
          props={{ items: site.content.testimonials, t: site.t, format: site.format }}
        />
      )}

      <SiteCallToAction
        site={site}
        scope={scopeSlug(ctx)}
        place={place}
        text={termsIn(isQuebec(city), site.content).cta(place)}
      />
    </Layout>
  );
}

function AboutHero({ heading, lead }: { heading: string; lead: string }) {
  return (
    <section className="hero">
      <div className="container hero-split">
        <h1>{heading}</h1>
        <p className="lead">{lead}</p>
        <div className="hero-art">
          <Illustration scene="handshake" />
        </div>
      </div>
    </section>
  );
}

/**
 * Who the firm is and who works there: the site's About page names all its adjusters, a city's
 * those who serve it.
 */
function Identity({ ctx, city }: { ctx: PageContext; city: City }) {
  const { site } = ctx;
  const { t } = site;
  const business = site.settings.business;
  return (
    <>
      <WhoWeAre business={businessShown(site)} t={t} />
      <AdjustersSection
        title={
          city.national
            ? t.about.adjustersTitle
            : fill(t.claimsHelp.adjustersTitle, { city: city.name })
        }
        adjusters={city.national ? (business?.adjusters ?? []) : adjustersIn(business, city)}
        portraits={ctx.assets.photos?.portraits}
        t={t}
        links={site.links}
      />
    </>
  );
}

/**
 * Who the visitor is dealing with: the legal name, the address, the licences of the provinces
 * served and the rest of what site.json says of the business. Nothing for none.
 */
function WhoWeAre({ business, t }: { business: Business | undefined; t: Strings }) {
  if (!business?.legalName && !business?.address && !business?.licences?.length) return null;
  return (
    <Section id="who-title" title={t.contact.whoTitle}>
      <div className="prose">
        {business.legalName && (
          <p>
            <strong>{business.legalName}</strong>
          </p>
        )}
        <BusinessDetails business={business} t={t} />
      </div>
    </Section>
  );
}

/** The six kinds of claim: the same on every About page. */
function ServiceTypes({ types, title }: { types: AboutContent['serviceTypes']; title: string }) {
  return (
    <Section id="types-title" title={title}>
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
