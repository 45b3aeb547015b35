import { fill, fillParts, type Strings } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { NEARBY } from '../../src/routes.js';
import { areaFacts, type City, nearbyCities } from '../../src/site/model.js';
import { provinceBySlug } from '../../src/site/provinces.js';
import type { Links } from '../../src/urls.js';
import { Accordion } from '../components/Accordion.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { CallToAction } from '../components/CallToAction.js';
import { CityHero } from '../components/CityHero.js';
import { Illustration } from '../components/Illustration.js';
import {
  CatastropheSection,
  Cite,
  Cites,
  Population,
  ProvinceRules,
} from '../components/LocalFacts.js';
import { LocalHelp, ProvinceAssistance } from '../components/LocalHelp.js';
import { Questionnaire } from '../components/Questionnaire.js';
import { Section } from '../components/Section.js';
import { SiteTrust } from '../components/Trust.js';
import { Layout } from '../layout/Layout.js';
import { isQuebec, termsIn } from './quebec.js';
import { cityOf, localServiceJsonLd, placeFaq, trail } from './shared.js';

function CityLinks({ cities, t, links }: { cities: readonly City[]; t: Strings; links: Links }) {
  return (
    <ul className="city-links">
      {cities.map((c) => (
        <li key={c.slug}>
          <a href={links.cityPage(c, 'public-adjusters')}>
            {fill(t.area.cityLink, { city: c.name })}
          </a>
          <span className="muted"> ({c.province})</span>
        </li>
      ))}
    </ul>
  );
}

/** What an area page says where: the area, its city, and for a province its facts. */
function areaView(ctx: PageContext) {
  const { site, page } = ctx;
  const { t } = site;
  const city = cityOf(ctx);
  const area = page.area;
  if (!area) throw new Error(`area page ${page.path} has no area`);
  const province = city.national;
  const place = province ? area.name : fill(t.area.place, { area: area.name, city: city.name });
  // Where the page speaks of: a province with its article where the language wants one
  // ("au Québec", "du Québec"), a neighbourhood by its name.
  const where = province ? fill(t.area.provinceArticle, { area: area.name }) : area.name;
  // A province's page holds its own facts instead of the FAQ every place shares.
  // An area described in the data is a page of its own: its description, not the FAQ and the
  // nearby cities every area of its city shares.
  const described = !province && !!area.description;
  // A province by its slug, the same in every language (its name is the language's).
  const code = province ? provinceBySlug(area.slug)?.code : undefined;
  const terms = termsIn(province ? code === 'QC' : isQuebec(city), ctx.site.content);
  return { city, area, province, place, where, described, code, terms };
}

type AreaView = ReturnType<typeof areaView>;

/** /{city}/{area} and /canada/{province}: the form, nearby cities and FAQs, naming the area. */
export function AreaPage(ctx: PageContext) {
  const { site } = ctx;
  const { t } = site;
  const view = areaView(ctx);
  const { city, area, province, place, where, described, code, terms } = view;
  const crumbs = trail(ctx, area.name);
  const faqs = province || described ? [] : placeFaq(ctx, place);
  const rules = code ? site.facts.provinces.get(code) : undefined;
  const catastrophes = code
    ? site.facts.catastrophes.filter((c) => c.provinces.includes(code))
    : [];
  return (
    <Layout ctx={ctx} form jsonLd={localServiceJsonLd(ctx, city, crumbs, faqs)}>
      <Breadcrumbs trail={crumbs} t={site.t} />
      <AreaHero ctx={ctx} view={view} />

      {!province && (
        <LocalHelp
          place={area.name}
          facts={areaFacts(site, city, area)}
          french={site.lang === 'fr'}
          t={t}
        />
      )}

      {!province && <AreaLocal ctx={ctx} view={view} />}

      {rules && <ProvinceSections ctx={ctx} province={area.name} rules={rules} />}

      <CatastropheSection
        // A province with its article where the language wants one ("au Québec").
        place={where}
        catastrophes={catastrophes}
        cities={site.bySlug}
        t={site.t}
        links={site.links}
      />

      <AreaNearby ctx={ctx} view={view} />

      {faqs.length > 0 && (
        <Section id="faq-title" title={t.pages.faqTitle}>
          <Accordion id="area-faq" items={faqs} />
        </Section>
      )}

      {/* Named for this area alone: no other page would reuse it as a shared fragment. */}
      <CallToAction
        phone={site.format.phone(site.phone)}
        tel={site.links.tel(site.phone)}
        scope={scopeSlug(ctx)}
        place={where}
        text={terms.cta(where)}
        t={site.t}
        links={site.links}
      />
    </Layout>
  );
}

