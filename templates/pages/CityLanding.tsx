import { Fragment } from 'react';
import { fill, fillParts, type Strings } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { NEARBY } from '../../src/routes.js';
import { answersAll, cityAnswers, otherFacts } from '../../src/site/city-answers.js';
import type { ProvinceFacts } from '../../src/site/facts-schema.js';
import type { Formats } from '../../src/site/format.js';
import { type City, distanceKm, nearbyCities, type Site } from '../../src/site/model.js';
import { provinceByCode } from '../../src/site/provinces.js';
import type { Source } from '../../src/site/schema.js';
import { slugify } from '../../src/site/slug.js';
import type { Links } from '../../src/urls.js';
import { Accordion } from '../components/Accordion.js';
import { AreaCards } from '../components/AreaCards.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { SiteCallToAction } from '../components/CallToAction.js';
import { CityAnswers } from '../components/CityAnswers.js';
import { CityHero } from '../components/CityHero.js';
import {
  AdjustersSection,
  adjustersIn,
  ChoosingAnAdjuster,
  officesIn,
  ReportingAClaim,
} from '../components/ClaimsHelp.js';
import { HowItWorks } from '../components/HowItWorks.js';
import { Illustration } from '../components/Illustration.js';
import {
  CatastropheSection,
  Cite,
  Cites,
  LicenceLookup,
  Population,
} from '../components/LocalFacts.js';
import { LocalHelp, ProvinceAssistanceLink } from '../components/LocalHelp.js';
import { Questionnaire } from '../components/Questionnaire.js';
import { Section } from '../components/Section.js';
import { SiteTrust } from '../components/Trust.js';
import { Layout } from '../layout/Layout.js';
import { isQuebec, termsIn } from './quebec.js';
import { cityFaq, cityOf, localServiceJsonLd, trail } from './shared.js';

type Text = keyof Strings['cityLanding'];

/** Each landing page's heading (`{city}`) and form title in the catalogue. */
const TEXTS = {
  home: ['homeHeading', 'homeForm'],
  'public-adjusters': ['publicAdjustersHeading', 'publicAdjustersForm'],
  'top-adjusters': ['topAdjustersHeading', 'topAdjustersForm'],
  'claims-offices': ['claimsOfficesHeading', 'claimsOfficesForm'],
  'free-consultation': ['freeConsultationHeading', 'freeConsultationForm'],
} as const satisfies Record<string, readonly [Text, Text]>;

/** City home, public-adjusters, top-adjusters, claims-offices and free-consultation. */
export function CityLandingPage(ctx: PageContext) {
  const { site, page } = ctx;
  const { t } = site;
  const city = cityOf(ctx);
  const kind = page.questionnaire ?? 'home';
  const [headingText, formText] = TEXTS[kind];
  const heading = fill(t.cityLanding[headingText], { city: city.name });
  const faqs = cityFaq(ctx);
  const crumbs = trail(ctx, kind === 'home' ? city.name : heading);
  const terms = termsIn(isQuebec(city), site.content);
  const province = city.provinceCode ? site.facts.provinces.get(city.provinceCode) : undefined;
  return (
    <Layout
      ctx={ctx}
      form
      jsonLd={localServiceJsonLd(ctx, city, crumbs, kind === 'home' ? [] : faqs)}
    >
      <Breadcrumbs trail={crumbs} t={site.t} />
      <LandingHero ctx={ctx} heading={heading} formText={formText} terms={terms} />

      {kind === 'home' && <LocalAnswers city={city} site={site} />}
      <KindSection ctx={ctx} kind={kind} province={province} />

      {/* The city's page is about the city; the process and the FAQ, the same everywhere, are
          on the site's pages and the city's other landing pages. */}
      {(kind === 'public-adjusters' || kind === 'free-consultation') && (
        <HowItWorks
          title={site.t.pages.howItWorks}
          steps={terms.steps(site.content.process.howItWorks)}
        />
      )}

      {/* What a page titled for choosing an adjuster or reporting a claim promises, it gives
          instead of the city's description. */}
      {kind !== 'top-adjusters' && kind !== 'claims-offices' && (
        <SharedIntro site={site} city={city} />
      )}

      {kind === 'home' && !city.national && <Shared component={CityFacts} props={{ city, site }} />}

      {/* The country's page leads to its provinces' and territories' pages, which list their
          cities. */}
      {kind === 'home' && city.national && city.areas.length > 0 && (
        <Section id="provinces-title" title={t.home.provincesTitle}>
          <AreaCards city={city} links={site.links} />
        </Section>
      )}

      {kind !== 'home' && (
        <Section id="faq-title" title={t.pages.faqTitle}>
          <Shared component={Accordion} props={{ id: 'city-faq', items: faqs }} />
        </Section>
      )}

      <SiteCallToAction
        site={site}
        scope={scopeSlug(ctx)}
        place={city.name}
        text={terms.cta(city.name)}
      />
    </Layout>
  );
}

