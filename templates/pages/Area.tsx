import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { NEARBY } from '../../src/routes.js';
import { formatWhole } from '../../src/site/format.js';
import { type City, nearbyCities } from '../../src/site/model.js';
import { provinceByName } from '../../src/site/provinces.js';
import { links } from '../../src/urls.js';
import { Accordion } from '../components/Accordion.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { CallToAction } from '../components/CallToAction.js';
import { CityHero } from '../components/CityHero.js';
import {
  CatastropheSection,
  Cite,
  Cites,
  Population,
  ProvinceRules,
} from '../components/LocalFacts.js';
import { Questionnaire } from '../components/Questionnaire.js';
import { Section } from '../components/Section.js';
import { Layout } from '../layout/Layout.js';
import { isQuebec, termsIn } from './quebec.js';
import { cityOf, localServiceJsonLd, placeFaq, trail } from './shared.js';

function CityLinks({ cities }: { cities: readonly City[] }) {
  return (
    <ul className="city-links">
      {cities.map((c) => (
        <li key={c.slug}>
          <a href={links.cityPage(c, 'public-adjusters')}>Public adjusters in {c.name}</a>
          <span className="muted"> ({c.province})</span>
        </li>
      ))}
    </ul>
  );
}

/** /{city}/{area} and /canada/{province}: the form, nearby cities and FAQs, naming the area. */
export function AreaPage(ctx: PageContext) {
  const { site, page } = ctx;
  const city = cityOf(ctx);
  const area = page.area;
  if (!area) throw new Error(`area page ${page.path} has no area`);
  const province = city.national;
  const place = province ? area.name : `${area.name}, ${city.name}`;
  const crumbs = trail(ctx, area.name);
  // A province's page holds its own facts instead of the FAQ every place shares.
  // An area described in the data is a page of its own: its description, not the FAQ and the
  // nearby cities every area of its city shares.
  const described = !province && !!area.description;
  const faqs = province || described ? [] : placeFaq(ctx, place);
  const provinceCities = province ? site.cities.filter((c) => c.province === area.name) : [];
  const code = province ? provinceByName(area.name)?.code : undefined;
  const rules = code ? site.facts.provinces.get(code) : undefined;
  const catastrophes = code
    ? site.facts.catastrophes.filter((c) => c.provinces.includes(code))
    : [];
  const terms = termsIn(province ? code === 'QC' : isQuebec(city), ctx.site.content);
  return (
    <Layout ctx={ctx} form jsonLd={localServiceJsonLd(ctx, city, crumbs, faqs)}>
      <Breadcrumbs trail={crumbs} />
      <CityHero
        title={`Public Adjusters in ${place}`}
        lead={
          terms.lead(area.name) ??
          (province
            ? `Property damage in ${area.name}? Licensed public adjusters serving ${area.name} review your claim for free and negotiate with your insurer for you.`
            : `Property damage in ${area.name}? Public adjusters serving ${area.name} and all of ${city.name} review your claim for free and negotiate with your insurer for you.`)
        }
        fee={terms.fee}
      >
        <Questionnaire
          title={`Free Claim Assessment in ${area.name}`}
          endpoint={site.settings.leadEndpoint}
          cityName={province ? area.name : city.name}
          pagePath={page.path}
          phone={site.settings.phone}
          kind="assessment"
          note={terms.formNote}
        />
      </CityHero>

      {!province && (
        <Section id="local-title" title={`Claims Help in ${area.name}`} tone="soft">
          <div className="prose">
            {area.description && area.source ? (
              <p>
                {area.description}
                <Cite source={area.source} />
              </p>
            ) : (
              <p>
                Homes and businesses in {area.name}
                {area.source && <Cite source={area.source} />} face the same risks as the rest of{' '}
                {city.name}. {city.description}
                <Cites sources={city.descriptionSources} />
              </p>
            )}
            <Population city={city} source={site.facts.populationSource} />
          </div>
        </Section>
      )}

      {rules && (
        <Section id="rules-title" title={`Claims Rules in ${area.name}`} tone="soft">
          <ProvinceRules
            province={area.name}
            facts={rules}
            national={site.facts.nationalComplaints}
          />
        </Section>
      )}

      <CatastropheSection place={area.name} catastrophes={catastrophes} cities={site.bySlug} />

      {described ? (
        <Section id="nearby-title" title={`More About Claims in ${city.name}`}>
          <p>
            {area.name} is part of {city.name}:{' '}
            <a href={links.city(city)}>
              what {city.name}'s claims, catastrophes and rules look like
            </a>
            .
          </p>
        </Section>
      ) : (
        <Section
          id="nearby-title"
          title={
            province ? `Cities We Serve in ${area.name}` : `Public Adjusters Near ${area.name}`
          }
        >
          {province ? (
            provinceCities.length > 0 ? (
              <CityLinks cities={provinceCities} />
            ) : (
              <p>
                Start the free assessment above and we will match you with an adjuster who serves
                your community.
              </p>
            )
          ) : (
            <Shared
              component={NearbyCities}
              props={{ city, cities: nearbyCities(site, city, NEARBY) }}
            />
          )}
        </Section>
      )}

      {faqs.length > 0 && (
        <Section id="faq-title" title="Frequently Asked Questions" tone="soft">
          <Accordion id="area-faq" items={faqs} />
        </Section>
      )}

      {/* Named for this area alone: no other page would reuse it as a shared fragment. */}
      <CallToAction
        phone={site.settings.phone}
        scope={scopeSlug(ctx)}
        place={area.name}
        text={terms.cta(area.name)}
      />
    </Layout>
  );
}

/** A city's neighbours, the same on each of its area pages. */
function NearbyCities({ city, cities }: { city: City; cities: readonly City[] }) {
  return (
    <>
      <p>
        <a href={links.cityPage(city, 'public-adjusters')}>All public adjusters in {city.name}</a>
      </p>
      <CityLinks cities={cities} />
    </>
  );
}