/** The page's title and lead, and the form beside them. */
function AreaHero({ ctx, view }: { ctx: PageContext; view: AreaView }) {
  const { site, page } = ctx;
  const { t } = site;
  const { city, area, province, where, code, terms } = view;
  return (
    <CityHero
      title={
        province
          ? fill(t.area.provinceTitle, { province: area.name })
          : fill(t.area.areaTitle, { area: area.name, city: city.name })
      }
      lead={
        terms.lead(where) ??
        (province
          ? fill(t.area.provinceLead, { province: area.name })
          : fill(t.area.areaLead, { area: area.name, city: city.name }))
      }
      fee={terms.fee}
      art={<Illustration scene="adjuster" />}
      trust={<SiteTrust site={site} />}
      t={site.t}
    >
      <Questionnaire
        title={fill(t.area.formTitle, { area: area.name })}
        endpoint={site.settings.leadEndpoint}
        cityName={province ? area.name : city.name}
        province={code ?? city.provinceCode}
        pagePath={page.path}
        phone={site.format.phone(site.phone)}
        tel={site.links.tel(site.phone)}
        kind="assessment"
        note={terms.formNote}
        t={site.t}
        links={site.links}
      />
    </CityHero>
  );
}

/** An area of a city: its own description, or its city's with the same risks. */
function AreaLocal({ ctx, view }: { ctx: PageContext; view: AreaView }) {
  const { site } = ctx;
  const { t } = site;
  const { city, area } = view;
  return (
    <Section id="local-title" title={fill(t.area.localTitle, { area: area.name })}>
      <div className="prose">
        {area.description && area.source ? (
          <p>
            {area.description}
            <Cite source={area.source} t={site.t} />
          </p>
        ) : (
          <p>
            {fillParts(t.area.sameRisks, {
              area: area.name,
              cite: area.source ? <Cite key="cite" source={area.source} t={t} /> : '',
              city: city.name,
            })}{' '}
            {city.description}
            <Cites sources={city.descriptionSources} t={site.t} />
          </p>
        )}
        <Population
          city={city}
          source={site.facts.populationSource}
          t={site.t}
          format={site.format}
        />
      </div>
    </Section>
  );
}

/** A province's own facts: where to get help, and who rules on claims there. */
function ProvinceSections({
  ctx,
  province,
  rules,
}: {
  ctx: PageContext;
  province: string;
  rules: NonNullable<ReturnType<PageContext['site']['facts']['provinces']['get']>>;
}) {
  const { site } = ctx;
  return (
    <>
      <ProvinceAssistance facts={rules.assistance ?? []} french={site.lang === 'fr'} t={site.t} />
      <Section id="rules-title" title={fill(site.t.area.rulesTitle, { province })}>
        <ProvinceRules
          province={province}
          facts={rules}
          national={site.facts.nationalComplaints}
          t={site.t}
        />
      </Section>
    </>
  );
}

/** The cities near an area, a province's cities, or for a described area its city. */
function AreaNearby({ ctx, view }: { ctx: PageContext; view: AreaView }) {
  const { site } = ctx;
  const { t, links } = site;
  const { city, area, province, described, code } = view;
  const provinceCities = code ? site.cities.filter((c) => c.provinceCode === code) : [];
  return described ? (
    <Section id="nearby-title" title={fill(t.area.moreTitle, { city: city.name })}>
      <p>
        {fillParts(t.area.partOf, {
          area: area.name,
          city: city.name,
          link: (
            <a key="link" href={links.city(city)}>
              {fill(t.area.partOfLink, { city: city.name })}
            </a>
          ),
        })}
      </p>
    </Section>
  ) : (
    <Section
      id="nearby-title"
      title={
        province
          ? fill(t.area.provinceCitiesTitle, { province: area.name })
          : fill(t.area.nearTitle, { area: area.name })
      }
    >
      {province ? (
        provinceCities.length > 0 ? (
          <CityLinks cities={provinceCities} t={t} links={links} />
        ) : (
          <p>{t.area.noCities}</p>
        )
      ) : (
        <Shared
          component={NearbyCities}
          props={{ city, cities: nearbyCities(site, city, NEARBY), t, links }}
        />
      )}
    </Section>
  );
}

/** A city's neighbours, the same on each of its area pages. */
function NearbyCities({
  city,
  cities,
  t,
  links,
}: {
  city: City;
  cities: readonly City[];
  t: Strings;
  links: Links;
}) {
  return (
    <>
      <p>
        <a href={links.cityPage(city, 'public-adjusters')}>
          {fill(t.area.allInCity, { city: city.name })}
        </a>
      </p>
      <CityLinks cities={cities} t={t} links={links} />
    </>
  );
}
