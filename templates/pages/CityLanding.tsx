import { Fragment } from 'react';
import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { NEARBY } from '../../src/routes.js';
import { formatWhole } from '../../src/site/format.js';
import { type City, distanceKm, nearbyCities, type Site } from '../../src/site/model.js';
import type { Source } from '../../src/site/schema.js';
import { slugify } from '../../src/site/slug.js';
import { links } from '../../src/urls.js';
import { Accordion } from '../components/Accordion.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { CallToAction } from '../components/CallToAction.js';
import { CityHero } from '../components/CityHero.js';
import {
  CatastropheSection,
  Cite,
  Cites,
  LicenceLookup,
  Population,
} from '../components/LocalFacts.js';
import { Questionnaire } from '../components/Questionnaire.js';
import { Section } from '../components/Section.js';
import { Steps } from '../components/Steps.js';
import { Layout } from '../layout/Layout.js';
import { isQuebec, termsIn } from './quebec.js';
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
  const terms = termsIn(isQuebec(city), site.content);
  return (
    <Layout
      ctx={ctx}
      form
      jsonLd={localServiceJsonLd(ctx, city, crumbs, kind === 'home' ? [] : faqs)}
    >
      <Breadcrumbs trail={crumbs} />
      <CityHero
        title={heading}
        lead={
          city.national
            ? 'Property damage anywhere in Canada? Tell us about your claim in three short steps and a licensed public adjuster will review it for free.'
            : (terms.lead(city.name) ??
              `Property damage in ${city.name}? Tell us about your claim in three short steps and a licensed public adjuster who knows ${city.province} claims will review it for free.`)
        }
        fee={terms.fee}
      >
        <Questionnaire
          title={FORM_TITLES[kind]}
          endpoint={site.settings.leadEndpoint}
          cityName={city.name}
          pagePath={page.path}
          phone={site.settings.phone}
          note={terms.formNote}
        />
      </CityHero>

      {/* The city's page is about the city; the process and the FAQ, the same everywhere, are
          on the site's pages and the city's other landing pages. */}
      {kind !== 'home' && (
        <Section id="how-title" title="How It Works">
          <Shared
            component={Steps}
            props={{
              steps: terms.steps(site.content.process.howItWorks),
            }}
          />
        </Section>
      )}

      <Shared
        component={CityIntro}
        props={{ city, populationSource: site.facts.populationSource }}
      />

      {kind === 'home' && !city.national && <Shared component={CityFacts} props={{ city, site }} />}

      {kind !== 'home' && (
        <Section
          id="faq-title"
          title="Frequently Asked Questions"
          tone={city.national ? 'plain' : 'soft'}
        >
          <Shared component={Accordion} props={{ id: 'city-faq', items: faqs }} />
        </Section>
      )}

      <Shared
        component={CallToAction}
        props={{
          phone: site.settings.phone,
          scope: scopeSlug(ctx),
          place: city.name,
          text: terms.cta(city.name),
        }}
      />
    </Layout>
  );
}

/** The city's own words and neighbourhoods: the same on its five landing pages. */
function CityIntro({ city, populationSource }: { city: City; populationSource: Source | null }) {
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
          <p>
            {city.description}
            <Cites sources={city.descriptionSources} />
          </p>
          {!city.national && <Population city={city} source={populationSource} />}
        </div>
      </Section>

      {!city.national && city.areas.length > 0 && (
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
          <NameSources city={city} />
        </Section>
      )}
    </>
  );
}

/**
 * Where the chips' names can be checked: the page naming those given by name only, and the page
 * naming each of the others, said by name so that a reader knows which page checks which (a
 * described area's page cites its own source).
 */
function NameSources({ city }: { city: City }) {
  const named = city.areas.filter((a) => a.source && !a.description);
  const together = city.sources.areas && city.areas.some((a) => !a.source);
  if (!together && named.length === 0) return null;
  return (
    <p className="muted">
      Neighbourhood names
      {together && city.sources.areas && <Cite source={city.sources.areas} />}
      {named.length > 0 && (
        <>
          {together ? '; ' : ': '}
          {named.map((a, i) => (
            <Fragment key={a.slug}>
              {i > 0 && '; '}
              {a.name} (
              <a href={a.source?.url} rel="noopener">
                {a.source?.publisher}
              </a>
              )
            </Fragment>
          ))}
        </>
      )}
    </p>
  );
}

/**
 * What is particular to a city beyond its description: the insured catastrophes that struck
 * it, its nearest cities, and its province's regulator and complaint services.
 */
function CityFacts({ city, site }: { city: City; site: Site }) {
  const catastrophes = site.facts.catastrophes.filter((c) => c.cities.includes(city.slug));
  const province = city.provinceCode ? site.facts.provinces.get(city.provinceCode) : undefined;
  const nearby = nearbyCities(site, city, NEARBY);
  return (
    <>
      <CatastropheSection place={city.name} catastrophes={catastrophes} />
      {province && city.province && (
        <Section id="rules-title" title={`Licences and Complaints in ${city.province}`} tone="soft">
          <p>
            Who licenses adjusters in {city.province} ({province.regulator.name}), what its rules
            mean for your claim, and where to turn if a claim stalls:{' '}
            <a href={links.cityPage(site.national, slugify(city.province))}>
              claims rules in {city.province}
            </a>
            .
          </p>
          {province.regulator.lookup && <LicenceLookup lookup={province.regulator.lookup} />}
        </Section>
      )}
      <Section
        id="nearby-title"
        title={`Cities Near ${city.name}`}
        intro={
          <>
            Straight-line distances between city centres
            {city.sources.coordinates && <Cite source={city.sources.coordinates} />}.
          </>
        }
      >
        <ul className="city-links">
          {nearby.map((c) => (
            <li key={c.slug}>
              <a href={links.city(c)}>{c.name}</a>
              <span className="muted">
                {' '}
                ({c.province},{' '}
                {formatWhole(Math.round(distanceKm(city.coordinates, c.coordinates)))} km)
              </span>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
