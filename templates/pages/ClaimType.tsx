import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { breadcrumbs, businessFor, faqPage, service } from '../../src/render/structured-data.js';
import type { ServiceType } from '../../src/site/content-schema.js';
import { regionName } from '../../src/site/model.js';
import type { ClaimType } from '../../src/site/segments.js';
import { Accordion } from '../components/Accordion.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { SiteCallToAction } from '../components/CallToAction.js';
import { CityHero } from '../components/CityHero.js';
import { HowItWorks } from '../components/HowItWorks.js';
import { Illustration, type Scene } from '../components/Illustration.js';
import { type Preset, Questionnaire } from '../components/Questionnaire.js';
import { Section } from '../components/Section.js';
import { SiteTrust } from '../components/Trust.js';
import { Layout } from '../layout/Layout.js';
import { isQuebec, termsIn } from './quebec.js';
import { cityOf, trail } from './shared.js';

/** The six claim-type pages: hero and assessment form, process, features, causes, coverage, FAQs. */
export function ClaimTypePage(ctx: PageContext) {
  const { site, page } = ctx;
  const city = cityOf(ctx);
  const type = site.content.services.types.find((t) => t.type === page.claimType);
  if (!type) throw new Error(`no content for claim type ${page.claimType}`);
  const { t } = site;
  const place = city.national ? regionName(site) : city.name;
  const heading = fill(t.claimType.heading, { claimType: type.title, place });
  const crumbs = trail(ctx, type.title);
  const terms = termsIn(isQuebec(city), site.content);
  return (
    <Layout
      ctx={ctx}
      form
      jsonLd={[
        businessFor(site, isQuebec(city)),
        breadcrumbs(site, crumbs),
        service(site, page, city, type.title),
        faqPage(type.faqs),
      ]}
    >
      <Breadcrumbs trail={crumbs} t={site.t} />
      <CityHero
        title={heading}
        lead={leadOf(type.description).first}
        fee={terms.fee}
        art={<Illustration scene={SCENES[type.type as ClaimType]} />}
        trust={<SiteTrust site={site} />}
        t={site.t}
      >
        <Questionnaire
          title={t.claimType.formTitle}
          endpoint={site.settings.leadEndpoint}
          cityName={city.name}
          province={city.provinceCode}
          pagePath={page.path}
          phone={site.format.phone(site.phone)}
          tel={site.links.tel(site.phone)}
          kind="assessment"
          preset={PRESETS[type.type as ClaimType]}
          note={terms.formNote}
          t={site.t}
          links={site.links}
        />
      </CityHero>

      <HowItWorks
        title={t.pages.howItWorks}
        steps={terms.steps(site.content.process.claimProcess)}
      />

      <Shared component={ClaimTypeSections} props={{ type, t }} />

      <SiteCallToAction site={site} scope={scopeSlug(ctx)} place={place} text={terms.cta(place)} />
    </Layout>
  );
}

/**
 * A claim type's description split after its first sentence: the hero says that much, so that
 * on a phone the form starts within the first screen and a half; the rest opens the sections.
 */
function leadOf(description: string): { first: string; rest: string } {
  const at = description.search(/[.!?] /);
  return at < 0
    ? { first: description, rest: '' }
    : { first: description.slice(0, at + 1), rest: description.slice(at + 2) };
}

/** The form on a claim type's page starts with what the page is about. */
/** Each claim type's picture: its damage on a home; theft, the first of the "other" losses. */
const SCENES: Record<ClaimType, Scene> = {
  residential: 'other',
  commercial: 'documents',
  fire: 'fire',
  flood: 'water',
  storm: 'storm',
  other: 'theft',
};

const PRESETS: Record<ClaimType, Preset> = {
  residential: { claimType: 'residential' },
  commercial: { claimType: 'commercial' },
  fire: { damage: 'fire' },
  flood: { damage: 'water' },
  storm: { damage: 'storm' },
  other: {},
};

/** What a claim type is about: the same for the claim type in every city. */
function ClaimTypeSections({ type, t }: { type: ServiceType; t: Strings }) {
  const { rest } = leadOf(type.description);
  return (
    <>
      <Section id="features-title" title={t.claimType.featuresTitle}>
        {rest && <p className="section-intro">{rest}</p>}
        <ul className="checklist checklist-grid">
          {type.features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      </Section>

      <section className="section" aria-label={t.claimType.causesLabel}>
        <div className="container two-col">
          <div>
            <h2 id="causes-title">{t.claimType.causesTitle}</h2>
            <ul className="bullet-list">
              {type.commonCauses.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </div>
          <div>
            <h2 id="coverage-title">{t.claimType.coverageTitle}</h2>
            <ul className="bullet-list">
              {type.coverageItems.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <Section id="faq-title" title={t.pages.faqTitle}>
        <Accordion id="type-faq" items={type.faqs} />
      </Section>
    </>
  );
}
