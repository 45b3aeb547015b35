import { LIMITS } from '../../src/lead/rules.js';
import type { PageContext } from '../../src/render/context.js';
import { breadcrumbs, business } from '../../src/render/structured-data.js';
import { links } from '../../src/urls.js';
import { AreaCards } from '../components/AreaCards.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { BusinessDetails } from '../components/BusinessDetails.js';
import { Honeypot, PersonFields } from '../components/FormFields.js';
import { Icon } from '../components/Icon.js';
import { Section } from '../components/Section.js';
import { Layout } from '../layout/Layout.js';
import { trail } from './shared.js';

/** /contact: phone, e-mail, hours, service areas, reasons to choose us, and a message form. */
export function ContactPage(ctx: PageContext) {
  const { site } = ctx;
  const { phone, email, officeHours, emergencyHours, leadEndpoint } = site.settings;
  const crumbs = trail(ctx, 'Contact');
  return (
    <Layout ctx={ctx} jsonLd={[business(site), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} />
      <section className="hero">
        <div className="container">
          <h1>Contact Us</h1>
          <p className="lead">
            Questions about a claim? Call, write or send us a message. A team member responds within
            24 hours.
          </p>
        </div>
      </section>

      <section className="section" aria-label="How to reach us">
        <div className="container contact-grid">
          <div className="contact-cards">
            <div className="card">
              <Icon name="phone" />
              <h2>Phone Support 24/7</h2>
              <p>
                <a className="big-link" href={links.tel(phone)}>
                  {phone}
                </a>
              </p>
              <p className="muted">Toll-free across Canada, day and night.</p>
            </div>
            <div className="card">
              <Icon name="mail" />
              <h2>Email</h2>
              <p>
                <a className="big-link" href={links.mailto(email)}>
                  {email}
                </a>
              </p>
            </div>
            <div className="card">
              <Icon name="clock" />
              <h2>Hours</h2>
              <dl className="hours">
                <dt>Emergency response</dt>
                <dd>{emergencyHours}</dd>
                <dt>Office hours</dt>
                <dd>{officeHours}</dd>
              </dl>
            </div>
            {(site.settings.business?.legalName ||
              site.settings.business?.address ||
              site.settings.business?.licences?.length) && (
              <div className="card">
                <Icon name="pin" />
                <h2>Who We Are</h2>
                {site.settings.business?.legalName && <p>{site.settings.business.legalName}</p>}
                <BusinessDetails business={site.settings.business} t={site.t} />
              </div>
            )}
          </div>

          <form
            className="contact-form card"
            method="post"
            action={leadEndpoint}
            data-contact-form=""
            data-phone={phone}
            aria-labelledby="contact-form-title"
          >
            <h2 id="contact-form-title">Send Us a Message</h2>
            <input type="hidden" name="form" value="contact" />
            <input type="hidden" name="page" value={links.page('contact')} />
            <input type="hidden" name="submissionId" value="" data-submission-id="" />
            <Honeypot />
            <PersonFields prefix="c" phoneLabel="Phone number" phoneRequired={false} />
            <div className="field">
              <label htmlFor="c-message">Message</label>
              <textarea id="c-message" name="message" rows={5} required maxLength={LIMITS.text} />
            </div>
            <div className="form-error" role="alert" data-form-error="" />
            <output className="form-done" data-form-done="" />
            <button type="submit" className="button button-accent">
              Send Message
            </button>
          </form>
        </div>
      </section>

      <Section id="areas-title" title="Service Areas" tone="soft">
        <AreaCards city={site.national} />
      </Section>

      <Section id="reasons-title" title="Why Choose Us">
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
