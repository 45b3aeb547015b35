import type { PageContext } from '../../src/render/context.js';
import { links } from '../../src/urls.js';
import { Logo } from '../components/Logo.js';
import { Steps } from '../components/Steps.js';
import { Document } from '../layout/Document.js';

/** /confirmation/: outside the shared layout. The script fills in the city from ?city=. */
export function ConfirmationPage(ctx: PageContext) {
  const { site } = ctx;
  const { phone, email, siteName } = site.settings;
  const next = [
    {
      title: 'We Review Your Claim',
      description: 'A team member reads your answers and matches you with a licensed adjuster.',
      details: ['Within 24 hours', 'No cost to you'],
    },
    {
      title: 'Your Adjuster Calls You',
      description: 'They explain your options and book a free inspection of the damage.',
      details: ['Policy review', 'On-site inspection'],
    },
    {
      title: 'You Decide',
      description: 'If you go ahead, you sign a written agreement. There are no upfront fees.',
      details: ['5-15% only on success', 'You stay in control'],
    },
  ];
  return (
    <Document ctx={ctx} jsonLd={[]}>
      <header className="confirm-header">
        <div className="container">
          <Logo siteName={siteName} home={ctx.site.links.home} />
        </div>
      </header>
      <main id="main" className="section">
        <div className="container narrow">
          <h1>Thank You</h1>
          <p className="lead">
            We have received your claim request for{' '}
            <strong data-confirmation-city="">your city</strong>. A team member will contact you
            within 24 hours.
          </p>
          <h2>Next Steps</h2>
          <Steps steps={next} />
          <div className="card confirm-contact">
            <h2>Need Help Sooner?</h2>
            <p>
              Call us 24/7 at <a href={links.tel(phone)}>{phone}</a> or email{' '}
              <a href={links.mailto(email)}>{email}</a>.
            </p>
          </div>
          <p className="confirm-actions">
            <a className="button button-primary" href={links.home} data-history-back="">
              Return to Previous Page
            </a>
          </p>
        </div>
      </main>
    </Document>
  );
}