/**
 * The city's local help: the four answers first where the data gives all four (what indexes the
 * page), then its other facts; else every fact it has, as one list.
 */
function LocalAnswers({ city, site }: { city: City; site: Site }) {
  const answers = city.national ? null : cityAnswers(site.facts, city);
  const french = site.lang === 'fr';
  if (!answers || !answersAll(answers))
    return (
      <LocalHelp
        place={city.name}
        facts={(site.facts.local.get(city.slug) ?? []).filter((f) => f.area === undefined)}
        french={french}
        t={site.t}
      />
    );
  return (
    <>
      <CityAnswers
        city={city.name}
        province={city.province ?? ''}
        answers={answers}
        french={french}
        t={site.t}
      />
      <LocalHelp
        place={city.name}
        facts={otherFacts(site.facts, city)}
        french={french}
        t={site.t}
      />
    </>
  );
}

/** The city's intro, rendered once for its landing pages (see CityIntro). */
function SharedIntro({ site, city }: { site: Site; city: City }) {
  return (
    <Shared
      component={CityIntro}
      props={{
        city,
        populationSource: site.facts.populationSource,
        t: site.t,
        links: site.links,
        format: site.format,
      }}
    />
  );
}

/** The page's heading and lead, and the form beside them. */
function LandingHero({
  ctx,
  heading,
  formText,
  terms,
}: {
  ctx: PageContext;
  heading: string;
  formText: Text;
  terms: ReturnType<typeof termsIn>;
}) {
  const { site, page } = ctx;
  const { t } = site;
  const city = cityOf(ctx);
  return (
    <CityHero
      title={heading}
      lead={
        city.national
          ? t.cityLanding.nationalLead
          : (terms.lead(city.name) ??
            fill(t.cityLanding.lead, { city: city.name, province: city.province ?? '' }))
      }
      fee={terms.fee}
      art={<Illustration scene="adjuster" />}
      trust={<SiteTrust site={site} />}
      t={site.t}
    >
      <Questionnaire
        title={t.cityLanding[formText]}
        endpoint={site.settings.leadEndpoint}
        cityName={city.name}
        province={city.provinceCode}
        pagePath={page.path}
        phone={site.format.phone(site.phone)}
        tel={site.links.tel(site.phone)}
        note={terms.formNote}
        t={site.t}
        links={site.links}
      />
    </CityHero>
  );
}

/** What a page's kind promises of its own: the firm's adjusters, choosing one, reporting a claim. */
function KindSection({
  ctx,
  kind,
  province,
}: {
  ctx: PageContext;
  kind: keyof typeof TEXTS;
  province: ProvinceFacts | undefined;
}) {
  const { site } = ctx;
  const { t } = site;
  const city = cityOf(ctx);
  return (
    <>
      {/* The firm's own adjusters who serve the city, on its page (the choosing page has them too). */}
      {kind === 'home' && (
        <AdjustersSection
          title={fill(t.claimsHelp.adjustersTitle, { city: city.name })}
          adjusters={adjustersIn(site.settings.business, city)}
          portraits={ctx.assets.photos?.portraits}
          t={t}
          links={site.links}
        />
      )}
      {kind === 'top-adjusters' && (
        <ChoosingAnAdjuster
          city={city}
          province={province}
          adjusters={adjustersIn(site.settings.business, city)}
          portraits={ctx.assets.photos?.portraits}
          t={t}
          links={site.links}
        />
      )}
      {kind === 'claims-offices' && (
        <ReportingAClaim
          city={city}
          insurers={site.facts.insurers}
          complaints={[...(province?.complaints ?? []), ...site.facts.nationalComplaints]}
          offices={officesIn(site.settings.business, city)}
          t={t}
          format={site.format}
          links={site.links}
        />
      )}
    </>
  );
}

