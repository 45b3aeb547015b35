import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { formatWhole } from '../../src/site/format.js';
import type { City } from '../../src/site/model.js';
import { links } from '../../src/urls.js';
import { Accordion } from '../components/Accordion.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { CallToAction } from '../components/CallToAction.js';
import { CityHero } from '../components/CityHero.js';
import { Questionnaire } from '../components/Questionnaire.js';
import { Section } from '../components/Section.js';
import { Steps } from '../components/Steps.js';
import { Layout } from '../layout/Layout.js';
import { cityFaq, cityOf, localServiceJsonLd, trail } from './shared.js';

const HEADINGS = {
  home: (c: string) => `${c} Public Adjusters`,
  'public-adjusters': (c: string) => `Public Adjusters in ${c}`,
  'top-adjusters': (c: string) => `Top-Rated Public Adjusters in ${c}`,
  'claims-offices': (c: string) => `Claims Offices in ${c}`,
  'free-consultation': (c: string) => `Free Insurance Claim Assessment in ${c}`,
} as const;

const FORM_TITLES = {
  home: 'Start Your Free Claim Review',
  'public-adjusters': 'Get Matched With a Public Adjuster',
  'top-adjusters': 'Connect With a Top-Rated Adjuster',
  'claims-offices': 'Reach a Claims Office Near You',
  'free-consultation': 'Book Your Free Assessment',
} as const;

/** City home, public-adjusters, top-adjusters, claims-offices and free-consultation. */
export function CityLandingPage(ctx: PageContext) {
  const { site, page } = ctx;
  const city = cityOf(ctx);
  const kind = page.questionnaire ?? 'home';
  const heading = HEADINGS[kind](city.name);
  const faqs = cityFaq(ctx);
  const crumbs = trail(ctx, kind === 'home' ? city.name : heading);
  return (
    <Layout ctx={ctx} jsonLd={localServiceJsonLd(ctx, city, crumbs, faqs)}>
      <Breadcrumbs trail={crumbs} />
      <CityHero
        title={heading}
        lead={
          city.national
            ? 'Property damage anywhere in Canada? Tell us about your claim in three short steps and a licensed public adjuster will review it for free.'
            : `Property damage in ${city.name}? Tell us about your claim in three short steps and a licensed public adjuster who knows ${city.province} claims will review it for free.`
        }
      >
        <Questionnaire
          title={FORM_TITLES[kind]}
          endpoint={site.settings.leadEndpoint}
          cityName={city.name}
          pagePath={page.path}
          phone={site.settings.phone}
        />
      </CityHero>

      <Section id="how-title" title="How It Works">
        <Shared component={Steps} props={{ steps: site.content.process.howItWorks }} />
      </Section>

      <Shared component={CityIntro} props={{ city }} />

      <Section
        id="faq-title"
        title="Frequently Asked Questions"
        tone={city.national ? 'plain' : 'soft'}
      >
        <Shared component={Accordion} props={{ id: 'city-faq', items: faqs }} />
      </Section>

      <Shared
        component={CallToAction}
        props={{ phone: site.settings.phone, scope: scopeSlug(ctx), place: city.name }}
      />
    </Layout>
  );
}

/** The city's own words and neighbourhoods: the same on its five landing pages. */
function CityIntro({ city }: { city: City }) {
  return (
    <>
      <Section
        id="intro-title"
        title={
          city.national
            ? 'Insurance Claims Across Canada'
            : `Property Damage Claims in ${city.name}`
        }
        tone="soft"
      >
        <div className="prose">
          <p>{city.description}</p>
          {!city.national && (
            <p className="muted">
              {city.name}, {city.province}: population {formatWhole(city.population)} (2021 Census).
            </p>
          )}
        </div>
      </Section>

      {!city.national && (
        <Section id="areas-title" title={`Neighbourhoods We Serve in ${city.name}`}>
          <ul className="chips">
            {city.areas.map((a) => (
              <li key={a.slug}>
                <a className="chip" href={links.cityPage(city, a)}>
                  {a.name}
                </a>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}
