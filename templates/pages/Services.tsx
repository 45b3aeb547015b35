import { fill } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { breadcrumbs, businessFor } from '../../src/render/structured-data.js';
import { regionName } from '../../src/site/model.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { SiteCallToAction } from '../components/CallToAction.js';
import { HowItWorks } from '../components/HowItWorks.js';
import { Illustration } from '../components/Illustration.js';
import { Section } from '../components/Section.js';
import { ServiceCards } from '../components/ServiceCards.js';
import { Layout } from '../layout/Layout.js';
import { isQuebec, termsIn } from './quebec.js';
import { cityOf, trail } from './shared.js';

/** /services and /{city}/services: the six service cards plus the shared sections. */
export function ServicesPage(ctx: PageContext) {
  const { site } = ctx;
  const { t } = site;
  const city = cityOf(ctx);
  const place = city.national ? regionName(site) : city.name;
  const heading =
    ctx.page.route === 'services'
      ? t.services.title
      : fill(t.services.cityTitle, { city: city.name });
  const crumbs = trail(ctx, t.layout.services);
  const terms = termsIn(isQuebec(city), site.content);
  return (
    <Layout ctx={ctx} jsonLd={[businessFor(site, isQuebec(city)), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} t={site.t} />
      <section className="hero">
        <div className="container hero-split">
          <h1>{heading}</h1>
          <p className="lead">{terms.servicesLead ?? t.services.lead}</p>
          <div className="hero-art">
            <Illustration scene="storm" />
          </div>
        </div>
      </section>
      <Section id="cards-title" title={t.pages.claimsWeHandle}>
        <ServiceCards
          cards={site.content.services.cards}
          scope={city.slug}
          place={place}
          t={site.t}
          links={site.links}
        />
      </Section>
      <HowItWorks title={t.pages.howItWorks} steps={terms.steps(site.content.process.howItWorks)} />
      <SiteCallToAction site={site} scope={scopeSlug(ctx)} place={place} text={terms.cta(place)} />
    </Layout>
  );
}