/** The city's own words and neighbourhoods: the same on its five landing pages. */
function CityIntro({
  city,
  populationSource,
  t,
  links,
  format,
}: {
  city: City;
  populationSource: Source | null;
  t: Strings;
  links: Links;
  format: Formats;
}) {
  return (
    <>
      <Section
        id="intro-title"
        title={
          city.national
            ? t.cityLanding.nationalIntroTitle
            : fill(t.cityLanding.introTitle, { city: city.name })
        }
      >
        <div className="prose">
          <p>
            {city.description}
            <Cites sources={city.descriptionSources} t={t} />
          </p>
          {!city.national && (
            <Population city={city} source={populationSource} t={t} format={format} />
          )}
        </div>
      </Section>

      {!city.national && city.areas.length > 0 && (
        <Section id="areas-title" title={fill(t.cityLanding.areasTitle, { city: city.name })}>
          <ul className="chips">
            {city.areas.map((a) => (
              <li key={a.slug}>
                <a className="chip" href={links.cityPage(city, a)}>
                  {a.name}
                </a>
              </li>
            ))}
          </ul>
          <NameSources city={city} t={t} />
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
function NameSources({ city, t }: { city: City; t: Strings }) {
  const named = city.areas.filter((a) => a.source && !a.description);
  const cited = city.sources.areas && city.areas.some((a) => !a.source) ? city.sources.areas : null;
  if (!cited && named.length === 0) return null;
  const l = t.cityLanding;
  const cite = cited ? <Cite key="cite" source={cited} t={t} /> : '';
  const list = named.map((a, i) => (
    <Fragment key={a.slug}>
      {i > 0 && l.namedSeparator}
      {fillParts(l.namedSource, {
        area: a.name,
        source: (
          <a key="source" href={a.source?.url} rel="noopener">
            {a.source?.publisher}
          </a>
        ),
      })}
    </Fragment>
  ));
  const text = !cited ? l.namesNamed : named.length > 0 ? l.namesCitedAndNamed : l.namesCited;
  return (
    <p className="muted">
      {fillParts(text, { cite, named: <Fragment key="named">{list}</Fragment> })}
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
  // The province's page is named by its English name in every language.
  const provincePage = slugify(
    provinceByCode(city.provinceCode ?? '')?.name ?? city.province ?? '',
  );
  const { t, links } = site;
  const l = t.cityLanding;
  return (
    <>
      <CatastropheSection place={city.name} catastrophes={catastrophes} t={t} links={links} />
      {province?.assistance?.length && city.province ? (
        <ProvinceAssistanceLink
          province={city.province}
          href={`${links.cityPage(site.national, provincePage)}#assistance-title`}
          t={t}
        />
      ) : null}
      {province && city.province && (
        <CityRules
          province={city.province}
          facts={province}
          href={links.cityPage(site.national, provincePage)}
          t={t}
        />
      )}
      <Section
        id="nearby-title"
        title={fill(l.nearbyTitle, { city: city.name })}
        intro={fillParts(l.nearbyIntro, {
          cite: city.sources.coordinates ? (
            <Cite key="cite" source={city.sources.coordinates} t={t} />
          ) : (
            ''
          ),
        })}
      >
        <ul className="city-links">
          {nearby.map((c) => (
            <li key={c.slug}>
              <a href={links.city(c)}>{c.name}</a>
              <span className="muted">
                {' '}
                {fill(l.nearbyDistance, {
                  province: c.province ?? '',
                  distance: site.format.whole(
                    Math.round(distanceKm(city.coordinates, c.coordinates)),
                  ),
                })}
              </span>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

/** Who regulates claims in the city's province, with a link to the province's page. */
function CityRules({
  province,
  facts,
  href,
  t,
}: {
  province: string;
  facts: ProvinceFacts;
  href: string;
  t: Strings;
}) {
  const l = t.cityLanding;
  return (
    <Section id="rules-title" title={fill(l.rulesTitle, { province })}>
      <p>
        {fillParts(l.rulesText, {
          province,
          regulator: facts.regulator.name,
          link: (
            <a key="link" href={href}>
              {fill(l.rulesLink, { province })}
            </a>
          ),
        })}
      </p>
      {facts.regulator.lookup && <LicenceLookup lookup={facts.regulator.lookup} t={t} />}
    </Section>
  );
}
