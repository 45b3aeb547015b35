import type { PageContext } from '../../src/render/context.js';
import { business } from '../../src/render/structured-data.js';
import { cityNames, HOME_CITIES, topCities } from '../../src/site/model.js';
import { NATIONAL } from '../../src/site/segments.js';
import { CallToAction } from '../components/CallToAction.js';
import { CityFinder, CitySearch } from '../components/CityFinder.js';
import { CityHero } from '../components/CityHero.js';
import { HowItWorks } from '../components/HowItWorks.js';
import { Icon, type IconName } from '../components/Icon.js';
import { Illustration } from '../components/Illustration.js';
import { PhotoGallery } from '../components/Photo.js';
import { Questionnaire } from '../components/Questionnaire.js';
import { SampleLabel } from '../components/SampleLabel.js';
import { SiteTrust } from '../components/Trust.js';
import { Layout } from '../layout/Layout.js';

const BADGE_ICONS: IconName[] = ['shield', 'star', 'clock'];

export function HomePage(ctx: PageContext) {
  const { site } = ctx;
  const { t, links } = site;
  const phone = site.format.phone(site.phone);
  return (
    <Layout ctx={ctx} form jsonLd={[business(site)]}>
      <HomeHero ctx={ctx} />

      <Badges site={site} />

      <CityFinder
        title={site.area ? t.home.areaCitiesTitle : t.home.citiesTitle}
        cities={topCities(site, HOME_CITIES)}
        provinces={site.national}
        cityIndex={ctx.assets.cityIndex}
        basePath={site.basePath}
        names={cityNames(site)}
        t={t}
        links={links}
      />

      <HowItWorks title={t.pages.howItWorks} steps={site.content.process.howItWorks} />

      {/* The first three of the owner's photos, below the fold: the About pages show them all. */}
      <PhotoGallery
        photos={site.settings.photos}
        pictures={ctx.assets.photos}
        limit={3}
        lang={site.lang}
        t={t}
        links={links}
      />

      <CallToAction
        phone={phone}
        tel={links.tel(site.phone)}
        scope={NATIONAL}
        place={t.pages.yourArea}
        t={site.t}
        links={site.links}
      />
    </Layout>
  );
}

/**
 * The main action is the questionnaire itself, in the hero: its first question is in a phone's
 * first screen, and the button beside it on a wide screen leads into it.
 */
function HomeHero({ ctx }: { ctx: PageContext }) {
  const { site } = ctx;
  const { t, links } = site;
  const phone = site.format.phone(site.phone);
  return (
    <CityHero
      eyebrow={t.home.eyebrow}
      title={t.home.heroTitle}
      lead={t.home.heroLead}
      actions={
        <>
          <a className="button button-accent" href={`#${links.claimFormId}`}>
            {t.home.startAssessment}
          </a>
          <a className="button button-light" href={links.tel(site.phone)}>
            <Icon name="phone" size={20} /> {phone}
          </a>
        </>
      }
      art={<Illustration scene="adjuster" />}
      trust={<SiteTrust site={site} />}
      finder={
        // Up to 1200px, where the menu's finder is one tap away; from there it is in the row.
        <CitySearch
          id="hero-city-search"
          cityIndex={ctx.assets.cityIndex}
          basePath={site.basePath}
          t={t}
          links={links}
        />
      }
      t={site.t}
    >
      <Questionnaire
        title={t.cityLanding.homeForm}
        endpoint={site.settings.leadEndpoint}
        cityName={site.national.name}
        pagePath={ctx.page.path}
        phone={phone}
        tel={links.tel(site.phone)}
        t={site.t}
        links={links}
      />
    </CityHero>
  );
}

/** The firm's badges (the about content's), each with its icon; none, no section. */
function Badges({ site }: { site: PageContext['site'] }) {
  const { t } = site;
  if (site.content.about.badges.length === 0) return null;
  return (
    <section className="badges" aria-label={t.home.badgesLabel}>
      <ul className="container badge-grid">
        {site.content.about.badges.map((b, i) => (
          <li key={b.title} className="badge">
            <Icon name={BADGE_ICONS[i] ?? 'check'} size={32} />
            <div>
              <h2>{b.title}</h2>
              <p>{b.description}</p>
              {b.sample && <SampleLabel t={t} />}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
