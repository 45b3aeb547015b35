import type { PageContext } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { business } from '../../src/render/structured-data.js';
import { HOME_CITIES, topCities } from '../../src/site/model.js';
import { NATIONAL } from '../../src/site/segments.js';
import { links } from '../../src/urls.js';
import { CallToAction } from '../components/CallToAction.js';
import { Icon, type IconName } from '../components/Icon.js';
import { Section } from '../components/Section.js';
import { Steps } from '../components/Steps.js';
import { Layout } from '../layout/Layout.js';

const BADGE_ICONS: IconName[] = ['shield', 'star', 'clock'];

export function HomePage(ctx: PageContext) {
  const { site } = ctx;
  const { phone } = site.settings;
  return (
    <Layout ctx={ctx} jsonLd={[business(site)]}>
      <section className="hero hero-home">
        <div className="container">
          <p className="eyebrow">Licensed public adjusters across Canada</p>
          <h1>Free Property Damage Assessment</h1>
          <p className="lead">
            Fire, water, storm or theft damage? A licensed public adjuster works for you, not your
            insurer, to document your loss and negotiate the full settlement your policy promises.
          </p>
          <div className="hero-actions">
            <a
              className="button button-accent"
              href={links.cityPage(NATIONAL, 'free-consultation')}
            >
              Start Your Free Assessment
            </a>
            <a className="button button-light" href={links.tel(phone)}>
              <Icon name="phone" size={20} /> {phone}
            </a>
          </div>
        </div>
      </section>

      <section className="badges" aria-label="Why property owners trust us">
        <ul className="container badge-grid">
          {site.content.about.badges.map((b, i) => (
            <li key={b.title} className="badge">
              <Icon name={BADGE_ICONS[i] ?? 'check'} size={32} />
              <div>
                <h2>{b.title}</h2>
                <p>{b.description}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <Section
        id="cities-title"
        title="Public Adjusters in Canada's Largest Cities"
        intro="Choose your city to get matched with a licensed adjuster who knows local claims."
      >
        <ul className="city-grid">
          {topCities(site, HOME_CITIES).map((c) => (
            <li key={c.slug} className="card city-card">
              <h3>
                <a href={links.city(c)}>{c.name}</a>
              </h3>
              <p className="muted">{c.province}</p>
              <ul className="link-list">
                <li>
                  <a href={links.cityPage(c, 'public-adjusters')}>Find adjusters in {c.name}</a>
                </li>
                <li>
                  <a href={links.cityPage(c, 'top-adjusters')}>Top adjusters in {c.name}</a>
                </li>
                <li>
                  <a href={links.cityPage(c, 'claims-offices')}>Claims offices in {c.name}</a>
                </li>
                <li>
                  <a href={links.cityPage(c, 'free-consultation')}>Free consultation in {c.name}</a>
                </li>
              </ul>
            </li>
          ))}
        </ul>
        <p className="more-link">
          <a href={links.page('sitemap')}>See all cities we serve</a>
        </p>
      </Section>

      <Section id="how-title" title="How It Works" tone="soft">
        <Shared component={Steps} props={{ steps: site.content.process.howItWorks }} />
      </Section>

      <CallToAction phone={phone} scope={NATIONAL} place="your area" />
    </Layout>
  );
}
