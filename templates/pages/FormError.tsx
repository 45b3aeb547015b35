import type { PageContext } from '../../src/render/context.js';
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
            Something in the form was missing or could not be accepted, or too many requests came at
            once. Go back to the form: your browser usually keeps what you typed. Or call us any
            time at <a href={links.tel(phone)}>{phone}</a>.
          </p>
          <p>
            <a
              className="button button-primary"
              href={links.cityPage('canada', 'free-consultation')}
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
