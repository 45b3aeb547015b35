import type { PageContext } from '../../src/render/context.js';
import { NATIONAL } from '../../src/site/segments.js';
import { links } from '../../src/urls.js';
import { Layout } from '../layout/Layout.js';

/** Where the lead endpoint sends a form posted without JavaScript that it could not accept. */
export function FormErrorPage(ctx: PageContext) {
  const { phone } = ctx.site.settings;
  return (
    <Layout ctx={ctx}>
      <section className="section">
        <div className="container narrow">
          <h1>We Could Not Send Your Request</h1>
          <p className="lead">
            Go back to the form: your browser usually keeps what you typed. Or call us any time at{' '}
            <a href={links.tel(phone)}>{phone}</a>.
          </p>
          <ul>
            <li>
              A field may be missing or not accepted: a name, phone number or city must be on one
              line.
            </li>
            <li>
              Several requests may have come from your connection in a short time: wait a minute,
              then send again.
            </li>
          </ul>
          <p>
            <a
              className="button button-primary"
              href={links.cityPage(NATIONAL, 'free-consultation')}
              data-history-back=""
            >
              Go Back to the Form
            </a>
          </p>
        </div>
      </section>
    </Layout>
  );
}
