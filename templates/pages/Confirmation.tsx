import { fill, fillParts, type Strings } from '../../src/i18n/catalogue.js';
import { DAMAGE_TYPES } from '../../src/lead/rules.js';
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

type Damage = (typeof DAMAGE_TYPES)[number];

/** The step that comes first for a kind of damage, shown by the script for the damage reported. */
const forDamage = ({ confirmation: c }: Strings): Partial<Record<Damage, string>> => ({
  water: c.waitWater,
  fire: c.waitFire,
  wind: c.waitStorm,
  storm: c.waitStorm,
  theft: c.waitTheft,
});

/**
 * While you wait: general steps that protect any claim, after the one for the damage reported
 * (the form sends its types in ?damage=; the script shows their lines, once each).
 */
function WhileYouWait({ t }: { t: Strings }) {
  const c = t.confirmation;
  const own = forDamage(t);
  const lines = [...new Set(Object.values(own))];
  return (
    <section className="card confirm-wait" aria-labelledby="wait-title">
      <h2 id="wait-title">{c.waitTitle}</h2>
      <p>{c.waitIntro}</p>
      <ul className="checklist">
        {lines.map((line) => (
          <li key={line} data-wait={DAMAGE_TYPES.filter((d) => own[d] === line).join(' ')} hidden>
            {line}
          </li>
        ))}
        <li>{c.waitPhotos}</li>
        <li>{c.waitKeep}</li>
        <li>{c.waitAdjuster}</li>
        <li>{c.waitRelease}</li>
        <li>{c.waitReceipts}</li>
      </ul>
    </section>
  );
}

/** Whom to call or write to for help meanwhile. */
function HelpCard({ site }: { site: PageContext['site'] }) {
  const { t, links } = site;
  const { email } = site.settings;
  const phone = site.format.phone(site.phone);
  return (
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
  );
}

/** /confirmation/: outside the shared layout. The script fills in the city from ?city=. */
export function ConfirmationPage(ctx: PageContext) {
  const { site } = ctx;
  const { t, links } = site;
  const { officeHours, responsePromise } = site.settings;
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
          {/* The reference, from ?ref= (the first characters of the submission's id, which the
              owner finds in the CRM's note): shown by the script when there is one. */}
          <p className="confirm-ref" data-confirmation-ref="" hidden>
            {fillParts(t.confirmation.reference, { ref: <strong key="ref" /> })}
          </p>
          {responsePromise && <p>{responsePromise}</p>}
          <p>{fill(t.confirmation.hours, { hours: officeHours })}</p>
          <WhileYouWait t={t} />
          <h2>{t.confirmation.nextSteps}</h2>
          <Steps steps={next} />
          {site.settings.booking && <Booking calendar={site.settings.booking.calendar} t={t} />}
          <HelpCard site={site} />
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
