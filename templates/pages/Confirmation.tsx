import { fillParts, type Strings } from '../../src/i18n/catalogue.js';
import { memoize } from '../../src/memo.js';
import type { PageContext } from '../../src/render/context.js';
import { Booking } from '../components/Booking.js';
import { ConsentSettings } from '../components/Consent.js';
import { brandOf, Logo } from '../components/Logo.js';
import { Steps } from '../components/Steps.js';
import { Document } from '../layout/Document.js';

/** What happens after a request, in the language's words: one list per language. */
const nextSteps = memoize(({ confirmation: c }: Strings) => [
  {
    title: c.reviewTitle,
    description: c.reviewDescription,
    details: [c.reviewDetail1, c.reviewDetail2],
  },
  {
    title: c.callTitle,
    description: c.callDescription,
    details: [c.callDetail1, c.callDetail2],
  },
  {
    title: c.decideTitle,
    description: c.decideDescription,
    details: [c.decideDetail1, c.decideDetail2],
  },
]);

/** /confirmation/: outside the shared layout. The script fills in the city from ?city=. */
export function ConfirmationPage(ctx: PageContext) {
  const { site } = ctx;
  const { t, links } = site;
  const { email } = site.settings;
  const phone = site.format.phone(site.phone);
  const next = nextSteps(t);
  return (
    <Document ctx={ctx} jsonLd={[]}>
      <header className="confirm-header">
        <div className="container">
          <Logo brand={brandOf(site)} />
        </div>
      </header>
      <main id="main" className="section">
        <div className="container narrow">
          <h1>{t.routes.confirmationTitle}</h1>
          <p className="lead">
            {fillParts(t.confirmation.received, {
              city: (
                <strong key="city" data-confirmation-city="">
                  {t.confirmation.yourCity}
                </strong>
              ),
            })}
          </p>
          <h2>{t.confirmation.nextSteps}</h2>
          <Steps steps={next} />
          {site.settings.booking && <Booking calendar={site.settings.booking.calendar} t={t} />}
          <div className="card confirm-contact">
            <h2>{t.confirmation.helpTitle}</h2>
            <p>
              {fillParts(t.confirmation.help, {
                phone: (
                  <a key="phone" href={links.tel(site.phone)}>
                    {phone}
                  </a>
                ),
                email: (
                  <a key="email" href={links.mailto(email)}>
                    {email}
                  </a>
                ),
              })}
            </p>
          </div>
          <p className="confirm-actions">
            <a className="button button-primary" href={links.home} data-history-back="">
              {t.confirmation.back}
            </a>
          </p>
        </div>
      </main>
      {site.settings.analyticsId && (
        // Outside the shared layout, the one footer link it needs: the consent choice.
        <footer className="confirm-footer">
          <ul className="container">
            <ConsentSettings t={t} />
          </ul>
        </footer>
      )}
    </Document>
  );
}
