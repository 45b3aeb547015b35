import { LIMITS } from '../../src/lead/rules.js';
import type { PageContext } from '../../src/render/context.js';
import { breadcrumbs, business } from '../../src/render/structured-data.js';
import { isTollFree } from '../../src/site/phone.js';
import { businessShown } from '../../src/site/service-area.js';
import { AreaCards } from '../components/AreaCards.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { BusinessDetails } from '../components/BusinessDetails.js';
import { Honeypot, PersonFields, TurnstileSlot } from '../components/FormFields.js';
import { Icon } from '../components/Icon.js';
import { Illustration } from '../components/Illustration.js';
import { Section } from '../components/Section.js';
import { Layout } from '../layout/Layout.js';
import { trail } from './shared.js';

/** /contact: phone, e-mail, hours, service areas, reasons to choose us, and a message form. */
export function ContactPage(ctx: PageContext) {
  const { site } = ctx;
  const { t } = site;
  const c = t.contact;
  const crumbs = trail(ctx, t.layout.contact);
  return (
    <Layout ctx={ctx} jsonLd={[business(site), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} t={site.t} />
      <section className="hero">
        <div className="container hero-split">
          <h1>{t.routes.contactTitle}</h1>
          <p className="lead">{c.lead}</p>
          <div className="hero-art">
            <Illustration scene="adjuster" />
          </div>
        </div>
      </section>

      <section className="section" aria-label={c.reachLabel}>
        <div className="container contact-grid">
          <ContactCards site={site} />

          <ContactForm site={site} />
        </div>
      </section>

      <Section id="areas-title" title={c.areasTitle}>
        <AreaCards city={site.national} links={site.links} />
      </Section>

      <Section id="reasons-title" title={c.reasonsTitle}>
        <ul className="card-grid">
          {site.content.about.reasons.map((r) => (
            <li key={r.title} className="card">
              <h3>{r.title}</h3>
              <p>{r.description}</p>
            </li>
          ))}
        </ul>
      </Section>
    </Layout>
  );
}

/** How to reach the firm: phone, e-mail, hours, and who it is where the settings say. */
function ContactCards({ site }: { site: PageContext['site'] }) {
  const { t, links } = site;
  const { email, officeHours, emergencyHours } = site.settings;
  const phone = site.format.phone(site.phone);
  const c = t.contact;
  const shown = businessShown(site);
  return (
    <div className="contact-cards">
      <div className="card">
        <Icon name="phone" />
        <h2>{c.phoneTitle}</h2>
        <p>
          <a className="big-link" href={links.tel(site.phone)}>
            {phone}
          </a>
        </p>
        {/* Only a toll-free number is said to be one. */}
        <p className="muted">{isTollFree(site.phone) ? c.phoneNote : c.phoneNoteLocal}</p>
      </div>
      <div className="card">
        <Icon name="mail" />
        <h2>{c.emailTitle}</h2>
        <p>
          <a className="big-link" href={links.mailto(email)}>
            {email}
          </a>
        </p>
      </div>
      <div className="card">
        <Icon name="clock" />
        <h2>{c.hoursTitle}</h2>
        <dl className="hours">
          <dt>{c.emergencyHours}</dt>
          <dd>{emergencyHours}</dd>
          <dt>{c.officeHours}</dt>
          <dd>{officeHours}</dd>
        </dl>
      </div>
      {(shown?.legalName || shown?.address || shown?.licences?.length) && (
        <div className="card">
          <Icon name="pin" />
          <h2>{c.whoTitle}</h2>
          {shown?.legalName && <p>{shown.legalName}</p>}
          <BusinessDetails business={shown} t={site.t} />
        </div>
      )}
    </div>
  );
}

/** The message form: sent to the lead endpoint, answered in place by the browser script. */
function ContactForm({ site }: { site: PageContext['site'] }) {
  const { t, links } = site;
  const { leadEndpoint } = site.settings;
  const phone = site.format.phone(site.phone);
  const c = t.contact;
  return (
    <form
      className="contact-form card"
      method="post"
      action={links.href(leadEndpoint)}
      data-contact-form=""
      data-phone={phone}
      data-text-failed={t.client.failed}
      data-text-busy={t.client.busy}
      data-text-sent={t.client.sent}
      aria-labelledby="contact-form-title"
    >
      <h2 id="contact-form-title">{c.formTitle}</h2>
      <input type="hidden" name="form" value="contact" />
      <input type="hidden" name="page" value={links.page('contact')} />
      <input type="hidden" name="submissionId" value="" data-submission-id="" />
      <Honeypot t={site.t} />
      <PersonFields prefix="c" phoneLabel={c.phoneLabel} phoneRequired={false} t={t} />
      <div className="field">
        <label htmlFor="c-message">{c.message}</label>
        <textarea id="c-message" name="message" rows={5} required maxLength={LIMITS.text} />
      </div>
      <TurnstileSlot />
      <div className="form-error" role="alert" data-form-error="" />
      <output className="form-done" data-form-done="" />
      <button type="submit" className="button button-accent">
        {c.send}
      </button>
    </form>
  );
}
