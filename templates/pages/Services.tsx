import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { breadcrumbs, businessFor } from '../../src/render/structured-data.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { CallToAction } from '../components/CallToAction.js';
import { Section } from '../components/Section.js';
import { ServiceCards } from '../components/ServiceCards.js';
import { Steps } from '../components/Steps.js';
import { Layout } from '../layout/Layout.js';
import { isQuebec, termsIn } from './quebec.js';
import { cityOf, trail } from './shared.js';

/** /services and /{city}/services: the six service cards plus the shared sections. */
export function ServicesPage(ctx: PageContext) {
  const { site } = ctx;
  const city = cityOf(ctx);
  const place = city.national ? 'Canada' : city.name;
  const heading =
    ctx.page.route === 'services'
      ? 'Our Insurance Claim Services'
      : `Insurance Claim Services in ${city.name}`;
  const crumbs = trail(ctx, 'Services');
  const terms = termsIn(isQuebec(city), site.content);
  return (
    <Layout ctx={ctx} jsonLd={[businessFor(site, isQuebec(city)), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} />
      <section className="hero">
        <div className="container">
          <h1>{heading}</h1>
          <p className="lead">
            {terms.servicesLead ??
              'Whatever damaged your home or business, a licensed public adjuster can take the claim off your hands, from the first inspection to the final cheque. No upfront fees: 5-15% of the settlement, only when you are paid.'}
          </p>
        </div>
      </section>
      <Section id="cards-title" title="Claims We Handle">
        <ServiceCards cards={site.content.services.cards} scope={city.slug} place={place} />
      </Section>
      <Section id="how-title" title="How It Works" tone="soft">
        <Shared component={Steps} props={{ steps: terms.steps(site.content.process.howItWorks) }} />
      </Section>
      <Shared
        component={CallToAction}
        props={{
          phone: site.settings.phone,
          scope: scopeSlug(ctx),
          place: place,
          text: terms.cta(place),
        }}
      />
    </Layout>
  );
}
